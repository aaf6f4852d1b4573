import numpy as np

from minigpt.data import shakespeare_corpus
from window_mlp import WindowMLP, windows

corpus = shakespeare_corpus()
tok = corpus.tokenizer
x, y = windows(corpus.train, 2)  # (N, 2), (N,)
for ctx in ("no", "on"):
    nxt = y[(x == tok.encode(ctx)).all(1)]  # targets after this context
    top = np.bincount(nxt, minlength=tok.vocab_size).argsort()[::-1][:3]
    print(f"after {ctx!r} ({len(nxt):,} times): "
          + ", ".join(f"{tok.decode([t])!r} {np.mean(nxt == t):.2f}" for t in top))

model = WindowMLP(tok.vocab_size, 2, rng=np.random.default_rng(0))
e = model.wte(np.array([tok.encode("no"), tok.encode("on")]))  # (2, 2, d)
concat = e.reshape(2, -1).data  # (2, 2d)
bag = e.sum(1).data  # (2, d): order lost
print(f"concatenated: (2, {concat.shape[1]}), 'no' == 'on': {np.array_equal(concat[0], concat[1])}")
print(f"summed      : (2, {bag.shape[1]}), 'no' == 'on': {np.array_equal(bag[0], bag[1])}")
