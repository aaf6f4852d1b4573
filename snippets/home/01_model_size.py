import torch

from minigpt.config import GPTConfig
from minigpt.data import poem_corpus
from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset

V = poem_corpus().tokenizer.vocab_size
ours = get_preset("poems-cpu").gpt_config(vocab_size=V)
gpt2 = GPTConfig(vocab_size=50257, block_size=1024,  # GPT-2 small
                 n_layer=12, n_head=12, n_embd=768)
with torch.device("meta"):  # shapes only: no memory for the weights
    n_ours = GPT(ours).num_params()
    n_gpt2 = GPT(gpt2).num_params()
print(f"poems-cpu: {ours.n_layer} layers, {ours.n_embd} wide, "
      f"{n_ours:,} parameters")
print(f"GPT-2 small: {gpt2.n_layer} layers, {gpt2.n_embd} wide, "
      f"{n_gpt2:,} parameters ({n_gpt2 / n_ours:.0f}x)")
