import argparse

import numpy as np

from minigpt.data import shakespeare_corpus
from window_mlp import WindowMLP, evaluate, train, windows
from minigpt_course import figures

parser = argparse.ArgumentParser()
parser.add_argument("--windows", type=int, nargs="+", default=[1, 2, 4, 8, 16])
parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
parser.add_argument("--steps", type=int, default=600)
args = parser.parse_args()
WINDOWS, SEEDS, STEPS = args.windows, args.seeds, args.steps
FIRST, N_VAL = max(16, *WINDOWS), 20_000
corpus = shakespeare_corpus()
V = corpus.tokenizer.vocab_size
counts = np.ones((V, V))  # add-one smoothing: no pair has probability 0
np.add.at(counts, (corpus.train[:-1], corpus.train[1:]), 1)  # counts[a, b] += 1 for each pair a b
prev, nxt = windows(corpus.val, 1, FIRST)  # (N, 1), (N,)
bigram = float(-np.log(counts[prev[:N_VAL, 0], nxt[:N_VAL]] / counts[prev[:N_VAL, 0]].sum(1)).mean())
print(f"V = {V}, ln V = {np.log(V):.3f}; count bigram (add-one) on the same targets: {bigram:.3f}")
print(f"{STEPS} steps, batch 64, AdamW lr 0.01; validation: {N_VAL:,} targets from position {FIRST}")
print("window  params  " + "  ".join(f"seed {s}" for s in SEEDS) + "   mean   train")
val = {}
for k in WINDOWS:
    x, y = windows(corpus.val, k, FIRST)  # (N, k), (N,)
    row, tails = [], []
    for s in SEEDS:
        rng = np.random.default_rng(s)
        model = WindowMLP(V, k, rng=rng)
        losses = train(model, corpus, STEPS, rng=rng)
        row.append(evaluate(model, x[:N_VAL], y[:N_VAL]))
        tails.append(np.mean(losses[-50:]))  # mean of the last 50 training batches
    val[k] = row
    n = sum(p.numel() for p in model.parameters())
    print(f"{k:6d}  {n:6,d}  " + "  ".join(f"{v:6.3f}" for v in row)
          + f"  {np.mean(row):5.3f}  {np.mean(tails):5.3f}")

if (WINDOWS, SEEDS, STEPS) != (parser.get_default("windows"), parser.get_default("seeds"), 600):
    print("no figure: it shows the default run only")
    raise SystemExit
LABELS = {
    "zh": ("窗口长度 k（字符，对数刻度）", "验证损失（nats）", "种子", "二元计数模型"),
    "en": ("window k (characters, log scale)", "validation loss (nats)", "seed", "count bigram"),
}
for lang, fig in figures.bilingual("context-window-loss.png", size=(5.0, 3.6), font_size=11):
    xlabel, ylabel, seed, count = LABELS[lang]
    ax = fig.subplots()
    for i, s in enumerate(SEEDS):
        ax.plot(WINDOWS, [val[k][i] for k in WINDOWS], marker="os^"[i], label=f"{seed} {s}")
    ax.axhline(bigram, color="gray", linestyle="--", label=f"{count} {bigram:.3f}")
    ax.set_xscale("log", base=2)
    ax.set_xticks(WINDOWS, [str(k) for k in WINDOWS])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9)
