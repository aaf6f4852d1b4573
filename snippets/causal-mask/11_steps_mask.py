import numpy as np
from matplotlib import colormaps

from minigpt.gpt import causal_mask
from minigpt.tensor import Tensor
from minigpt_course import figures

line, d = "相见时难别", 16  # the first 5 characters of 02_mask.py's line, the same vectors
T = len(line)
x = Tensor(np.stack([np.random.default_rng(ord(c)).standard_normal(d) for c in line]))  # (T, d)
scores = x @ x.T * (1 / np.sqrt(d))  # (T, T)
mask = causal_mask(T)  # (T, T), True above the diagonal
filled = scores.masked_fill(mask, -np.inf)  # (T, T)
weights = filled.softmax(dim=-1)  # (T, T)
print("row sums:", " ".join(f"{s:.2f}" for s in weights.data.sum(-1)))

STEPS = ["scores = q @ k.T / √d", f"mask = causal_mask({T})", "scores.masked_fill(mask, -np.inf)",
         "weights = (...).softmax(dim=-1)"]
WORDS = {"zh": ("行：查询，列：键", "灰色：mask 为 True，不许看", "填 −∞：softmax 之后 exp(−∞) = 0",
                "第 t 行只在位置 0..t 上分权重，和为 1"),
         "en": ("rows: queries, columns: keys", "grey: mask is True, may not look",
                "−∞: after the softmax, exp(−∞) = 0", "row t: weights on 0..t only, sum 1")}
blues = colormaps["Blues"]

for step, lang, fig in figures.steps("causal-mask-steps", len(STEPS), size=(4.2, 2.75), dpi=120, font_size=12):
    ax = figures.canvas(fig, 7.8, 5.1)
    ax.text(0, 4.85, STEPS[step - 1], family=figures.CODE_FONT, va="center")
    ax.text(0, 0.25, WORDS[lang][step - 1], va="center")
    for i in range(T):
        ax.text(1.2, 3.6 - 0.6 * i, f"{i} {line[i]}", ha="right", va="center")  # query i
        ax.text(1.8 + i, 4.25, f"{i} {line[i]}", ha="center", va="center")  # key i
        for j in range(T):
            x0, y0, hidden = 1.3 + j, 3.3 - 0.6 * i, bool(mask[i, j])
            if step == 1 or (step == 2 and not hidden):
                figures.box(ax, x0, y0, f"{scores.data[i, j]:.1f}", h=0.6)
            elif step == 2:  # the mask laid over the scores
                figures.box(ax, x0, y0, f"{scores.data[i, j]:.1f}", "#d0d0d0", h=0.6, hatch="//",
                            edge="#888", text_color="#666")
            elif step == 3:
                text = "−∞" if hidden else f"{filled.data[i, j]:.1f}"
                figures.box(ax, x0, y0, text, "#bdbdbd" if hidden else "white", h=0.6)
            else:
                w = weights.data[i, j]
                figures.box(ax, x0, y0, f"{w:.2f}", "#e0e0e0" if hidden else blues(0.05 + 0.45 * w), h=0.6,
                            text_color="#999" if hidden else "black")
        if step == 4:
            ax.text(6.5, 3.6 - 0.6 * i, f"Σ {weights.data[i].sum():.2f}", va="center")
