"""Exercise 4: lesson 7's window MLP, 4 characters, scored on the opening's 4,096 Shakespeare targets. It trains
as many steps as the opening's GPT, 1,500, of --batch windows: 64 by default (lesson 7's opening run), 256 to see
as many targets as that GPT saw (1,500 steps of 8 x 32)."""

import argparse

import numpy as np

from minigpt.data import shakespeare_corpus
from minigpt_course.lessons import lesson_module

window_mlp = lesson_module("context", "window_mlp")  # lesson 7's model

parser = argparse.ArgumentParser()
parser.add_argument("--batch", type=int, default=64, help="windows a step (default 64, lesson 7's)")
args = parser.parse_args()
if args.batch < 1:
    parser.error(f"--batch must be at least 1, got {args.batch}")
corpus = shakespeare_corpus()
N, FIRST = 128 * 32, 4  # the opening's targets, 128 stretches of 32: positions 4 .. 4099 of validation

rng = np.random.default_rng(0)
model = window_mlp.WindowMLP(corpus.tokenizer.vocab_size, 4, rng=rng)  # lesson 7's default sizes
STEPS = 1500  # the opening GPT's steps
window_mlp.train(model, corpus, STEPS, batch_size=args.batch, rng=rng)
x, y = window_mlp.windows(corpus.val, 4, FIRST)  # (M, 4), (M,)
print(f"window MLP: 4 characters, {STEPS:,} steps x {args.batch:,} windows = {STEPS * args.batch:,} targets seen")
print(f"validation loss on the opening's {N:,} targets: {window_mlp.evaluate(model, x[:N], y[:N]):.3f}")
