import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import GPT

model = GPT(GPTConfig(vocab_size=100, n_embd=32, block_size=8))
for what, call in [
    ("a context longer than block_size", lambda: model(np.zeros((1, 9), dtype=np.int64))),
    ("a token id >= vocab_size", lambda: model(np.array([[5, 100]]))),
    ("a dict instead of a GPTConfig", lambda: GPT({"vocab_size": 100})),
]:
    try:
        call()
    except (ValueError, TypeError) as e:
        print(f"{what}:\n  {type(e).__name__}: {e}")
