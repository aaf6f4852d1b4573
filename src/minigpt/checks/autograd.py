"""Checks for lesson 3 (``tensor/autograd``): the reader's ``tanh`` with its backward, and the reader's
topological order.

Both checks take the reader's function and the ``Tensor`` class it works with: the reader's own
``snippets/autograd/tensor.py``, or ``minigpt.tensor.Tensor``, which has the same ``_make``, ``_prev``,
``_backward``, ``_accumulate`` and ``grad``. Each returns one report: ``"<name>: passed ..."``, or
``"<name>: not yet"`` and what was expected and what came back, in the lesson's terms. An exception
raised while the reader's tanh runs is reported the same way, next to what was expected: a gradient of
the wrong shape handed to ``x._accumulate`` (``.sum()`` over everything) is named as such, anything else
with its line. A ``RecursionError`` in the topological order on a deep graph is what exercise 2 asks to
avoid, so it is reported as such. Any other error of the reader's code is reported as expected vs got
(``reader_errors``).
"""

from __future__ import annotations

import traceback
from types import SimpleNamespace

import numpy as np

from minigpt.checks import show, reader_errors
from minigpt.tensor import Tensor as _Library

def _topological_order(loss) -> list:
    """The engine's own topological sort (it follows only ._prev, so it sorts the reader's tensors too),
    walked over stand-ins whose inputs are reversed: a report then lists a node's inputs first to last,
    as the page draws the graph, while the engine keeps the order its gradients are summed in."""
    stand_ins: dict[int, SimpleNamespace] = {}
    todo = [loss]
    while todo:
        node = todo.pop()
        if id(node) not in stand_ins:
            stand_ins[id(node)] = SimpleNamespace(node=node, _prev=())
            todo.extend(node._prev)
    for s in stand_ins.values():
        s._prev = tuple(stand_ins[id(p)] for p in reversed(s.node._prev))
    return [s.node for s in _Library._topological_order(stand_ins[id(loss)])]


# --- tanh --------------------------------------------------------------------------------------------


def _where(error: BaseException) -> str:
    """The deepest line of the traceback outside this module: usually the reader's own line."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != __file__]
    if not frames:
        return ""
    f = frames[-1]
    return f" (line {f.lineno} of {f.filename.rsplit('/', 1)[-1]}: {f.line})"


def _run_backward(loss, x) -> tuple[BaseException | None, tuple | None]:
    """``loss.backward()``, watching what the reader's _backward hands to ``x._accumulate``: the error it
    raised, if any, and the shape of the first gradient handed to x that did not have x's shape."""
    wrong: list[tuple] = []
    accumulate = x._accumulate

    def watched(g):
        if np.shape(g) != x.shape and not wrong:
            wrong.append(np.shape(g))
        return accumulate(g)

    x._accumulate = watched
    try:
        loss.backward()
    except Exception as e:  # the reader's error, reported next to what was expected
        return e, (wrong[0] if wrong else None)
    finally:
        del x._accumulate
    return None, (wrong[0] if wrong else None)


def _lost_shape(got: str, want: tuple) -> str:
    """The report for a gradient that was summed down (``got`` says what had which shape)."""
    return (f"    got      {got}, for x of shape {want}:\n"
            f"  the gradient lost its shape. x.grad holds one number per element of x, each element's own\n"
            f"  derivative g * (1 - tanh(x)**2): do not sum it (no .sum())")


