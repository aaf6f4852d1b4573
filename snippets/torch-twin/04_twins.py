import numpy as np

from minigpt import gpt, gpt_torch
from minigpt.config import GPTConfig

config = GPTConfig(vocab_size=69)
a, b = gpt.GPT(config, seed=0), gpt_torch.GPT(config, seed=0)
pa, pb = dict(a.named_parameters()), dict(b.named_parameters())
print(f"{'name':24s} {'numpy shape':12s} torch shape")
for name in list(pa)[:6] + ["..."] + list(pa)[-2:]:
    if name == "...":
        print("...")
        continue
    print(f"{name:24s} {str(pa[name].shape):12s} {tuple(pb[name].shape)}")
print(f"same names in the same order: {list(pa) == list(pb)}")
print(f"same shapes: {all(pa[n].shape == tuple(pb[n].shape) for n in pa)}")
print(f"tensors: {len(pa)} and {len(pb)}; numbers: {a.num_params():,} and {b.num_params():,}")
same = all(np.array_equal(pa[n].data, pb[n].detach().numpy()) for n in pa)
print(f"seed 0 gives bit-identical initial weights: {same}")
print("torch classes:", ", ".join(sorted({type(m).__name__ for m in b.modules()})))
