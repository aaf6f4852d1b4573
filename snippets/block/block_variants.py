import numpy as np

from minigpt.gpt import GPT, Block
from minigpt.nn import ModuleList


class NoResidualBlock(Block):
    def forward(self, x, kv_cache=None, start=0):
        x = self.attn(self.ln_1(x), kv_cache, start)  # (B, T, C), no "x +"
        return self.mlp(self.ln_2(x))  # (B, T, C)


class PostNormBlock(Block):
    def forward(self, x, kv_cache=None, start=0):
        x = self.ln_1(x + self.attn(x, kv_cache, start))  # (B, T, C), ln after the sum
        return self.ln_2(x + self.mlp(x))  # (B, T, C)


def gpt_with(block_class, config, seed=0):
    model = GPT(config, seed)  # pre-norm blocks
    blocks = []
    for block in model.blocks:
        other = block_class(config, np.random.default_rng(0))
        other.load_state_dict(block.state_dict())  # the same weights, another forward
        blocks.append(other)
    model.blocks = ModuleList(blocks)
    return model