@reader_errors('fn(x) -> tanh(x) as a Tensor whose _backward adds g * (1 - tanh(x)**2) into x.grad')
def check_tanh(fn, Tensor) -> str:
    """``fn(x)`` must return ``tanh(x)`` as a Tensor made with ``Tensor._make(out, (x,), _backward, "tanh")``,
    whose ``_backward(g)`` adds ``g * (1 - tanh(x)**2)`` into ``x.grad`` through ``x._accumulate``.

    Three tests, in order: the forward values; ``x.grad`` after ``sum(g * tanh(x)).backward()`` with a ``g``
    that is not all ones (so that a backward that forgets ``g`` is caught); and ``tanh(x) + tanh(x)``, where
    ``x`` is used twice and its gradient must be the sum of both (so that ``x.grad = ...`` is caught).
    """
    name = getattr(fn, "__name__", "your function")
    xs = np.array([-2.0, -0.5, 0.0, 0.5, 1.5])
    g = np.array([1.0, 2.0, -1.0, 0.5, 3.0])
    t = np.tanh(xs)
    want = g * (1.0 - t**2)

    x = Tensor(xs.copy(), requires_grad=True)
    try:
        y = fn(x)
    except Exception as e:  # the reader's error, next to what was expected
        return (f"{name}: not yet\n  forward, x = {show(xs)}:\n    expected tanh(x) = {show(t)}\n"
                f"    got      {type(e).__name__}: {e}{_where(e)}")
    if not isinstance(y, Tensor):
        return f"{name}: not yet\n  {name}(x) should return a Tensor, got {type(y).__name__}"
    if y.data.shape != xs.shape or not np.allclose(y.data, t, rtol=0, atol=1e-12):
        return (f"{name}: not yet\n  forward, x = {show(xs)}:\n    expected tanh(x) = {show(t)}\n"
                f"    got      {show(y.data)} (shape {y.data.shape})")
    if y._backward is None or not any(p is x for p in y._prev):
        return (f"{name}: not yet\n  y = {name}(x) does not remember x and its _backward "
                f"(y._prev = {len(y._prev)} tensors, y._backward = {y._backward}):\n"
                f"  build y with Tensor._make(out, (x,), _backward, \"tanh\")")

    where = f"  L = sum(g * {name}(x)), x = {show(xs)}, g = {show(g)}"
    expected = f"    expected x.grad = g * (1 - tanh(x)**2) = {show(want)}"
    error, wrong_shape = _run_backward((y * Tensor(g)).sum(), x)
    if wrong_shape is not None:
        return (f"{name}: not yet\n{where}\n{expected}\n"
                f"{_lost_shape(f'a gradient of shape {wrong_shape} handed to x._accumulate', xs.shape)}")
    if error is not None:
        return f"{name}: not yet\n{where}\n{expected}\n    got      {type(error).__name__}: {error}{_where(error)}"
    got = x.grad
    if got is None:
        return (f"{name}: not yet\n{where}\n{expected}\n"
                f"    got      x.grad = None: your _backward passed nothing to x (call x._accumulate(...))")
    got = np.asarray(got, dtype=np.float64)
    if got.shape != xs.shape:
        return f"{name}: not yet\n{where}\n{expected}\n{_lost_shape(f'x.grad of shape {got.shape}', xs.shape)}"
    if not np.allclose(got, want, rtol=1e-9, atol=1e-12):
        hint = ""
        if np.allclose(got, g * (1.0 - t), rtol=1e-9, atol=1e-12):
            hint = "\n  that is g * (1 - tanh(x)): the square is missing"
        elif np.allclose(got, g * (1.0 - xs**2), rtol=1e-9, atol=1e-12):
            hint = "\n  that is g * (1 - x**2): the derivative is 1 - tanh(x)**2, the output squared, not the input"
        elif np.allclose(got, 1.0 - t**2, rtol=1e-9, atol=1e-12):
            hint = "\n  that is 1 - tanh(x)**2 without g: multiply by g, the gradient coming in (chain rule)"
        elif np.allclose(got, g, rtol=1e-9, atol=1e-12):
            hint = "\n  that is g passed on unchanged: multiply it by the local derivative 1 - tanh(x)**2"
        return f"{name}: not yet\n{where}\n{expected}\n    got      x.grad = {show(got)}{hint}"

    x = Tensor(xs.copy(), requires_grad=True)
    error, wrong_shape = _run_backward((fn(x) + fn(x)).sum(), x)
    want2 = 2.0 * (1.0 - t**2)
    if error is not None:
        return (f"{name}: not yet\n  L = sum({name}(x) + {name}(x)), x used twice:\n"
                f"    expected x.grad = 2 * (1 - tanh(x)**2) = {show(want2)}\n"
                f"    got      {type(error).__name__}: {error}{_where(error)}")
    got = None if x.grad is None else np.asarray(x.grad, dtype=np.float64)
    if got is None or not np.allclose(got, want2, rtol=1e-9, atol=1e-12):
        hint = ""
        if got is not None and np.allclose(got, want2 / 2, rtol=1e-9, atol=1e-12):
            hint = "\n  only one of the two uses counted: add into x.grad with x._accumulate(...), never x.grad = ..."
        return (f"{name}: not yet\n  L = sum({name}(x) + {name}(x)), x used twice:\n"
                f"    expected x.grad = 2 * (1 - tanh(x)**2) = {show(want2)}\n    got      x.grad = "
                f"{'None' if got is None else show(got)}{hint}")
    return (f"{name}: passed (tanh(x) and x.grad = g * (1 - tanh(x)**2) at {xs.size} points, "
            f"and both gradients added when x is used twice)")


# --- topological order ---------------------------------------------------------------------------------


def _graphs(Tensor):
    """(description, loss, {name: tensor}) for the graphs the check sorts, small ones first."""

    def leaves(**values):
        return {k: Tensor(np.array(v), requires_grad=True) for k, v in values.items()}

    out = []
    t = leaves(a=3.0, b=-2.0, c=8.0, d=5.0)
    t["u"] = t["a"] * t["b"]
    t["v"] = t["u"] + t["c"]
    t["L"] = t["v"] * t["d"]
    out.append(("L = (a * b + c) * d", t))
    t = leaves(x=2.0, w=3.0, k=4.0)
    t["h"] = t["x"] * t["w"]
    t["m"] = t["h"] * t["k"]
    t["L"] = t["h"] + t["m"]
    out.append(("L = h + h * k, h = x * w (h used twice)", t))
    t = leaves(x=1.5, y=-0.5)
    t["p"] = t["x"] * t["y"]
    t["q"] = t["p"] + t["x"]
    t["L"] = t["q"] * t["p"]
    out.append(("L = q * p, q = p + x, p = x * y (x and p used twice)", t))
    return [(what, t["L"], t) for what, t in out]


