"""Checks for the exercises of lesson 15, ``train/torch-twin``.

``check_move_weights(fn)`` calls a reader's ``fn(numpy_gpt, torch_gpt)``, which must copy every parameter of
a ``minigpt.gpt.GPT`` into the ``minigpt.gpt_torch.GPT`` of the same config, in place, and returns one report:
``"<name>: passed ..."``, or ``"<name>: not yet"`` and the first parameter that differs, expected vs got.
An error raised by the reader's code is reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt.checks import reader_errors
import torch

from minigpt import gpt, gpt_torch
from minigpt.config import GPTConfig


@reader_errors('fn(numpy_gpt, torch_gpt) to copy every weight of the numpy GPT into the torch GPT')
def check_move_weights(fn) -> str:
    """The report names the first parameter that differs, then compares the two models' logits."""
    name = getattr(fn, "__name__", "your function")
    config = GPTConfig(vocab_size=69)
    numpy_gpt, torch_gpt = gpt.GPT(config, seed=1), gpt_torch.GPT(config, seed=2)  # different weights
    fn(numpy_gpt, torch_gpt)
    theirs = dict(torch_gpt.named_parameters())
    for pname, p in numpy_gpt.named_parameters():
        t = theirs[pname]
        if not (isinstance(t, torch.nn.Parameter) and t.requires_grad and t.dtype == torch.float32):
            return (f"{name}: not yet\n  {pname}: expected a float32 torch Parameter that requires grad, "
                    f"got {type(t).__name__} {t.dtype}, requires_grad={t.requires_grad}")
        got = t.detach().numpy()
        if got.shape != p.shape:
            return f"{name}: not yet\n  {pname}: expected shape {p.shape}, got {got.shape}"
        if not np.array_equal(got, p.data):
            return (f"{name}: not yet\n  {pname} {p.shape}: expected the numpy GPT's values, "
                    f"max |numpy - torch| = {np.abs(got - p.data).max():.4f}")
    idx = np.random.default_rng(0).integers(0, config.vocab_size, size=(2, 16))  # (B, T)
    with torch.no_grad():
        diff = np.abs(numpy_gpt(idx)[0].data - torch_gpt(idx)[0].numpy()).max()
    return f"{name}: passed (all {len(theirs)} parameters copied; logits agree within 1e-5: {diff < 1e-5})"
