import numpy as np

from minigpt.data import shakespeare_corpus
from window_mlp import windows

corpus = shakespeare_corpus()
V = corpus.tokenizer.vocab_size
print(f"train {len(corpus.train):,} tokens, validation {len(corpus.val):,}; V = {V}")
print(" k         possible V^k  seen in train  validation contexts never seen in train")
for k in (1, 2, 3, 4, 6, 8):
    codes = [windows(d, k, 8)[0] @ V ** np.arange(k) for d in (corpus.train, corpus.val)]  # (N,) one int per context
    seen = np.unique(codes[0])
    unseen = 1 - np.isin(codes[1], seen).mean()
    print(f"{k:2d}  {V**k:19,d}  {len(seen):13,d}  {unseen:6.1%}")
