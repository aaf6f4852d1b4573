"""The check of lesson 20's exercise: the starter fails naming the missing mask, the answer and torch's fused
attention pass, and each usual mistake (no mask, no scale, a scale of hs, softmax over the wrong axis, the mask
filled with 0, the mask flipped, the mask after the softmax, a size written into the code) is named; an error in
the reader's code is reported with the shape it was called on, not raised; every message has both languages; the
workbook's gpt.py is graded."""

import contextlib
import io
import math
import runpy
from pathlib import Path

import pytest
import torch
from torch.nn import functional as F

from minigpt_course import checks
from minigpt_course.checks.fast import LESSON, MESSAGES, check_attention

SNIPPETS = Path(__file__).resolve().parents[1] / "snippets" / "fast"


def _functions(script: str) -> dict:
    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(SNIPPETS / script))


def test_the_starter_fails_naming_the_missing_mask():
    report = str(check_attention(_functions("10_ex_attention.py")["my_attention"]))
    assert report.startswith("my_attention: not yet\n  B=2, nh=2, T=5, hs=4: position 0 (batch 0, head 0)")
    assert "that is exactly no causal mask" in report


def test_the_answer_and_the_fused_kernel_pass():
    answer = _functions("11_answer_attention.py")
    assert str(check_attention(answer["my_attention"])).startswith("my_attention: passed (4 shapes")
    assert "that is exactly softmax over dim -2" in str(check_attention(answer["rows_are_columns"]))

    def fused(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)

    assert str(check_attention(fused)).startswith("fused: passed")


def _attention(mask="-inf", scale="sqrt", dim=-1, after=False, flipped=False):
    """Causal attention with one step changed."""
    def fn(q, k, v):
        T, hs = q.shape[-2:]
        scores = q @ k.transpose(-2, -1)
        scores = scores / {"sqrt": math.sqrt(hs), "none": 1, "hs": hs}[scale]
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        causal = causal.T if flipped else causal
        if after:
            return scores.softmax(dim) * causal @ v
        return scores.masked_fill(~causal, float(mask)).softmax(dim).nan_to_num() @ v
    return fn


@pytest.mark.parametrize("fn, named", [
    (_attention(mask="inf"), None),  # control: +inf is no known mistake, and nan is not right
    (_attention(scale="none"), "no scale: the scores are not divided by sqrt(hs)"),
    (_attention(scale="hs"), "the scores divided by hs"),
    (_attention(dim=-2), "softmax over dim -2"),
    (_attention(mask="0"), "the later positions' scores set to 0, not -inf"),
    (_attention(flipped=True), "the mask flipped"),
    (_attention(after=True), "the mask applied after the softmax"),
])
def test_each_usual_mistake_is_named(fn, named):
    report = str(check_attention(fn))
    assert report.startswith("fn: not yet\n  B=2, nh=2, T=5, hs=4: position "), report
    if named is None:
        assert "that is exactly" not in report
    else:
        assert f"that is exactly {named}" in report and report.count("that is exactly") == 1


def test_a_size_written_into_the_code_fails_on_another_shape():
    def hs_four(q, k, v):  # right for the first shape only
        T = q.shape[-2]
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        return (q @ k.transpose(-2, -1) / 2).masked_fill(~causal, float("-inf")).softmax(-1) @ v

    report = str(check_attention(hs_four))
    assert "B=1, nh=3, T=7, hs=8: position 1 (batch 0, head 0)" in report, report  # position 0: one weight, 1

    def t_five(q, k, v):
        causal = torch.ones(5, 5, dtype=torch.bool).tril()
        return (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])).masked_fill(~causal, float("-inf")).softmax(-1) @ v

    report = str(check_attention(t_five))
    assert report.startswith("t_five: not yet\n  B=1, nh=3, T=7, hs=8:\n  expected t_five(q, k, v) -> causal")
    assert "RuntimeError" in report and "(line " in report and "Traceback" not in report


def test_a_later_head_is_shown_where_it_is_the_first_wrong():
    def head_one_wrong(q, k, v):
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        if out.shape[1] > 1:
            out[:, 1, 3] += 1
        return out

    assert "position 3 (batch 0, head 1)" in str(check_attention(head_one_wrong))


def test_a_wrong_shape_a_wrong_type_and_an_error_are_reported():
    assert "expected shape (B, nh, T, hs) = (2, 2, 5, 4), got (2, 2, 5, 5)" in \
        str(check_attention(lambda q, k, v: q @ k.transpose(-2, -1)))
    assert "expected a torch.Tensor of shape (2, 2, 5, 4), got ndarray" in \
        str(check_attention(lambda q, k, v: q.numpy()))

    def broken(q, k, v):
        return q @ v  # (T, hs) @ (T, hs): the inner sizes differ

    report = str(check_attention(broken))
    assert report.startswith("broken: not yet") and "RuntimeError" in report and "return q @ v" in report


def test_the_lesson_is_declared_and_speaks_both_languages():
    assert checks.lesson("fast") is LESSON and LESSON.introduces == (("gpt.py", "manual_attention"),)
    for en, zh in MESSAGES.values():
        assert checks.fields(en) == checks.fields(zh)
    zh = check_attention(_functions("10_ex_attention.py")["my_attention"]).render("zh")
    assert "还没通过" in zh and "位置 0（序列 0，头 0）" in zh and "没有因果掩码" in zh


def test_the_workbook_check_grades_gpt_py(tmp_path):
    from minigpt_course import workbook

    wb = tmp_path / "wb"
    workbook.init(wb, "en")
    answer = (SNIPPETS / "11_answer_attention.py").read_text(encoding="utf-8")
    body = "import math\n\nimport torch\n\n\ndef manual_attention" + \
        answer.split("def my_attention", 1)[1].split("\n\n\n")[0] + "\n"
    (wb / "gpt.py").write_text(body, encoding="utf-8")
    assert [r.passed for r in workbook.run_lesson("fast", wb)] == [True]
    (wb / "gpt.py").write_text(body.replace('float("-inf")', "0.0"), encoding="utf-8")
    (result,) = workbook.run_lesson("fast", wb)
    assert not result.passed and "set to 0, not -inf" in result.render("en")
    assert "重读：第 20 (fast) 课「融合注意力」一节（#fused-attention）" in result.render("zh")
