import argparse

import numpy as np

from bigram import CountBigram, LearnedBigram, fit
from minigpt.data import poem_corpus, shakespeare_corpus

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=300)
parser.add_argument("--lr", type=float, default=0.3)
parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
args = parser.parse_args()

shakespeare, poems = shakespeare_corpus(), poem_corpus()
V = shakespeare.tokenizer.vocab_size
counted = CountBigram(shakespeare.train, V).nll(shakespeare.train)
print(f"learned table, {args.steps} AdamW steps on (32, 128) batches, "
      f"lr {args.lr} -> 0; count table, train: {counted:.4f}")
print("seed   train - count   val")
val = []
for seed in args.seeds:  # the seed fixes the initial table and the batches
    model = LearnedBigram(V, rng=np.random.default_rng(seed))
    fit(model, shakespeare, steps=args.steps, lr=args.lr, seed=seed)
    val.append(model.nll(shakespeare.val))
    gap = model.nll(shakespeare.train) - counted
    print(f"{seed:4d}   {gap:13.4f}   {val[-1]:.4f}")

print("\nvalidation loss (nats per token)")
print("corpus          V   uniform ln V   count, alpha 0   count, best alpha   learned")
learned = {"shakespeare": f"{np.mean(val):.3f} ({len(val)} seeds)",
           "poems": "not trained"}
for corpus in (shakespeare, poems):
    V = corpus.tokenizer.vocab_size
    model = CountBigram(corpus.train, V)
    raw = model.nll(corpus.val)
    losses = {}
    for alpha in (0.001, 0.01, 0.1, 1.0):  # chosen on val: a slightly kind number
        model.alpha = alpha
        losses[alpha] = model.nll(corpus.val)
    best = min(losses, key=losses.get)
    print(f"{corpus.name:<12}{V:5d}   {np.log(V):12.3f}   {raw:14.3f}   "
          f"{losses[best]:.3f} (alpha {best:<5})   {learned[corpus.name]}")
