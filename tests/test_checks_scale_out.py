"""The check of lesson 21's exercise: the starter fails (each rank keeps its own gradient), the answer passes, and
each usual mistake (no division, two divisions, the sum thrown away, a reduced copy, a parameter without a
gradient not skipped) is named; an error in the reader's code is reported, not raised; every message has both
languages."""

import contextlib
import io
import runpy
from pathlib import Path

import torch

from minigpt_course import checks
from minigpt_course.checks.scale_out import LESSON, MESSAGES, check_average_gradients

SNIPPETS = Path(__file__).resolve().parents[1] / "snippets" / "scale-out"


def _functions(script: str) -> dict:
    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(SNIPPETS / script))


def test_the_starter_fails_and_the_answer_passes():
    report = str(check_average_gradients(_functions("08_ex_average_gradients.py")["my_average_gradients"]))
    assert report.startswith("my_average_gradients: not yet") and "this rank's own gradient" in report
    answer = _functions("09_answer_average_gradients.py")
    assert str(check_average_gradients(answer["my_average_gradients"])).startswith("my_average_gradients: passed")
    assert "the sum over the 2 ranks" in str(check_average_gradients(answer["sum_only"]))


def test_dividing_first_and_replacing_the_grad_pass_too():
    def divide_first(params, all_reduce, world_size):  # what torch's allreduce_hook does
        for p in params:
            if p.grad is not None:
                p.grad /= world_size
                all_reduce(p.grad)

    def new_tensor(params, all_reduce, world_size):
        for p in params:
            if p.grad is not None:
                all_reduce(p.grad)
                p.grad = p.grad / world_size

    assert check_average_gradients(divide_first).passed and check_average_gradients(new_tensor).passed


def _each(body):
    def fn(params, all_reduce, world_size):
        for p in params:
            if p.grad is not None:
                body(p, all_reduce, world_size)
    return fn


def test_each_usual_mistake_is_named():
    def twice(p, all_reduce, w):
        p.grad /= w
        all_reduce(p.grad)
        p.grad /= w

    def thrown_away(p, all_reduce, w):
        p.grad = all_reduce(p.grad)

    def copy(p, all_reduce, w):
        all_reduce(p.grad.clone())
        p.grad /= w

    def first_only(params, all_reduce, world_size):
        all_reduce(params[0].grad)
        params[0].grad /= world_size

    def not_skipped(params, all_reduce, world_size):
        for p in params:
            all_reduce(p.grad)
            p.grad /= world_size

    def divide_none(params, all_reduce, world_size):
        for p in params:
            p.grad /= world_size

    def zeros(params, all_reduce, world_size):
        for p in params:
            if p.grad is None:
                p.grad = torch.zeros_like(p)
            all_reduce(p.grad)
            p.grad /= world_size

    assert "divided before all_reduce and again after it" in str(check_average_gradients(_each(twice)))
    assert "throws the sum away" in str(check_average_gradients(_each(thrown_away)))
    assert "all_reduce summed a copy" in str(check_average_gradients(_each(copy)))
    report = str(check_average_gradients(first_only))
    assert "parameter 1:" in report and "never called on it" in report
    report = str(check_average_gradients(not_skipped))
    assert "all_reduce(None)" in report and "parameter 2 has no gradient" in report
    report = str(check_average_gradients(divide_none))
    assert "TypeError" in report and "parameter 2 has no gradient" in report
    assert "must keep grad None, got [0, 0]" in str(check_average_gradients(zeros))


def test_an_error_and_a_return_value_are_reported():
    def broken(params, all_reduce, world_size):
        raise ValueError("no group")

    report = str(check_average_gradients(broken))
    assert report.startswith("broken: not yet") and "ValueError: no group" in report and "Traceback" not in report

    def returns(params, all_reduce, world_size):
        for p in params:
            if p.grad is not None:
                all_reduce(p.grad)
                p.grad /= world_size
        return params

    assert "returns None" in str(check_average_gradients(returns))


def test_three_ranks_are_checked():
    def two_only(params, all_reduce, world_size):  # right for 2 ranks, wrong for 3
        for p in params:
            if p.grad is not None:
                all_reduce(p.grad)
                p.grad /= 2

    report = str(check_average_gradients(two_only))
    assert "3 ranks, rank 0, parameter 0:" in report and "expected grad [2, 4, 6]" in report


def test_the_lesson_is_declared_and_speaks_both_languages():
    assert checks.lesson("scale-out") is LESSON and LESSON.introduces == (("train.py", "average_gradients"),)
    for en, zh in MESSAGES.values():
        assert checks.fields(en) == checks.fields(zh)
    zh = check_average_gradients(_functions("08_ex_average_gradients.py")["my_average_gradients"]).render("zh")
    assert "还没通过" in zh and "这是本进程自己的梯度" in zh


def test_the_workbook_check_grades_train_py(tmp_path):
    from minigpt_course import workbook

    wb = tmp_path / "wb"
    workbook.init(wb, "en")
    answer = (SNIPPETS / "09_answer_average_gradients.py").read_text(encoding="utf-8")
    body = "def average_gradients" + answer.split("def my_average_gradients", 1)[1].split("\n\n\n")[0] + "\n"
    (wb / "train.py").write_text(body, encoding="utf-8")
    assert [r.passed for r in workbook.run_lesson("scale-out", wb)] == [True]
    (wb / "train.py").write_text(body.replace("        p.grad /= world_size", "        pass"), encoding="utf-8")
    (result,) = workbook.run_lesson("scale-out", wb)
    assert not result.passed and "the sum over the 2 ranks" in result.render("en")
    assert "重读：第 21 (scale-out) 课「进程之间怎么通信：all-reduce」一节（#all-reduce）" in result.render("zh")
