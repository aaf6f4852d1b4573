import numpy as np

from one_head import attention
from minigpt.tensor import Tensor
from minigpt_course import figures

line = "相见时难别亦难"  # T = 7
T, d = len(line), 16
vectors = [np.random.default_rng(ord(c)).standard_normal(d) for c in line]  # T x (d,)
x = Tensor(np.stack(vectors)[None])  # (B, T, d)

y = attention(x, x, x)  # q = k = v = x
w = (x @ x.transpose(-2, -1) * (1 / np.sqrt(d))).softmax(dim=-1).data[0]  # (T, T)
print(("   " + " ".join(f" {c} " for c in line)).rstrip())  # keys
for c, row in zip(line, w):  # one row per query
    print(c, " ".join(f"{p:.2f}" for p in row))
print("row sums:", " ".join(f"{s:.2f}" for s in w.sum(-1)))
print("output:", y.shape, "= weights @ v:", np.allclose(y.data[0], w @ x.data[0]))

labels = {"zh": ("被看的字（键）", "发问的字（查询）", "注意力权重"),
          "en": ("character looked at (key)", "character asking (query)", "attention weight")}
for lang, fig in figures.bilingual("self-attention-line.png", size=(4.2, 3.6)):
    ax = fig.subplots()
    im = ax.imshow(w, cmap="Blues", vmin=0, vmax=1)
    for i in range(T):
        for j in range(T):
            ax.text(j, i, f"{w[i, j]:.2f}", ha="center", va="center", fontsize=8.5,
                    color="white" if w[i, j] > 0.5 else "black")
    ax.set_xticks(range(T), list(line), fontsize=13)
    ax.set_yticks(range(T), list(line), fontsize=13)
    ax.set_xlabel(labels[lang][0])
    ax.set_ylabel(labels[lang][1])
    fig.colorbar(im, ax=ax).set_label(labels[lang][2])
