import numpy as np
import torch

from minigpt import functional as F
from minigpt.data import shakespeare_corpus
from window_mlp import WindowMLP, generate

corpus = shakespeare_corpus()
V = corpus.tokenizer.vocab_size
model = WindowMLP(V, 4, rng=np.random.default_rng(0))
x, y = corpus.get_batch("train", 2, 4, np.random.default_rng(0))  # (2, 4), (2, 4)
tries = {
    "window of 3 for a window-4 model": lambda: model(x[:, 1:]),
    "an id equal to V": lambda: model(np.array([[1, 2, 3, V]])),
    "all of y as targets": lambda: F.cross_entropy(model(x), y),
    "a prompt shorter than the window": lambda: generate(model, [1, 2], 5, np.random.default_rng(0)),
    "torch, Linear(64, 64) fed 3 positions": lambda: torch.nn.Linear(64, 64)(torch.zeros(2, 48)),
}
for what, call in tries.items():
    try:
        call()
    except (ValueError, RuntimeError) as err:
        print(f"{what}:\n  {type(err).__name__}: {err}")
    else:
        print(f"{what}: no error")
