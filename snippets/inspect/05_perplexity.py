import math

import numpy as np
from poems_cpu import bench_record

from minigpt.data import poem_corpus
from minigpt.evaluate import validation_loss
from minigpt.tiny_models import tiny_poet

corpus = poem_corpus()
model, tok, _ = tiny_poet()  # lesson 16's: 2 layers, 64 wide, 400 steps
loss, count = validation_loss(model, corpus)  # mean NLL over the whole validation split
V = tok.vocab_size
counts = np.bincount(corpus.train, minlength=V) + 1  # (V,) how often each token is in the training split, +1
bs = model.config.block_size
y = corpus.val[1 : (len(corpus.val) - 1) // bs * bs + 1]  # the same targets validation_loss scores
unigram = -np.log(counts[y] / counts.sum()).mean()
print(f"validation split: {len(corpus.val):,} tokens, {count:,} of them scored")
print(f"{'model':<34}{'loss (nats/char)':>17}{'perplexity':>12}")
for name, nats in (("the same odds for all V tokens", math.log(V)), ("each character's frequency", unigram),
                   ("tiny poem model (lesson 16)", loss), ("poems-cpu (documented run)", bench_record()["val_loss"])):
    print(f"{name:<34}{nats:>17.3f}{math.exp(nats):>12,.1f}")
