import os
from pathlib import Path

import numpy as np
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from minigpt.config import GPTConfig
from minigpt.gpt import MLP
from minigpt.tensor import Tensor

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
LABELS = {"assets/figures": ("输入 z", "输出", ["Noto Sans CJK SC", "DejaVu Sans"]),
          "en/assets/figures": ("input z", "output", ["DejaVu Sans"])}
docs = Path(os.environ.get("MINIGPT_DOCS", Path(__file__).resolve().parents[2] / "docs"))
for folder, (xlabel, ylabel, fonts) in LABELS.items():
    with rc_context({"font.family": fonts, "font.size": 13}):
        fig = Figure(figsize=(5.2, 3.6), dpi=150)
        FigureCanvasAgg(fig)
        ax = fig.subplots()
        ax.plot(grid, Tensor(grid).relu().data, label="ReLU", linestyle="--")
        ax.plot(grid, Tensor(grid).gelu().data, label="GELU")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        ax.legend()
        fig.tight_layout()
        (docs / folder).mkdir(parents=True, exist_ok=True)
        fig.savefig(docs / folder / "block-gelu.png", metadata={"Software": None})
    print(f"saved docs/{folder}/block-gelu.png")
