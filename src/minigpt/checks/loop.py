"""Lesson 16's exercise: the reader's ``lr_at(step, config)`` against ``minigpt.train.lr_at``.

The report names the usual mistakes: no schedule at all, a warmup that starts at lr 0, a cosine that
ends at 0 instead of ``min_lr``, a cosine that starts at step 0 instead of after the warmup, and no
floor after ``lr_decay_steps``.
"""

from __future__ import annotations

import math

from minigpt.checks import reader_errors
from minigpt.presets import get_preset
from minigpt.train import lr_at


def _configs():
    return [("shakespeare-cpu", get_preset("shakespeare-cpu")),
            ("tiny with lr_decay_steps=150", get_preset("tiny", lr_decay_steps=150))]


def _diagnose(fn, config, step: int, want: float, got: float) -> str:
    w, decay = config.warmup_steps, config.lr_decay_steps or config.max_steps
    if all(math.isclose(fn(s, config), config.lr) for s in (0, w, decay - 1)):
        return "the rate never changes: no warmup and no decay"
    if step == 0 and got == 0:
        return "step 0 gets lr 0, so the first step would not move the weights: warm up with (step + 1) / (warmup + 1)"
    if step >= decay:
        return f"after step {decay} (lr_decay_steps) the rate stays at min_lr = {config.min_lr}"
    if step >= w and math.isclose(fn(decay - 1, config), 0.0, abs_tol=config.min_lr / 10):
        return f"the cosine ends near 0; it should end at min_lr = {config.min_lr}"
    if step >= w:
        return f"the cosine's progress runs from 0 at step {w} (the end of the warmup) to 1 at step {decay}"
    return f"during the warmup the rate climbs in a straight line to lr = {config.lr}"


@reader_errors('fn(step, config) -> the learning rate of that step (warmup, then cosine to min_lr)')
def check_lr_at(fn) -> str:
    """``fn(step, config)`` must give ``minigpt.train.lr_at``'s rate at every step of two configs.

    Returns ``"<name>: passed ..."``, or ``"<name>: not yet"`` with the first differing step as expected vs
    got and what that difference usually means. An error raised by the reader's code is reported as
    expected vs got (``reader_errors``)."""
    name = getattr(fn, "__name__", "your function")
    checked = 0
    for label, config in _configs():
        for step in range(config.max_steps):
            want, got = lr_at(step, config), fn(step, config)
            if not isinstance(got, (int, float)) or isinstance(got, bool):
                return f"{name}: not yet\n  expected a number, got {type(got).__name__}"
            if not math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-15):
                return (f"{name}: not yet\n  {label}, step {step}: expected lr {want:.6e}, got {got:.6e}\n"
                        f"  {_diagnose(fn, config, step, want, got)}")
            checked += 1
    return f"{name}: passed (all {checked} steps of two schedules)"
