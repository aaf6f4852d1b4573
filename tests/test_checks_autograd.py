"""The checks of lesson 2's exercises (minigpt_course.checks.autograd) pass right code, on the reader's engine
(snippets/autograd/tensor.py) and on the library's, and fail each named wrong version with its hint; the
central-difference check passes a right one and names what is wrong with wrong ones."""

from __future__ import annotations

import numpy as np
import pytest

from minigpt_course.checks.autograd import check_numerical_grad, check_tanh, check_topological_order
from minigpt.tensor import Tensor as LibTensor
from test_lesson_modules import load

ReaderTensor = load("autograd", "tensor").Tensor
ENGINES = pytest.mark.parametrize("Tensor", [ReaderTensor, LibTensor], ids=["lesson-2", "minigpt"])


def tanh_with(local, *, accumulate=True, make=True):
    """A tanh whose backward adds g-dependent ``local(g, x, out)`` into x.grad (or assigns it)."""

    def my_tanh(x):
        out = np.tanh(x.data)

        def _backward(g):
            if accumulate:
                x._accumulate(local(g, x.data, out))
            else:
                x.grad = local(g, x.data, out)

        if not make:
            return type(x)(out)
        return type(x)._make(out, (x,), _backward, "tanh")

    return my_tanh


@ENGINES
def test_check_tanh_passes_the_engines_own_tanh_and_a_right_one(Tensor):
    def engine_tanh(x):
        return x.tanh()

    assert str(check_tanh(engine_tanh, Tensor)).startswith("engine_tanh: passed")
    right = tanh_with(lambda g, x, out: g * (1.0 - out**2))
    assert str(check_tanh(right, Tensor)).startswith("my_tanh: passed")


@pytest.mark.parametrize("wrong, hint", [
    (tanh_with(lambda g, x, out: g * (1.0 - out)), "the square is missing"),
    (tanh_with(lambda g, x, out: g * (1.0 - x**2)), "not the input"),
    (tanh_with(lambda g, x, out: 1.0 - out**2), "multiply by g"),
    (tanh_with(lambda g, x, out: g), "passed on unchanged"),
    (tanh_with(lambda g, x, out: g * (1.0 - out**2), accumulate=False), "never x.grad = ..."),
    (tanh_with(lambda g, x, out: g * (1.0 - out**2), make=False), "Tensor._make(out, (x,), _backward"),
    (tanh_with(lambda g, x, out: 0 * g), "expected x.grad = g * (1 - tanh(x)**2)"),
], ids=["no square", "1 - x^2", "no g", "g unchanged", "assigns", "no _make", "zero"])
@ENGINES
def test_check_tanh_fails_a_wrong_backward_and_says_what_is_wrong(Tensor, wrong, hint):
    report = str(check_tanh(wrong, Tensor))
    assert report.startswith("my_tanh: not yet") and hint in report, report


@ENGINES
def test_check_tanh_says_a_summed_gradient_lost_its_shape(Tensor):
    """Summing too much, the reader's engine raises and the library's would broadcast: the report says the
    gradient lost its shape, with both shapes, instead of a traceback that tells the reader to sum."""
    summed = tanh_with(lambda g, x, out: (g * (1.0 - out**2)).sum())
    report = str(check_tanh(summed, Tensor))
    assert report.startswith("my_tanh: not yet") and "lost its shape" in report, report
    assert "expected x.grad = g * (1 - tanh(x)**2)" in report and "shape ()" in report and "(5,)" in report
    assert "Traceback" not in report and "summed back" not in report


@ENGINES
def test_check_tanh_reports_the_readers_exception_next_to_what_was_expected(Tensor):
    def raises(g, x, out):
        raise ZeroDivisionError("oops")

    report = str(check_tanh(tanh_with(raises), Tensor))
    assert report.startswith("my_tanh: not yet") and "expected x.grad" in report, report
    assert "got      ZeroDivisionError: oops" in report and "test_checks_autograd.py" in report, report


def test_check_tanh_fails_a_wrong_forward():
    def doubled(x):
        return ReaderTensor._make(2 * np.tanh(x.data), (x,), lambda g: None, "tanh")

    report = str(check_tanh(doubled, ReaderTensor))
    assert "not yet" in report and "expected tanh(x)" in report


stack_order = LibTensor._topological_order  # the engine's walk with a stack; it reads only ._prev