def _deep(Tensor, n: int = 5000):
    x = Tensor(np.array(2.0), requires_grad=True)
    s = x
    for _ in range(n):
        s = s + x
    return s, x


def _problem(order, loss, label) -> str | None:
    """What is wrong with ``order`` as a topological order of loss's graph, in words, or None."""
    if not isinstance(order, (list, tuple)):
        return f"expected a list of tensors, got {type(order).__name__}"
    correct = _topological_order(loss)
    graph = {id(t): t for t in correct}
    position: dict[int, int] = {}
    for i, t in enumerate(order):
        if id(t) not in graph:
            return f"position {i} holds {t!r}, which L was not computed from"
        if id(t) in position:
            return (f"{label(t)} appears twice (positions {position[id(t)]} and {i}): each tensor goes in once; "
                    f"remember the ones already visited")
        position[id(t)] = i
    missing = [label(t) for t in correct if id(t) not in position]
    if missing:
        shown = ", ".join(missing[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
        return (f"missing {shown} ({len(missing)} of {len(graph)} tensors): every tensor L was computed from "
                f"goes in, leaves too, and L itself")
    for i, t in enumerate(order):
        for p in t._prev:
            if position[id(p)] > i:
                hint = ""
                if order and order[0] is loss:
                    hint = ("\n  L comes first: that is the order backward() walks; return it leaves first "
                            "(backward() reverses it)")
                return (f"{label(t)} is at position {i}, before its parent {label(p)} at position {position[id(p)]}: "
                        f"a tensor goes after everything it was computed from{hint}")
    return None


def _backward_in(order, loss) -> None:
    """backward()'s loop with the given order: loss.grad = 1, then each _backward, last tensor first."""
    for t in order:
        t.grad = None
    loss.grad = np.ones_like(loss.data)
    for t in reversed(order):
        if t._backward is not None:
            t._backward(t.grad)


@reader_errors('fn(loss) -> every tensor loss was computed from, each once, after its parents')
def check_topological_order(fn, Tensor) -> str:
    """``fn(loss)`` must return a list of every tensor ``loss`` was computed from (following ``_prev``),
    ``loss`` included, each exactly once and after all of its parents, and must not recurse: it is run on
    a graph 5000 ops deep as well, deeper than Python's recursion limit.

    The tests, in order: three small graphs (a tree, then tensors used twice), each order checked tensor
    by tensor and then used for backward()'s loop, whose gradients must equal those of a correct order;
    then the deep graph ``s = x + x + ... + x``.
    """
    name = getattr(fn, "__name__", "your function")
    for what, loss, tensors in _graphs(Tensor):
        names = {id(t): k for k, t in tensors.items()}

        def label(t, names=names):
            return names.get(id(t), repr(t))

        order = fn(loss)
        problem = _problem(order, loss, label)
        if problem:
            got = " ".join(label(t) for t in order) if isinstance(order, (list, tuple)) else repr(order)
            return f"{name}: not yet\n  {what}\n    your order: {got or '(empty)'}\n  {problem}"
        _backward_in(list(order), loss)
        got = {k: float(t.grad) for k, t in tensors.items()}
        _backward_in(_topological_order(loss), loss)
        want = {k: float(t.grad) for k, t in tensors.items()}
        if got != want:  # cannot happen for a valid order; said plainly if it does
            return (f"{name}: not yet\n  {what}\n    gradients in your order:   {got}\n"
                    f"    gradients in a correct one: {want}")

    s, x = _deep(Tensor)
    try:
        order = fn(s)
    except RecursionError:
        return (f"{name}: not yet\n  s = x + x + ... + x, 5000 ops deep: {name} raised RecursionError\n"
                f"  Python allows about 1000 nested calls: walk the graph with a list as your own stack instead")
    problem = _problem(order, s, lambda t: "x" if t is x else ("s" if t is s else "a partial sum"))
    if problem:
        return f"{name}: not yet\n  s = x + x + ... + x, 5000 ops deep\n  {problem}"
    _backward_in(list(order), s)
    if float(x.grad) != 5001.0:
        return f"{name}: not yet\n  s = x + x + ... + x (5001 terms)\n    expected dL/dx = 5001\n    got      {float(x.grad):g}"
    return (f"{name}: passed (3 small graphs and one 5000 ops deep: each tensor once, after its parents; "
            f"backward() in this order gives the right gradients)")
