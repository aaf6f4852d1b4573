import numpy as np

from block_variants import NoResidualBlock, PostNormBlock, gpt_with
from minigpt.config import GPTConfig
from minigpt.data import shakespeare_corpus
from minigpt.gpt import Block
from minigpt_course import figures

corpus = shakespeare_corpus()
x, y = corpus.get_batch("train", 8, 32, np.random.default_rng(0))  # (B, T) = (8, 32)
V = corpus.tokenizer.vocab_size
config = GPTConfig(vocab_size=V, n_layer=16)  # C=64, 16 blocks
norms, shown = {}, (0, 1, 2, 4, 8, 15)
print("gradient norm of each block's parameters, one batch, same weights")
print(f"{'block':<16}" + "".join(f"{i:>8}" for i in shown) + "   max/min   cos(last)")
kinds = {"pre-norm": Block, "post-norm": PostNormBlock, "no residual": NoResidualBlock}
for name, kind in kinds.items():
    model = gpt_with(kind, config)
    h = model.wte(x) + model.wpe(np.arange(32))  # (B, T, C)
    for block in model.blocks:
        h = block(h)  # (B, T, C)
    _, loss = model(x, y)
    loss.backward()
    g = np.array([np.sqrt(sum((p.grad**2).sum() for p in b.parameters()))
                  for b in model.blocks])  # (16,)
    u = h.data[0] / np.linalg.norm(h.data[0], axis=-1, keepdims=True)  # (T, C)
    cos = (u @ u.T).mean()  # mean cosine between the 32 positions' last vectors
    norms[name] = g
    row = "".join(f"{g[i]:>8.3f}" for i in shown)
    print(f"{name:<16}{row}{g.max() / g.min():>10.1f}{cos:>12.3f}")

LABELS = {
    "zh": ("块（0 = 最靠近输入）", "该块参数的梯度范数",
           ["前置归一化", "后置归一化", "无残差"]),
    "en": ("block (0 = nearest the input)",
           "gradient norm of its parameters",
           ["pre-norm", "post-norm", "no residual"]),
}
for lang, fig in figures.bilingual("block-gradients.png", size=(5.2, 3.9), font_size=13):
    xlabel, ylabel, names = LABELS[lang]
    ax = fig.subplots()
    for label, g, marker in zip(names, norms.values(), "osx"):
        ax.semilogy(g, marker=marker, label=label)
    ax.set_xticks(range(0, 16, 3))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 1.22), ncol=3,
              frameon=False, fontsize=11)
