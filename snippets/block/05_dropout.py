import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import Block
from minigpt.tensor import Tensor

block = Block(GPTConfig(dropout=0.1), np.random.default_rng(0))  # 3 dropouts, p=0.1
plain = Block(GPTConfig(dropout=0.0), np.random.default_rng(0))  # the same weights, p=0
x = np.random.default_rng(1).standard_normal((2, 8, 64)).astype(np.float32)
x = Tensor(x)  # (B, T, C)
attn = block.attn
print("dropout p:", attn.attn_dropout.p, attn.resid_dropout.p, block.mlp.dropout.p)
print("training: two calls equal:", np.array_equal(block(x).data, block(x).data))
block.eval()
print("eval    : two calls equal:", np.array_equal(block(x).data, block(x).data),
      " same as p=0:", np.array_equal(block(x).data, plain(x).data))
