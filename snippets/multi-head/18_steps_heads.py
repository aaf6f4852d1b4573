import numpy as np

from minigpt.gpt import merge_heads, split_heads
from minigpt.tensor import Tensor
from minigpt_course import figures

B, T, C, nh = 1, 3, 8, 2
hs = C // nh
x = Tensor((100 * np.arange(T)[:, None] + np.arange(C))[None].astype(np.float32))  # (B, T, C): 100*t + c
by_token = x.reshape(B, T, nh, hs)  # (B, T, nh, hs)
q = split_heads(x, nh)  # by_token.permute(0, 2, 1, 3): (B, nh, T, hs)
y = merge_heads(q)  # (B, nh, T, hs) -> (B, T, nh, hs) -> (B, T, C)
print("x", x.shape, "-> reshape", by_token.shape, "-> permute", q.shape, "-> merge_heads", y.shape)

WORDS = {"zh": {"t": "位置 {}", "h": "头 {}", "x": "每行是一个位置的 {} 个通道，\n颜色标出它归哪个头",
                "tok": "每块一个位置：\n{} 行（头）× {} 个数", "head": "每块一个头：\n{} 行（位置）× {} 个数"},
         "en": {"t": "t = {}", "h": "head {}", "x": "one row per token, its {} channels;\nthe colour marks its head",
                "tok": "one block per token:\n{} rows (heads) × {}",
                "head": "one block per head:\n{} rows (tokens) × {}"}}
SPLIT = [("x", x), ("x.reshape(B, T, nh, hs)", by_token), (".permute(0, 2, 1, 3)", q)]
MERGE = [("y = att @ v", q), ("y.permute(0, 2, 1, 3)", by_token), (".reshape(B, T, nh * hs)", y)]


def draw(ax, code, a, words):
    a = a.data[0].astype(int)  # (T, C), (T, nh, hs) or (nh, T, hs)
    ax.text(0, 5.5, f"{code}  → {tuple([B, *a.shape])}", family=figures.CODE_FONT, va="center")
    blocks = a[None] if a.ndim == 2 else a  # a (T, C) table is one block
    kind = "h" if a.ndim == 3 and a.shape[0] == nh else "t"
    top = 4.7
    for b, block in enumerate(blocks):
        label = words[kind].format(b) if a.ndim == 3 else ""
        ax.text(1.5, top - len(block) * 0.3, label, ha="right", va="center")
        for r, row in enumerate(block):
            if a.ndim == 2:
                ax.text(1.5, top - 0.3, words["t"].format(r), ha="right", va="center")
            for c, v in enumerate(row):
                figures.box(ax, 1.7 + c, top - 0.6, str(v), figures.PALETTE[v % 100 // hs], h=0.6, size=11)
            top -= 0.6
        top -= 0.3
    if a.ndim == 3:
        note = words["head" if kind == "h" else "tok"].format(a.shape[1], hs)
        ax.text(6.1, 4.7 - 0.3, note, va="top", linespacing=1.5)
    else:
        ax.text(1.7, 2.6, words["x"].format(C), va="top", linespacing=1.5)
        for h in range(nh):
            ax.text(1.7 + h * hs + hs / 2, 4.95, words["h"].format(h), ha="center", va="center")


for steps, name in [(SPLIT, "multi-head-split"), (MERGE, "multi-head-merge")]:
    for step, lang, fig in figures.steps(name, len(steps), size=(4.5, 2.7), dpi=120, font_size=12):
        draw(figures.canvas(fig, 9.8, 5.8), *steps[step - 1], WORDS[lang])
