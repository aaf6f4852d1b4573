import contextlib
import io
import runpy
from pathlib import Path

import numpy as np

from minigpt.data import shakespeare_corpus
from window_mlp import WindowMLP, evaluate, train, windows


def interleaved(self, idx):  # (B, k) -> (B, V), the window flattened channel by channel
    B, k = idx.shape
    e = self.wte(idx)  # (B, k, d)
    x = e.permute(0, 2, 1).reshape(B, k * e.shape[-1])  # (B, d, k) -> (B, d*k)
    return self.lm_head(self.ln(self.fc(x)).tanh())  # (B, V)


corpus = shakespeare_corpus()
x, y = windows(corpus.val, 4, 16)  # (N, 4), (N,)
for name, forward in (("as written", WindowMLP.forward), ("interleaved", interleaved)):
    WindowMLP.forward = forward  # as if window_mlp.py were edited
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        runpy.run_path(str(Path(__file__).with_name("07_torch_check.py")), run_name="__main__")
    rng = np.random.default_rng(0)
    model = WindowMLP(corpus.tokenizer.vocab_size, 4, rng=rng)
    train(model, corpus, 600, rng=rng)
    print(f"{name}:\n  " + "\n  ".join(printed.getvalue().splitlines()))
    print(f"  trained 600 steps, window 4, seed 0: validation loss {evaluate(model, x[:20_000], y[:20_000]):.3f}")
