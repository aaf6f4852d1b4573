import sys
from collections import Counter
from pathlib import Path

import numpy as np

from bigram import CountBigram, count_pairs, draw
from minigpt.data import load_shakespeare, shakespeare_corpus

corpus = shakespeare_corpus()
tok, V = corpus.tokenizer, corpus.tokenizer.vocab_size
text = load_shakespeare()[: len(corpus.train)]  # the training text, as characters
pairs = Counter(zip(text, text[1:]))  # (a, b) -> n, counted by Python, not numpy


def agrees(N):
    return all(N[tok.stoi[a], tok.stoi[b]] == n for (a, b), n in pairs.items()) and N.sum() == sum(pairs.values())


print(f"count_pairs == collections.Counter over {len(text) - 1:,} pairs: {agrees(count_pairs(corpus.train, V))}")
print(f"  control, the table read the other way, N[b, a]: {agrees(count_pairs(corpus.train, V).T)}")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "layers-optim"))
from toy import V as toy_V, floor, pairs as toy_pairs  # noqa: E402  lesson 6's four quatrains

x, y = toy_pairs()  # (N,), (N,)
lesson6, ours = floor(x, y), CountBigram(np.append(x, y[-1]), toy_V).nll(np.append(x, y[-1]))
print(f"lesson 6's floor {lesson6:.4f}, CountBigram on the same text {ours:.4f}, equal: {np.isclose(lesson6, ours)}")

n, t = 200_000, tok.encode("t")[0]
model = CountBigram(corpus.train, V)
p = model.probs(np.array([t]))[0]  # (V,) the row of 't'
tol = 4 * np.sqrt(p * (1 - p) / n)  # (V,) four standard errors of a frequency


def counts_not_probs(rng):  # the counts row, u not scaled to its total
    return int(np.searchsorted(np.cumsum(model.counts[t]), rng.random(), side="right"))


for name, pick in (("draw(p)", lambda rng: draw(p, rng)), ("control, counts row, u in [0, 1)", counts_not_probs)):
    rng = np.random.default_rng(0)
    freq = np.bincount([pick(rng) for _ in range(n)], minlength=V) / n  # (V,)
    print(f"{name}: {n:,} draws, max |freq - P| = {np.abs(freq - p).max():.4f}, "
          f"within 4 standard errors everywhere: {bool((np.abs(freq - p) <= tol).all())}")
