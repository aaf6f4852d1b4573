import numpy as np

from bigram import CountBigram, generate
from minigpt.data import shakespeare_corpus

corpus = shakespeare_corpus()
tok, V = corpus.tokenizer, corpus.tokenizer.vocab_size
model = CountBigram(corpus.train, V)
a = np.array([tok.encode("t")[0]])  # (1,)
rng = np.random.default_rng(3)

row = model.counts[a] + model.alpha  # 1 (1, V) counts, + alpha
p = (row / (model.row_sums[a] + model.alpha * V)[:, None])[0]  # 2-3 (1, V) -> (V,)
cdf = np.cumsum(p)  # 4 (V,)
u = rng.random() * cdf[-1]  # 5 ()
nxt = int(np.searchsorted(cdf, u, side="right"))  # 6 () first i with cdf[i] > u
lo, hi = cdf[nxt - 1], cdf[nxt]
print(f"1 counts[[a]] + alpha        {row.shape}  "
      f"a = {a[0]} {tok.decode(a)!r}, {int(row.sum()):,} pairs")
print(f"2 / (row_sums[a] + alpha V)  {row.shape}  sum {p.sum():.4f}")
print(f"3 [0]                        {p.shape}")
print(f"4 cumsum                     {cdf.shape}  cdf[-1] = {cdf[-1]:.4f}")
print(f"5 u = rng.random() * cdf[-1] ()       u = {u:.4f}")
print(f"6 searchsorted(cdf, u)       ()       cdf[{nxt - 1}] = {lo:.4f} <= u < "
      f"cdf[{nxt}] = {hi:.4f} -> {nxt} {tok.decode([nxt])!r}, P = {p[nxt]:.4f}")
same = generate(model, a[0], 1, np.random.default_rng(3))[1] == nxt
print(f"same as generate(model, a, 1, rng): {same}")
