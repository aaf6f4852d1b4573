import numpy as np

from minigpt.data import shakespeare_corpus
from minigpt.functional import cross_entropy
from minigpt.tensor import Tensor

corpus = shakespeare_corpus()
V = corpus.tokenizer.vocab_size
print(f"V = {V}, ln V = {np.log(V):.4f}")
for seed in (0, 1):
    rng = np.random.default_rng(seed)
    x, y = corpus.get_batch("val", 8, 32, rng)  # (B, T) = (8, 32)
    table = rng.normal(0.0, 0.2, (V, V))  # untrained: a row of V small random scores per character
    logits = Tensor(table[x])  # (B, T, V): each position's scores for the next character
    loss = cross_entropy(logits, y)
    big = cross_entropy(logits * 30.0, y)  # the same scores, 30 times larger
    print(f"seed {seed}: logits std {logits.data.std():.3f}, loss {loss.data:.4f}")
    print(f"  logits x 30: std {30 * logits.data.std():.1f}, loss {big.data:.4f}")
