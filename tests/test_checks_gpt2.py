"""The check of the GPT-2 appendix's exercise passes the library's from_hf and names the usual wrong ones."""

from __future__ import annotations

import pytest
import torch

from minigpt.gpt2 import from_hf
from minigpt_course import checks
from minigpt_course.checks.gpt2 import LESSON, check_from_hf


def test_the_library_passes():
    assert str(check_from_hf(from_hf)).startswith("from_hf: passed (all 7 kinds of tensor")


def with_change(change):
    """from_hf with one tensor kind done wrong: change(name, tensor, right answer) -> the wrong answer."""
    def fn(name, tensor):
        return change(name, tensor, from_hf(name, tensor))
    return fn


def conv1d_kept(name, tensor, right):
    return {k: tensor if k.endswith(("c_proj.weight", "c_fc.weight")) else v for k, v in right.items()}


def c_proj_kept(name, tensor, right):  # only the square one: the shape is right, the values are not
    return {k: tensor if k.endswith("attn.c_proj.weight") else v for k, v in right.items()}


def split_rows(name, tensor, right):
    if name.endswith("c_attn.weight"):
        return dict(zip(right, tensor.chunk(3, dim=0)))
    return right


def split_untransposed(name, tensor, right):
    if name.endswith("c_attn.weight"):
        return dict(zip(right, tensor.chunk(3, dim=1)))
    return right


def swapped(name, tensor, right):
    if "c_attn" in name:
        q, k, v = right.values()
        return dict(zip(right, (k, q, v)))
    return right


def not_split(name, tensor, right):
    if "c_attn" in name:
        return {name.replace("h.", "blocks.", 1): tensor}
    return right


def mask_kept(name, tensor, right):
    return {"blocks.0.attn.bias": tensor} if name.endswith(".attn.bias") and "c_attn" not in name else right


def prefix_kept(name, tensor, right):
    return {("transformer." + k if name.startswith("transformer.") else k): v for k, v in right.items()}


@pytest.mark.parametrize("change, needles", [
    (conv1d_kept, ["h.1.mlp.c_fc.weight", "expected shape (24, 6), got (6, 24)", "Conv1D stores W as (in, out)"]),
    (c_proj_kept, ["(a square Conv1D weight)", "the shape is right, the values are not", "transpose with .t()"]),
    (split_rows, ["expected shape (6, 6), got (2, 18)", "cut after the transpose (or along dim=1)"]),
    (split_untransposed, ["the shape is right, the values are not", "Conv1D stores W as (in, out)"]),
    (swapped, ["blocks.0.attn.c_q.weight: the shape is right", "q, then k, then v"]),
    (not_split, ["got the names      ['blocks.0.attn.c_attn.weight']", "split it in three"]),
    (mask_kept, ["(a layer's causal mask, a buffer)", "return {}"]),
    (prefix_kept, ["transformer.blocks.0.ln_1.weight", "strip that prefix first"]),
    (lambda name, tensor, right: None, ["got      None: return a dict"]),
    (lambda name, tensor, right: [tensor], ["which is not a dict from names to tensors"]),
    (lambda name, tensor, right: {k: v + 1 for k, v in right.items()}, ["compare with the names and shapes"]),
], ids=["conv1d kept", "c_proj kept", "split rows", "split untransposed", "q k swapped", "not split", "mask kept",
        "prefix kept", "None", "list", "plus one"])
def test_usual_mistakes_are_named(change, needles):
    report = str(check_from_hf(with_change(change)))
    assert "not yet" in report.splitlines()[0], report
    for needle in needles:
        assert needle in report, report


def test_errors_of_the_readers_code_are_expected_vs_got():
    def broken(name, tensor):
        q, k, v = tensor.t().chunk(4)
        return {}

    report = str(check_from_hf(broken))
    assert "expected broken(name, tensor) to return {our name: tensor}" in report, report
    assert "got      ValueError" in report and "q, k, v = tensor.t().chunk(4)" in report, report


def test_numpy_arrays_are_read_as_tensors():
    report = check_from_hf(lambda name, tensor: {k: v.numpy() for k, v in from_hf(name, tensor).items()})
    assert report.passed, str(report)


def test_chinese_report_and_the_lesson_declaration():
    report = check_from_hf(with_change(c_proj_kept)).render("zh")
    assert "还没通过" in report and "Conv1D 按 (in, out) 存 W" in report and "（方阵形状的 Conv1D 权重）" in report
    assert checks.lesson("gpt2") is LESSON and LESSON.introduces == (("gpt2.py", "from_hf"),)
    assert torch.equal(from_hf("wte.weight", torch.ones(2))["wte.weight"], torch.ones(2))
