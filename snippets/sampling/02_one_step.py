import numpy as np
import torch
from poet import prompt

from minigpt.tiny_models import tiny_poet
from minigpt_course import figures

model, tok, _ = tiny_poet()
x = prompt(tok, "五言绝句", "月,江")  # (1, T): the poem's first character comes next
with torch.no_grad():
    logits = model(x)[0][0, -1].double().numpy()  # (V,) the last position's logits
print(f"logits: {logits.shape}, from {logits.min():.2f} to {logits.max():.2f}")
probs = {}
for T in (0.5, 1.0, 1.5):
    z = logits / T
    p = np.exp(z - z.max())
    p /= p.sum()  # softmax(logits / T)
    probs[T] = np.sort(p)[::-1]  # most likely first
    top = np.argsort(-p)[:5]
    need = int(np.searchsorted(np.cumsum(probs[T]), 0.9)) + 1  # tokens that hold 90%
    print(f"T = {T}: " + " ".join(f"{tok.itos[t]} {p[t]:.3f}" for t in top)
          + f" | top 20 hold {probs[T][:20].sum():.2f}; 90% takes {need:,} tokens")

LABELS = {
    "zh": ("按概率排序的名次", "概率（对数刻度）", "温度", "top-k 20"),
    "en": ("rank, most likely first", "probability (log scale)", "T", "top-k 20"),
}
rank = np.arange(1, 201)
for lang, fig in figures.bilingual("sampling-temperature.png", size=(5.0, 3.0), font_size=11):
    xlabel, ylabel, t_name, k_name = LABELS[lang]
    ax = fig.subplots()
    for T, p in probs.items():
        ax.plot(rank, p[:200], label=f"{t_name} = {T}")
    ax.axvline(20, color="gray", linestyle=":", label=k_name)
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9)
