import numpy as np

from minigpt.config import GPTConfig
from minigpt.data import shakespeare_corpus
from minigpt.functional import cross_entropy
from minigpt.gpt import GPT

corpus = shakespeare_corpus()
V = corpus.tokenizer.vocab_size
print(f"V = {V}, ln V = {np.log(V):.4f}")
for seed in (0, 1):
    x, y = corpus.get_batch("val", 8, 32, np.random.default_rng(seed))  # (B, T) = (8, 32)
    logits, loss = GPT(GPTConfig(vocab_size=V), seed=seed)(x, y)  # logits (B, T, V)
    big = cross_entropy(logits * 30.0, y)  # the same scores, 30 times larger
    print(f"seed {seed}: logits std {logits.data.std():.3f}, loss {loss.data:.4f}")
    print(f"  logits x 30: std {30 * logits.data.std():.1f}, loss {big.data:.4f}")
