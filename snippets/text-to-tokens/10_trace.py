import numpy as np

from minigpt.data import poem_corpus

corpus = poem_corpus()
data, B, T = corpus.train, 2, 8  # data: (N,)
rng = np.random.default_rng(0)
ix = rng.integers(0, len(data) - T, size=B)  # (B,), in [0, N - T)
print("1 ix  ", ix.shape, ix.tolist(), f"(high = N - T = {len(data) - T:,}, exclusive)")
pos = ix[:, None] + np.arange(T)  # (B, 1) + (T,) -> (B, T)
print("2 pos ", pos.shape, pos[0].tolist())
x = data[pos].astype(np.int64)  # (B, T)
print("3 x   ", x.shape, corpus.tokenizer.decode(x[0]))
y = data[pos + 1].astype(np.int64)  # (B, T)
print("4 y   ", y.shape, corpus.tokenizer.decode(y[0]))
x2, y2 = corpus.get_batch("train", B, T, np.random.default_rng(0))
print("same as corpus.get_batch:", np.array_equal(x, x2) and np.array_equal(y, y2))
