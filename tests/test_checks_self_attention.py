"""The check of lesson 8's exercise passes torch's attention and names the usual wrong ones."""

import math

import torch
import torch.nn.functional as F

from minigpt_course.checks import self_attention as checks
from minigpt_course.checks.self_attention import check_attention


def torch_attention(q, k, v):
    t = [torch.from_numpy(x.data) for x in (q, k, v)]
    return F.scaled_dot_product_attention(*t).numpy()


def test_torchs_attention_passes():
    assert str(check_attention(torch_attention)).startswith("torch_attention: passed")


def test_the_expected_numbers_are_torchs():
    q, k, v = checks._inputs()
    want = F.scaled_dot_product_attention(*(torch.from_numpy(x) for x in (q, k, v))).numpy()
    assert abs(checks._expected(q, k, v) - want).max() < 1e-12


def test_v_unchanged_is_named():
    report = str(check_attention(lambda q, k, v: v))
    assert "not yet" in report and "expected" in report and "got" in report and "v unchanged" in report


def test_no_scale_and_divide_by_d_are_named():
    assert "without the scale" in str(check_attention(lambda q, k, v: (q @ k.transpose(-2, -1)).softmax(-1) @ v))
    by_d = str(check_attention(lambda q, k, v: (q @ k.transpose(-2, -1) * (1 / q.shape[-1])).softmax(-1) @ v))
    assert "divides the scores by d = 8" in by_d


def test_wrong_softmax_dim_is_named():
    fn = lambda q, k, v: (q @ k.transpose(-2, -1) * (1 / math.sqrt(q.shape[-1]))).softmax(-2) @ v  # noqa: E731
    assert "dim=-2" in str(check_attention(fn))


def test_the_weights_instead_of_the_output_are_named():
    report = str(check_attention(lambda q, k, v: (q @ k.transpose(-2, -1) * (1 / math.sqrt(q.shape[-1]))).softmax(-1)))
    assert "shape: expected (B, T, dv) = (2, 5, 3), got (2, 5, 5)" in report and "multiplies them by v" in report


def test_reader_errors_are_expected_vs_got_at_their_line():
    def wrong(q, k, v):
        return q @ k  # (B, T, d) @ (B, T, d): does not match

    report = str(check_attention(wrong))
    assert report.startswith("wrong: not yet\n  expected wrong(q, k, v) -> softmax(q @ k^T / sqrt(d), dim=-1) @ v"), report
    assert "got      ValueError: matmul" in report and "return q @ k" in report, report


def _functions(script: str) -> dict:
    import contextlib
    import io
    import runpy
    from pathlib import Path

    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(Path(__file__).resolve().parents[1] / "snippets" / "self-attention" / script))


def test_the_starter_fails_and_the_answer_passes():
    assert "v unchanged" in str(check_attention(_functions("10_ex_attention.py")["my_attention"]))
    names = _functions("11_answer_attention.py")
    assert str(check_attention(names["my_attention"])).startswith("my_attention: passed")
    assert "without the scale" in str(check_attention(names["no_scale"]))
