import warnings

import numpy as np
import torch

from bigram import CountBigram, draw
from minigpt.data import shakespeare_corpus

corpus = shakespeare_corpus()
tok, V = corpus.tokenizer, corpus.tokenizer.vocab_size
model = CountBigram(corpus.train, V)
with np.errstate(invalid="ignore"):
    p = model.probs(np.array([tok.bos_id]))[0]  # (V,) a row never counted: 0 / 0
print(f"row of <bos> in shakespeare: {model.row_sums[tok.bos_id]} pairs, "
      f"P = {p[:3]} ...")
counts_t = model.counts[tok.stoi["t"]]  # (V,) counts, not probabilities
tries = {
    "ours  draw(p)": lambda: tok.decode([draw(p, np.random.default_rng(0))]),
    "numpy rng.choice(V, p=p)": lambda: np.random.default_rng(0).choice(V, p=p),
    "torch multinomial(row of 0)": lambda: torch.multinomial(torch.zeros(V), 1),
    "numpy rng.choice(V, p=counts['t'])":
        lambda: np.random.default_rng(0).choice(V, p=counts_t),
}
for name, attempt in tries.items():
    try:
        with np.errstate(invalid="ignore"):
            attempt()
        print(f"{name}: no error")
    except (ValueError, RuntimeError) as e:
        print(f"{name}\n  {type(e).__name__}: {e}")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    cost = -np.log(np.float64(0.0))  # P = 0 for a pair never counted
print(f"-np.log(0.0) = {cost}, warning: {caught[0].message}")
t_cost = -torch.log(torch.tensor(0.0)).item()
print(f"torch: -torch.log(tensor(0.)) = {t_cost}, no warning")

V = 6831
print(f"poems, V = {V}: one (V, V) table float64 {V * V * 8:,} bytes; "
      f"float32 weights + AdamW's m and v {3 * V * V * 4:,} bytes")
