"""The loop lesson's exercise: the reader's ``lr_at(step, config)`` against ``minigpt.train.lr_at``.

The report names the usual mistakes: no schedule at all, a warmup that starts at lr 0, a cosine that
ends at 0 instead of ``min_lr``, a cosine that starts at step 0 instead of after the warmup, and no
floor after ``lr_decay_steps``.
"""

from __future__ import annotations

import math

from minigpt_course.checks import Check, Lesson, Message, Result, name_of, not_yet, passed, reader_errors, speaker
from minigpt.presets import get_preset
from minigpt.train import lr_at


def _configs():
    return [("shakespeare-cpu", get_preset("shakespeare-cpu")),
            ("tiny with lr_decay_steps=150", get_preset("tiny", lr_decay_steps=150))]


MESSAGES = {
    "expected": ("{name}(step, config) -> the learning rate of that step (warmup, then cosine to min_lr)",
                 "{name}(step, config) -> 这一步的学习率（先预热，再按余弦降到 min_lr）"),
    "constant": ("  the rate never changes: no warmup and no decay", "  学习率一直不变：没有预热，也没有衰减"),
    "zero": ("  step 0 gets lr 0, so the first step would not move the weights: warm up with (step + 1) / (warmup + 1)",
             "  第 0 步的 lr 是 0，第一步就不会动权重：预热要用 (step + 1) / (warmup + 1)"),
    "after": ("  after step {decay} (lr_decay_steps) the rate stays at min_lr = {min_lr}",
              "  第 {decay} 步（lr_decay_steps）之后，学习率一直停在 min_lr = {min_lr}"),
    "to_zero": ("  the cosine ends near 0; it should end at min_lr = {min_lr}", "  余弦降到了 0 附近；它应该停在 min_lr = {min_lr}"),
    "progress": ("  the cosine's progress runs from 0 at step {warmup} (the end of the warmup) to 1 at step {decay}",
                 "  余弦的进度从第 {warmup} 步（预热结束）的 0 走到第 {decay} 步的 1"),
    "warmup": ("  during the warmup the rate climbs in a straight line to lr = {lr}", "  预热期间学习率沿直线升到 lr = {lr}"),
    "number": ("  expected a number, got {got}", "  期望     一个数，得到的是 {got}"),
    "wrong": ("  {config}, step {step}: expected lr {want:.6e}, got {got:.6e}",
              "  {config}，第 {step} 步：lr 应该是 {want:.6e}，得到的是 {got:.6e}"),
    "tiny": ("tiny with lr_decay_steps=150", "tiny，lr_decay_steps=150"),
    "passed": ("{name}: passed (all {n} steps of two schedules)", "{name}：通过（两种调度的全部 {n} 步）"),
}
say = speaker(__name__)


def _configs():
    return [("shakespeare-cpu", get_preset("shakespeare-cpu")),
            (say("tiny"), get_preset("tiny", lr_decay_steps=150))]


def _diagnose(fn, config, step: int, want: float, got: float) -> Message:
    w, decay = config.warmup_steps, config.lr_decay_steps or config.max_steps
    if all(math.isclose(fn(s, config), config.lr) for s in (0, w, decay - 1)):
        return say("constant")
    if step == 0 and got == 0:
        return say("zero")
    if step >= decay:
        return say("after", decay=decay, min_lr=config.min_lr)
    if step >= w and math.isclose(fn(decay - 1, config), 0.0, abs_tol=config.min_lr / 10):
        return say("to_zero", min_lr=config.min_lr)
    if step >= w:
        return say("progress", warmup=w, decay=decay)
    return say("warmup", lr=config.lr)


@reader_errors("expected")
def check_lr_at(fn) -> Result:
    """``fn(step, config)`` must give ``minigpt.train.lr_at``'s rate at every step of two configs.

    Not yet: the first differing step as expected vs got and what that difference usually means."""
    name = name_of(fn)
    checked = 0
    for label, config in _configs():
        for step in range(config.max_steps):
            want, got = lr_at(step, config), fn(step, config)
            if not isinstance(got, (int, float)) or isinstance(got, bool):
                return not_yet(name, say("number", got=type(got).__name__))
            if not math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-15):
                return not_yet(name, say("wrong", config=label, step=step, want=want, got=got),
                               _diagnose(fn, config, step, want, got))
            checked += 1
    return passed(name, say("passed", n=checked))


LESSON = Lesson("loop", starts={"train.py": (
    "lr_at: the learning rate of each step (loop), average_gradients (scale-out), perplexity (inspect)",
    "lr_at：每一步的学习率（loop）、average_gradients（scale-out）、perplexity（inspect）")},
                introduces=(("train.py", "lr_at"),),
                checks=(Check("lr_at", "schedule", lambda wb: check_lr_at(wb.get("train.py", "lr_at"))),))
