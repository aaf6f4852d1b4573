"""The model getting better: train the shakespeare-cpu preset and, at a few steps, print the validation loss and
a sample. With no argument, its first 30 steps (seconds); --steps 2600 is the preset's whole run (minutes).
Float64 on one thread, so every CPU prints the same, and the short run prints the long one's first lines.
"""

import argparse
import tempfile
from dataclasses import replace

import numpy as np
import torch

from minigpt.data import shakespeare_corpus
from minigpt.generate import load_model
from minigpt.presets import get_preset
from minigpt.train import train

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=30, help="steps to train (the preset's whole run: 2600)")
args = parser.parse_args()
if args.steps < 1:
    parser.error(f"--steps must be at least 1, got {args.steps}")

LENGTH = 80  # each sample: 80 characters after a new line, drawn with seed 0
stops = [s for s in (10, 30, 100, 300, 1000) if s < args.steps] + [args.steps]


def show(line):  # train() calls this after each evaluation, once that step's checkpoint is written
    model, tok, ckpt = load_model(out)
    if ckpt["step"] not in [0] + stops:
        return
    new = model.generate(torch.tensor([tok.encode("\n")]), LENGTH, rng=np.random.default_rng(0))[0, 1:]
    text = tok.decode(new.tolist(), skip_special=True).replace("\n", "⏎")
    print(f"step {ckpt['step']}, val loss {ckpt['val_loss']:.3f}\n  {text.rstrip()}")


print(f"shakespeare-cpu, {args.steps} steps; samples of {LENGTH} characters, seed 0, ⏎ for a new line")
corpus = shakespeare_corpus()
with tempfile.TemporaryDirectory() as out:
    # lr_decay_steps: the segments below stop early, but the learning rate follows the whole run's schedule
    config = get_preset("shakespeare-cpu", max_steps=args.steps, lr_decay_steps=args.steps, dtype="float64",
                        threads=1, out_dir=out)
    for i, stop in enumerate(stops):  # train to each stop, then resume from its checkpoint: one unbroken run
        train(replace(config, max_steps=stop), corpus=corpus, resume=i > 0, log=show, plot=False, progress=False)
