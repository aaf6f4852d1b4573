import torch

from minigpt.config import GPTConfig
from minigpt.data import poem_corpus
from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset

ours = get_preset("poems-cpu").gpt_config(vocab_size=poem_corpus().tokenizer.vocab_size)
gpt2 = GPTConfig(vocab_size=50257, block_size=1024, n_layer=12, n_head=12, n_embd=768)  # GPT-2 small
with torch.device("meta"):  # shapes only: count the parameters without allocating them
    n_ours, n_gpt2 = GPT(ours).num_params(), GPT(gpt2).num_params()
print(f"poems-cpu: {ours.n_layer} layers, {ours.n_embd} wide, {n_ours:,} parameters")
print(f"GPT-2 small: {gpt2.n_layer} layers, {gpt2.n_embd} wide, {n_gpt2:,} parameters ({n_gpt2 / n_ours:.0f}x)")
