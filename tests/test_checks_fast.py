"""The check of lesson 19's exercise: the starter fails naming the missing mask, the answer and torch's fused
attention pass, and each usual mistake (no mask, no scale, softmax over the wrong axis) is named; an error in
the reader's code is reported, not raised."""

import contextlib
import io
import math
import runpy
from pathlib import Path

import torch
from torch.nn import functional as F

from minigpt_course.checks.fast import check_attention

LESSON = Path(__file__).resolve().parents[1] / "snippets" / "fast"


def _functions(script: str) -> dict:
    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(LESSON / script))


def test_the_starter_fails_naming_the_missing_mask():
    report = str(check_attention(_functions("10_ex_attention.py")["my_attention"]))
    assert report.startswith("my_attention: not yet")
    assert "that is exactly no causal mask" in report


def test_the_answer_and_the_fused_kernel_pass():
    assert str(check_attention(_functions("11_answer_attention.py")["my_attention"])).startswith("my_attention: passed")

    def fused(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)

    assert str(check_attention(fused)).startswith("fused: passed")


def test_each_usual_mistake_is_named():
    def no_scale(q, k, v):
        T = q.shape[-2]
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        return (q @ k.transpose(-2, -1)).masked_fill(~causal, float("-inf")).softmax(-1) @ v

    def wrong_axis(q, k, v):
        T, hs = q.shape[-2], q.shape[-1]
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        scores = (q @ k.transpose(-2, -1) / math.sqrt(hs)).masked_fill(~causal, float("-inf"))
        return scores.softmax(-2).nan_to_num() @ v

    assert "that is exactly no scale" in str(check_attention(no_scale))
    assert "that is exactly softmax over dim -2" in str(check_attention(wrong_axis))


def test_a_wrong_shape_and_an_error_are_reported():
    assert "expected shape (B, nh, T, hs) = (2, 2, 5, 4), got (2, 2, 5, 5)" in \
        str(check_attention(lambda q, k, v: q @ k.transpose(-2, -1)))

    def broken(q, k, v):
        return q @ v  # (T, hs) @ (T, hs): the inner sizes differ

    report = str(check_attention(broken))
    assert report.startswith("broken: not yet") and "RuntimeError" in report
