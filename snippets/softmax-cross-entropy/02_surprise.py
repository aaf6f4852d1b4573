import numpy as np

from functional import cross_entropy
from minigpt.data import poem_corpus, shakespeare_corpus
from tensor import Tensor

for p in (1.0, 0.9, 0.5, 0.1, 0.01, 0.0001):
    print(f"p(right answer) = {p:<6}  -ln p = {np.log(1 / p):.4f}")

print("a uniform guess: every logit 0, every class 1/V")
for corpus in (shakespeare_corpus(), poem_corpus()):
    V = corpus.tokenizer.vocab_size
    targets = corpus.val[:8]  # 8 real next characters
    loss = cross_entropy(Tensor(np.zeros((8, V))), targets)  # logits (8, V)
    chars = len(corpus.tokenizer.chars)  # V = characters + 4 special tokens
    print(f"  {corpus.name:<12} V = {V:>5,} ({chars:>5,} chars + {V - chars})  loss {loss.data:.4f}   "
          f"ln V = {np.log(V):.4f}   e^loss = {np.exp(loss.data):,.0f}")
