import numpy as np

from minigpt.data import poem_corpus

corpus = poem_corpus()
tok = corpus.tokenizer
x, y = corpus.get_batch("train", batch_size=4, block_size=12, rng=np.random.default_rng(0))  # (B, T), (B, T)
print("x", x.shape, x.dtype, " y", y.shape, y.dtype)
for b in range(len(x)):
    print(f"x[{b}]:", tok.decode(x[b]))
    print(f"y[{b}]:", tok.decode(y[b]))
print("y[:, :-1] == x[:, 1:]:", bool((y[:, :-1] == x[:, 1:]).all()))
print("row 0 as 12 examples:", "  ".join(f"{tok.itos[i]}->{tok.itos[j]}" for i, j in zip(x[0], y[0])))
