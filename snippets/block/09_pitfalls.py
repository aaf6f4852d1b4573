import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import GPT
from minigpt.nn import LayerNorm
from minigpt.tensor import Tensor

model = GPT(GPTConfig(vocab_size=69, block_size=32))
for attempt in (lambda: model(np.zeros((1, 40), dtype=np.int64)),
                lambda: LayerNorm(8)(Tensor(np.zeros((2, 8, 64), dtype=np.float32)))):
    try:
        attempt()
    except ValueError as e:
        print(f"{type(e).__name__}: {e}")
