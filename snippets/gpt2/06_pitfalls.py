import tempfile

import torch

from minigpt import gpt2
from minigpt.bpe import BPETokenizer
from minigpt.checkpoint import load_state
from minigpt.config import GPTConfig
from minigpt.gpt_torch import GPT

folder = tempfile.mkdtemp()


def attempt(fn):
    try:
        fn()
    except Exception as e:
        print(f"{type(e).__name__}: {str(e).replace(folder, '<folder>')}")


attempt(lambda: gpt2.load_gpt2(folder))  # a folder without the model's files
attempt(lambda: gpt2.gpt_config({"activation_function": "relu", "vocab_size": 100, "n_positions": 32, "n_layer": 2,
                                 "n_head": 4, "n_embd": 32}))

model = GPT(GPTConfig(vocab_size=100, block_size=32, n_layer=2, n_head=4, n_embd=32))
hf = gpt2.to_hf(model.state_dict())  # a file's names, as Hugging Face writes them
missing, unexpected = model.load_state_dict(hf, strict=False)
print(f"load_state_dict with GPT-2's names: {len(missing)} missing keys, {len(unexpected)} unexpected, "
      f"first {missing[0]!r} and {unexpected[0]!r}")
state = {ours: t for name, hf_t in hf.items() for ours, t in gpt2.from_hf(name, hf_t).items()}
state["blocks.0.attn.bias"] = torch.ones(1, 1, 32, 32).tril()  # a mapping that kept layer 0's causal mask
attempt(lambda: load_state(model, state, "model.safetensors"))

tok = BPETokenizer.train("the quick brown fox " * 50, vocab_size=300)
attempt(lambda: gpt2.generate(model, tok, "the fox"))  # ids from another vocabulary than the model's