def no_visited(loss):
    order = []

    def visit(t):
        for p in t._prev:
            visit(p)
        order.append(t)

    visit(loss)
    return order


def breadth_first(loss):  # each tensor once, leaves last, reversed: not topological when a value is reused
    order, seen, queue = [], {id(loss)}, [loss]
    while queue:
        t = queue.pop(0)
        order.append(t)
        for p in t._prev:
            if id(p) not in seen:
                seen.add(id(p))
                queue.append(p)
    return order[::-1]


@ENGINES
def test_check_topological_order_passes_the_engines_order_built_with_a_stack(Tensor):
    assert str(check_topological_order(stack_order, Tensor)).startswith("_topological_order: passed")


@pytest.mark.parametrize("wrong, hint", [
    (lambda loss: [], "missing a, b, u, c, v, d, L (7 of 7 tensors)"),
    (lambda loss: stack_order(loss)[::-1], "L comes first: that is the order backward() walks"),
    (no_visited, "appears twice"),
    (breadth_first, "before its parent"),
    (lambda loss: loss._topological_order(), "raised RecursionError"),  # lesson 2's own order recurses
    (lambda loss: stack_order(loss)[1:], "missing d (1 of 7 tensors)"),  # the engine walks the last input first: d
    (lambda loss: {t for t in stack_order(loss)}, "expected a list of tensors, got set"),
], ids=["empty", "loss first", "no visited", "breadth first", "recursive", "a leaf missing", "a set"])
def test_check_topological_order_fails_a_wrong_order_and_says_what_is_wrong(wrong, hint):
    report = str(check_topological_order(wrong, ReaderTensor))
    assert "not yet" in report and hint in report, report


def test_check_topological_order_reports_the_readers_error_at_their_line():
    def broken(loss):
        return loss.parents  # no such attribute

    report = str(check_topological_order(broken, ReaderTensor))
    assert report.startswith("broken: not yet\n  expected broken(loss) -> every tensor"), report
    assert "got      AttributeError" in report and "return loss.parents" in report, report


# --- numerical_grad ------------------------------------------------------------------------------------


def central(f, x, eps=1e-6):
    grad = np.zeros(x.shape)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        up = f(x)
        x[i] = old - eps
        down = f(x)
        x[i] = old
        grad[i] = (up - down) / (2 * eps)
    return grad


def forward(f, x, eps=1e-6):
    grad, fx = np.zeros(x.shape), f(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        grad[i] = (f(x) - fx) / eps
        x[i] = old
    return grad


def backward(f, x, eps=1e-6):
    grad, fx = np.zeros(x.shape), f(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old - eps
        grad[i] = (fx - f(x)) / eps
        x[i] = old
    return grad


def no_half(f, x, eps=1e-6):  # divides by eps, not 2 eps
    return central(f, x, eps) * 2


def not_restored(f, x, eps=1e-6):
    grad = np.zeros(x.shape)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        up = f(x)
        x[i] = old - eps
        grad[i] = (up - f(x)) / (2 * eps)
    return grad


def flat(f, x, eps=1e-6):
    return central(f, x, eps).ravel()


def fixed_eps(f, x, eps=1e-6):  # ignores the eps it is given
    return central(f, x, 1e-6)


def zeros(f, x, eps=1e-6):  # the starter as the page shows it
    return np.zeros(x.shape)


def test_check_numerical_grad_passes_a_central_difference():
    assert str(check_numerical_grad(central)).startswith("central: passed")


@pytest.mark.parametrize("fn, says", [
    (zeros, "got      [0, 0, 0]"),
    (forward, "a forward difference"),
    (backward, "a backward difference"),
    (no_half, "divide by 2 eps"),
    (not_restored, "put every element back"),
    (flat, "got shape (6,)"),
    (fixed_eps, "use the eps you are given"),
])
def test_check_numerical_grad_names_a_wrong_one_with_what_was_expected_and_what_came_back(fn, says):
    report = str(check_numerical_grad(fn))
    assert report.startswith(f"{fn.__name__}: not yet"), report
    assert says in report, report


def test_check_numerical_grad_does_not_swallow_the_readers_own_errors():
    def unfinished(f, x, eps=1e-6):
        raise NotImplementedError("my bug")

    report = str(check_numerical_grad(unfinished))
    assert report.startswith("unfinished: not yet\n  expected unfinished(f, x, eps) -> "), report
    assert "got      NotImplementedError: my bug (line" in report and "of test_checks_autograd.py:" in report, report
