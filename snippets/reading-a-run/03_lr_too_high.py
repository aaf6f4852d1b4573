import tempfile

import numpy as np

from minigpt.presets import get_preset
from minigpt.train import load_corpus, train
from minigpt_course import figures

corpus = load_corpus("shakespeare")
p = np.bincount(corpus.train, minlength=corpus.tokenizer.vocab_size) / len(corpus.train)
unigram = float(-(p[p > 0] * np.log(p[p > 0])).sum())  # entropy of character frequencies
print(f"a model that ignores context (character frequencies only): {unigram:.3f}")
curves = {}
for lr in (1e-2, 1e-1, 3e-1):
    with tempfile.TemporaryDirectory() as out:
        config = get_preset("tiny", n_layer=1, lr=lr, min_lr=lr / 10, max_steps=150, warmup_steps=15,
                            eval_interval=25, eval_iters=8, dtype="float64", threads=1, out_dir=out)
        rows = train(config, corpus=corpus, plot=False).history
    curves[lr] = rows
    print(f"lr {lr:.0e}: val loss " + " ".join(f"{r['val_loss']:.2f}" for r in rows))

LABELS = {
    "zh": ("步数", "验证损失（nats/词元）", "学习率", "只看字频"),
    "en": ("step", "validation loss (nats per token)", "lr", "frequencies only"),
}
for lang, fig in figures.bilingual("run-lr-high.png", size=(4.4, 3.1), font_size=12):
    xlabel, ylabel, lr_label, uni = LABELS[lang]
    ax = fig.subplots()
    for i, (lr, rows) in enumerate(curves.items()):
        ax.plot([r["step"] for r in rows], [r["val_loss"] for r in rows], marker="os^"[i],
                label=f"{lr_label} {lr:.0e}")
    ax.axhline(unigram, color="gray", linestyle="--", label=f"{uni} {unigram:.2f}")
    ax.set_ylim(2.5, 4.4)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=10)
