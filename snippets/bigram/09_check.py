from collections import Counter

import numpy as np

from bigram import CountBigram, count_pairs, draw
from minigpt.data import load_shakespeare, shakespeare_corpus
from minigpt_course.lessons import lesson_module

corpus = shakespeare_corpus()
tok, V = corpus.tokenizer, corpus.tokenizer.vocab_size
text = load_shakespeare()[: len(corpus.train)]  # the training text, as characters
pairs = Counter(zip(text, text[1:]))  # (a, b) -> n, counted by Python, not numpy


def agrees(N):
    cells = all(N[tok.stoi[a], tok.stoi[b]] == n for (a, b), n in pairs.items())
    return cells and N.sum() == sum(pairs.values())


N = count_pairs(corpus.train, V)  # (V, V)
print(f"count_pairs == collections.Counter over {len(text) - 1:,} pairs: {agrees(N)}")
print(f"  control, the table read the other way, N[b, a]: {agrees(N.T)}")

lesson_module("layers-optim", "nn")  # lesson 4's layers, which its toy is built of
toy = lesson_module("layers-optim", "toy")  # lesson 4's toy

x, y = toy.pairs()  # (N,), (N,)
ids = np.append(x, y[-1])  # the four quatrains as one stream
lesson6, ours = toy.floor(x, y), CountBigram(ids, toy.V).nll(ids)
print(f"lesson 4's floor {lesson6:.4f}, CountBigram on the same text {ours:.4f}, "
      f"equal: {np.isclose(lesson6, ours)}")

n, t = 200_000, tok.encode("t")[0]
model = CountBigram(corpus.train, V)
p = model.probs(np.array([t]))[0]  # (V,) the row of 't'
tol = 4 * np.sqrt(p * (1 - p) / n)  # (V,) four standard errors of a frequency


def counts_not_probs(rng):  # the counts row, u not scaled to its total
    cdf = np.cumsum(model.counts[t])
    return int(np.searchsorted(cdf, rng.random(), side="right"))


tries = (("draw(p)", lambda rng: draw(p, rng)),
         ("control, counts row, u in [0, 1)", counts_not_probs))
for name, pick in tries:
    rng = np.random.default_rng(0)
    freq = np.bincount([pick(rng) for _ in range(n)], minlength=V) / n  # (V,)
    gap = np.abs(freq - p)
    print(f"{name}: {n:,} draws, max |freq - P| = {gap.max():.4f}, "
          f"within 4 standard errors everywhere: {bool((gap <= tol).all())}")
