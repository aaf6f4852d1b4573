import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MLP
from minigpt.tensor import Tensor
from minigpt_course import figures

mlp = MLP(GPTConfig(), np.random.default_rng(0))  # C=64 -> 4C=256 -> C=64
x = np.random.default_rng(1).standard_normal((1, 6, 64)).astype(np.float32)  # (B, T, C)
x2 = x.copy()
x2[0, 3] += 1.0  # change position 3 only
moved = np.abs(mlp(Tensor(x2)).data - mlp(Tensor(x)).data).max(axis=-1)[0]  # (T,)
print("x changed at position 3 only;")
print("largest change of mlp(x) at positions 0..5:", np.round(moved, 3))

for name, f in (("relu", Tensor.relu), ("gelu", Tensor.gelu)):
    z = Tensor(np.array([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0]), requires_grad=True)
    out = f(z)
    out.sum().backward()
    print(f"{name}(z)  ", np.round(out.data, 3), f"  d{name}/dz", np.round(z.grad, 3))

grid = np.linspace(-4, 3, 141)
LABELS = {"zh": ("输入 z", "输出"), "en": ("input z", "output")}
for lang, fig in figures.bilingual("block-gelu.png", size=(5.2, 3.6), font_size=13):
    xlabel, ylabel = LABELS[lang]
    ax = fig.subplots()
    ax.plot(grid, Tensor(grid).relu().data, label="ReLU", linestyle="--")
    ax.plot(grid, Tensor(grid).gelu().data, label="GELU")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend()
