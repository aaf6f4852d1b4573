import numpy as np

from bigram import CountBigram, LearnedBigram, fit
from minigpt.data import shakespeare_corpus
from minigpt_course import figures

corpus = shakespeare_corpus()
V = corpus.tokenizer.vocab_size
counted = CountBigram(corpus.train, V).nll(corpus.train)  # the lowest a table can reach
model = LearnedBigram(V, rng=np.random.default_rng(0))
W = model.table.weight
print(f"LearnedBigram({V}): table.weight {W.shape}, {W.data.size:,} weights")
curve = fit(model, corpus, steps=300, lr=0.3, seed=0)  # [(step, loss on train)]
print(f"ln V = {np.log(V):.4f}; count table, train: {counted:.4f}")
for step, loss in curve:
    if step in (0, 10, 50, 100, 200, 300):
        print(f"step {step:3d}  learned table, train: {loss:.4f}   "
              f"- count table = {loss - counted:.4f}")

LABELS = {
    "zh": ("步数", "训练集上的损失（nats）", "学出来的表 − 数出来的表",
           "学出来的表", "数出来的表"),
    "en": ("step", "loss on the training split (nats)", "learned − count",
           "learned table", "count table"),
}
steps, losses = np.array(curve).T  # (31,), (31,)
FONTS = {lang: ["DejaVu Sans", "Noto Sans CJK SC"] for lang in LABELS}  # Latin first, then CJK
for lang, fig in figures.bilingual("bigram-learned.png", size=(6.4, 5.2), fonts=FONTS):
    xlabel, ylabel, gap, learned, count = LABELS[lang]
    top, bottom = fig.subplots(2, 1, sharex=True)
    top.plot(steps, losses, label=learned)
    top.axhline(counted, color="gray", linestyle="--", label=f"{count} {counted:.4f}")
    top.set_ylabel(ylabel)
    bottom.semilogy(steps, losses - counted)
    bottom.set_ylabel(gap)
    bottom.set_xlabel(xlabel)
    top.legend()
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
