"""The check of lesson 14's exercise passes the library's lr_at and names the usual wrong schedules."""

import math

from minigpt_course.checks.loop import check_lr_at
from minigpt.train import lr_at


def test_the_library_passes():
    assert str(check_lr_at(lr_at)).startswith("lr_at: passed")


def test_constant_rate_is_named():
    assert "never changes" in str(check_lr_at(lambda step, c: c.lr))


def test_warmup_from_zero_is_named():
    def from_zero(step, c):
        return c.lr * step / c.warmup_steps if step < c.warmup_steps else lr_at(step, c)
    assert "step 0 gets lr 0" in str(check_lr_at(from_zero))


def test_cosine_to_zero_is_named():
    def to_zero(step, c):
        if step < c.warmup_steps:
            return lr_at(step, c)
        decay = c.lr_decay_steps or c.max_steps
        return 0.5 * (1 + math.cos(math.pi * min(1, (step - c.warmup_steps) / (decay - c.warmup_steps)))) * c.lr
    assert "ends near 0" in str(check_lr_at(to_zero))


def test_no_floor_after_decay_steps_is_named():
    def no_floor(step, c):
        if step < c.warmup_steps:
            return lr_at(step, c)
        decay = c.lr_decay_steps or c.max_steps
        p = (step - c.warmup_steps) / (decay - c.warmup_steps)
        return c.min_lr + 0.5 * (1 + math.cos(math.pi * p)) * (c.lr - c.min_lr)
    report = str(check_lr_at(no_floor))
    assert "tiny with lr_decay_steps=150" in report and "stays at min_lr" in report
