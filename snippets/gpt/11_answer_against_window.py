"""Does a GPT pass the window model? Score a GPT that `minigpt train` made (PyTorch, Part 4) and lesson 7's
window MLP, trained on as many targets, on 8,192 targets of the poems' validation split. With no argument it trains
a tiny GPT first (seconds); --checkpoint runs/poems-cpu scores the model `minigpt train --preset poems-cpu` made.
"""

import argparse
import tempfile
import time

import numpy as np
import torch
import torch.nn.functional as F

from minigpt.data import poem_corpus
from minigpt.generate import load_model
from minigpt.presets import get_preset
from minigpt.train import train
from minigpt_course.lessons import lesson_module

window_mlp = lesson_module("context", "window_mlp")  # lesson 7's model

parser = argparse.ArgumentParser()
parser.add_argument("--checkpoint", help="a poems run folder or ckpt.pt; default: train a tiny one here")
args = parser.parse_args()
corpus = poem_corpus()
V, val = corpus.tokenizer.vocab_size, corpus.val
N, FIRST = 256, 17  # 256 chunks of 32 targets, from position 17: every window has its 4 tokens
starts = FIRST - 1 + 32 * np.arange(N)
X, Y = val[starts[:, None] + np.arange(32)], val[starts[:, None] + np.arange(1, 33)]  # (N, 32) each

tiny = args.checkpoint is None
with tempfile.TemporaryDirectory() as out:
    if tiny:  # the tiny preset on poems, 30 steps: the seconds-long twin of the real run
        config = get_preset("tiny", corpus="poems", max_steps=30, eval_interval=30, eval_iters=2,
                            dtype="float64", threads=1, out_dir=out)
        train(config, corpus=corpus, progress=False, plot=False)
    model, tok, ckpt = load_model(out if tiny else args.checkpoint)
if tok.vocab_size != V:
    raise SystemExit(f"{args.checkpoint} was not trained on the poems (vocabulary {tok.vocab_size}, not {V})")
tc = ckpt["train_config"]
steps, per_step = ckpt["step"], tc["batch_size"] * tc["block_size"]  # targets seen: steps x per_step
with torch.no_grad():
    logits, _ = model(torch.from_numpy(X))  # (N, 32, V): each target sees up to 32 tokens before it
    gpt_loss = F.cross_entropy(logits.float().reshape(-1, V), torch.from_numpy(Y).reshape(-1)).item()

rng = np.random.default_rng(0)
window = window_mlp.WindowMLP(V, 4, rng=rng)  # lesson 7's default sizes
t0 = time.perf_counter()
window_mlp.train(window, corpus, steps, batch_size=per_step, rng=rng)  # as many targets as the GPT saw
seconds = time.perf_counter() - t0
wx, wy = window_mlp.windows(val, 4, FIRST)
window_loss = window_mlp.evaluate(window, wx[: N * 32], wy[: N * 32])

c = ckpt["model_config"]
print(f"GPT: {c['n_layer']} layers x {c['n_embd']} wide, {steps:,} steps x {per_step:,} targets")
took = "" if tiny else f" ({seconds:.0f} s)"  # a timing varies: the tiny run prints none
print(f"window MLP: 4 tokens, the same {steps:,} steps x {per_step:,} targets{took}")
print(f"validation loss on the same {N * 32:,} targets")
print(f"  window MLP   4 previous tokens          {window_loss:6.3f}")
print(f"  GPT          up to 32 previous tokens   {gpt_loss:6.3f}")
print(f"the GPT is {'ahead' if gpt_loss < window_loss else 'behind'} by {abs(window_loss - gpt_loss):.3f}")
