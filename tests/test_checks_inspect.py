"""The check of lesson 18's exercise: the starter fails, the answer and a torch version pass, and each usual mistake
(the mean of the windows' perplexities, base 2, e ** bits, no exp, the sign flipped, the sum, divided by the
windows, raw logits, the log-softmax over the positions, a size written into the code) is named; an error in the
reader's code is reported, not raised; every message has both languages; the workbook's train.py is graded."""

import contextlib
import io
import math
import runpy
from pathlib import Path

import numpy as np
import pytest
import torch

from minigpt_course import checks
from minigpt_course.checks.inspect import LESSON, MESSAGES, check_perplexity

SNIPPETS = Path(__file__).resolve().parents[1] / "snippets" / "inspect"


def _functions(script: str) -> dict:
    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(SNIPPETS / script))


def _log_probs(logits, axis=-1):
    z = logits - logits.max(axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis, keepdims=True))


def _nll(logits, targets, axis=-1):
    """(N, T): -log p(target)."""
    return -np.take_along_axis(_log_probs(logits, axis), targets[..., None], -1)[..., 0]


def right(logits, targets):
    return float(np.exp(_nll(logits, targets).mean()))


def test_the_starter_fails_and_the_answer_passes():
    report = str(check_perplexity(_functions("12_ex_perplexity.py")["my_perplexity"]))
    assert report.startswith("my_perplexity: not yet\n  three windows of 4 tokens, V = 6\n    expected 23.01\n")
    answer = _functions("13_answer_perplexity.py")
    assert str(check_perplexity(answer["my_perplexity"])).startswith("my_perplexity: passed")
    assert "the mean of each window's perplexity" in str(check_perplexity(answer["mean_of_windows"]))
    assert str(check_perplexity(right)).startswith("right: passed (exp of the mean loss over every token, 6 for V")


def test_a_torch_version_passes():
    def with_torch(logits, targets):
        logits, targets = torch.from_numpy(logits), torch.from_numpy(targets)
        return torch.nn.functional.cross_entropy(logits.flatten(0, 1), targets.flatten()).exp()  # a 0-d tensor

    assert check_perplexity(with_torch).passed


@pytest.mark.parametrize("fn, named", [
    (lambda lg, t: np.exp(_nll(lg, t).mean(axis=1)).mean(), "the mean of each window's perplexity"),
    (lambda lg, t: 2 ** _nll(lg, t).mean(), "2 ** loss: the loss is in nats"),
    (lambda lg, t: np.exp((_nll(lg, t) / math.log(2)).mean()), "e ** (the loss in bits)"),
    (lambda lg, t: _nll(lg, t).mean(), "the mean loss itself: perplexity is exp of it"),
    (lambda lg, t: np.exp(-_nll(lg, t).mean()), "1 / perplexity"),
    (lambda lg, t: np.exp(_nll(lg, t).sum()), "exp of the summed loss"),
    (lambda lg, t: np.exp(_nll(lg, t).sum() / len(lg)), "divided by the N windows"),
    (lambda lg, t: np.exp(-np.take_along_axis(lg, t[..., None], -1).mean()), "the logits were used as log-prob"),
    (lambda lg, t: np.exp(_nll(lg, t, axis=1).mean()), "log_softmax over axis 1, the positions"),
])
def test_each_usual_mistake_is_named(fn, named):
    report = str(check_perplexity(fn, name="mine"))
    assert report.startswith("mine: not yet\n  three windows of 4 tokens, V = 6\n    expected 23.01") and named in report


def test_a_size_written_into_the_code_fails_on_the_second_case():
    def v_six(logits, targets):
        return right(logits[..., :6], np.minimum(targets, 5))

    assert "two windows of 9 tokens, V = 50\n    expected 162.8" in str(check_perplexity(v_six))


def test_an_error_and_not_a_number_are_reported():
    def broken(logits, targets):
        raise IndexError("oops")

    report = str(check_perplexity(broken))
    assert report.startswith("broken: not yet") and "IndexError: oops" in report and "Traceback" not in report

    def per_window(logits, targets):
        return np.exp(_nll(logits, targets).mean(axis=1))

    assert "expected one number, 23.01\n    got      array(" in str(check_perplexity(per_window))


def test_the_lesson_is_declared_and_speaks_both_languages():
    assert checks.lesson("inspect") is LESSON and LESSON.introduces == (("train.py", "perplexity"),)
    for en, zh in MESSAGES.values():
        assert checks.fields(en) == checks.fields(zh)
    zh = check_perplexity(_functions("13_answer_perplexity.py")["mean_of_windows"]).render("zh")
    assert "还没通过" in zh and "3 个窗口，每个 4 个词元" in zh and "各个窗口困惑度的平均" in zh


def test_the_workbook_check_grades_train_py(tmp_path):
    from minigpt_course import workbook

    wb = tmp_path / "wb"
    workbook.init(wb, "en")
    answer = (SNIPPETS / "13_answer_perplexity.py").read_text(encoding="utf-8")
    body = "import numpy as np\n\n\ndef perplexity" + answer.split("def my_perplexity", 1)[1].split("\n\n\n")[0] + "\n"
    (wb / "train.py").write_text(body, encoding="utf-8")
    assert [r.passed for r in workbook.run_lesson("inspect", wb)] == [True]
    (wb / "train.py").write_text(body.replace("np.exp(nll.mean())", "2 ** nll.mean()"), encoding="utf-8")
    (result,) = workbook.run_lesson("inspect", wb)
    assert not result.passed and "2 ** loss" in result.render("en")
    assert "重读：第 18 (inspect) 课「困惑度」一节（#perplexity）" in result.render("zh")
