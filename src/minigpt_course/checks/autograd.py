"""Checks for the lesson (``tensor/autograd``): the reader's ``tanh`` with its backward, the reader's
topological order, and the reader's central-difference gradient.

The first two checks take the reader's function and the ``Tensor`` class it works with: the reader's own
``snippets/autograd/tensor.py``, or ``minigpt.tensor.Tensor``, which has the same ``_make``, ``_prev``,
``_backward``, ``_accumulate`` and ``grad``. Each returns one report: ``"<name>: passed ..."``, or
``"<name>: not yet"`` and what was expected and what came back, in the lesson's terms. An exception
raised while the reader's tanh runs is reported the same way, next to what was expected: a gradient of
the wrong shape handed to ``x._accumulate`` (``.sum()`` over everything) is named as such, anything else
with its line. A ``RecursionError`` in the topological order on a deep graph is what exercise 2 asks to
avoid, so it is reported as such. Any other error of the reader's code is reported as expected vs got
(``reader_errors``).

``check_numerical_grad(fn)`` takes a function with the signature of the lesson's ``gradcheck.py``,
``fn(f, x, eps)``: ``f`` maps a float64 array to a number, and ``fn`` returns d f / d x, an array shaped
like ``x``. The check knows the exact derivatives of its test functions, so it needs nothing from the
reader's engine.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from minigpt_course.checks import (Check, Lesson, Message, Result, error_text, name_of, not_yet, passed, reader_errors, show,
                            source_file, speaker, where)
from minigpt.tensor import Tensor as _Library

MESSAGES = {
    # tanh
    "tanh_expected": ("{name}(x) -> tanh(x) as a Tensor whose _backward adds g * (1 - tanh(x)**2) into x.grad",
                      "{name}(x) -> 一个装着 tanh(x) 的 Tensor，它的 _backward 把 g * (1 - tanh(x)**2) 加进 x.grad"),
    "forward": ("  forward, x = {x}:\n    expected tanh(x) = {want}", "  前向计算，x = {x}：\n    期望     tanh(x) = {want}"),
    "forward_got": ("    got      {got} (shape {shape})", "    得到     {got}（形状 {shape}）"),
    "not_tensor": ("  {name}(x) should return a Tensor, got {got}", "  {name}(x) 应该返回一个 Tensor，得到的是 {got}"),
    "no_graph": ("  y = {name}(x) does not remember x and its _backward (y._prev = {n} tensors, y._backward = {backward}):\n"
                 "  build y with Tensor._make(out, (x,), _backward, \"tanh\")",
                 "  y = {name}(x) 没有记下 x 和它的 _backward（y._prev 里有 {n} 个张量，y._backward = {backward}）：\n"
                 "  要用 Tensor._make(out, (x,), _backward, \"tanh\") 构造 y"),
    "once": ("  L = sum(g * {name}(x)), x = {x}, g = {g}\n    expected x.grad = g * (1 - tanh(x)**2) = {want}",
             "  L = sum(g * {name}(x))，x = {x}，g = {g}\n    期望     x.grad = g * (1 - tanh(x)**2) = {want}"),
    "handed": ("    got      a gradient of shape {got} handed to x._accumulate, for x of shape {shape}:",
               "    得到     交给 x._accumulate 的梯度形状是 {got}，而 x 的形状是 {shape}："),
    "grad_shape": ("    got      x.grad of shape {got}, for x of shape {shape}:",
                   "    得到     x.grad 的形状是 {got}，而 x 的形状是 {shape}："),
    "lost_shape": ("  the gradient lost its shape. x.grad holds one number per element of x, each element's own\n"
                   "  derivative g * (1 - tanh(x)**2): do not sum it (no .sum())",
                   "  梯度丢了形状。x.grad 里 x 的每个元素各有一个数，就是这个元素自己的\n"
                   "  导数 g * (1 - tanh(x)**2)：不要把它加起来（不要 .sum()）"),
    "grad_none": ("    got      x.grad = None: your _backward passed nothing to x (call x._accumulate(...))",
                  "    得到     x.grad = None：你的 _backward 什么也没传给 x（要调用 x._accumulate(...)）"),
    "grad": ("    got      x.grad = {got}", "    得到     x.grad = {got}"),
    "no_square": ("  that is g * (1 - tanh(x)): the square is missing", "  这是 g * (1 - tanh(x))：少了平方"),
    "x_squared": ("  that is g * (1 - x**2): the derivative is 1 - tanh(x)**2, the output squared, not the input",
                  "  这是 g * (1 - x**2)：导数是 1 - tanh(x)**2，平方的是输出，不是输入"),
    "no_g": ("  that is 1 - tanh(x)**2 without g: multiply by g, the gradient coming in (chain rule)",
             "  这是没乘 g 的 1 - tanh(x)**2：要乘上传进来的梯度 g（链式法则）"),
    "g_unchanged": ("  that is g passed on unchanged: multiply it by the local derivative 1 - tanh(x)**2",
                    "  这是把 g 原样传了下去：要乘上局部导数 1 - tanh(x)**2"),
    "twice": ("  L = sum({name}(x) + {name}(x)), x used twice:\n    expected x.grad = 2 * (1 - tanh(x)**2) = {want}",
              "  L = sum({name}(x) + {name}(x))，x 用了两次：\n    期望     x.grad = 2 * (1 - tanh(x)**2) = {want}"),
    "one_use": ("  only one of the two uses counted: add into x.grad with x._accumulate(...), never x.grad = ...",
                "  两次使用只算上了一次：要用 x._accumulate(...) 累加进 x.grad，不能写 x.grad = ..."),
    "tanh_passed": ("{name}: passed (tanh(x) and x.grad = g * (1 - tanh(x)**2) at {n} points, and both gradients added "
                    "when x is used twice)",
                    "{name}：通过（tanh(x) 和 x.grad = g * (1 - tanh(x)**2) 在 {n} 个点上都对，x 用两次时两份梯度也都加上了）"),
    # topological order
    "order_expected": ("{name}(loss) -> every tensor loss was computed from, each once, after its parents",
                       "{name}(loss) -> 算出 loss 用到的每个张量，各出现一次，排在它的父节点之后"),
    "tree": ("L = (a * b + c) * d", "L = (a * b + c) * d"),
    "h_twice": ("L = h + h * k, h = x * w (h used twice)", "L = h + h * k，h = x * w（h 用了两次）"),
    "x_p_twice": ("L = q * p, q = p + x, p = x * y (x and p used twice)",
                  "L = q * p，q = p + x，p = x * y（x 和 p 各用了两次）"),
    "your_order": ("  {graph}\n    your order: {order}", "  {graph}\n    你的顺序：{order}"),
    "empty": ("(empty)", "（空）"),
    "not_list": ("  expected a list of tensors, got {got}", "  期望     由张量组成的列表，得到的是 {got}"),
    "stranger": ("  position {i} holds {t}, which L was not computed from", "  第 {i} 个位置放的是 {t}，可 L 不是由它算出来的"),
    "duplicate": ("  {t} appears twice (positions {first} and {i}): each tensor goes in once; remember the ones already "
                  "visited",
                  "  {t} 出现了两次（第 {first} 和第 {i} 个位置）：每个张量只放一次；要记下已经访问过的"),
    "missing": ("  missing {names}{more} ({n} of {total} tensors): every tensor L was computed from goes in, leaves too, "
                "and L itself",
                "  缺少 {names}{more}（{total} 个张量里缺了 {n} 个）：算出 L 用到的每个张量都要放进去，叶子也算，还有 L 自己"),
    "more": (" and {n} more", " 等，另外还有 {n} 个"),
    "before_parent": ("  {t} is at position {i}, before its parent {p} at position {j}: a tensor goes after everything it "
                      "was computed from",
                      "  {t} 在第 {i} 个位置，排在了它的父节点 {p}（第 {j} 个位置）前面：张量要排在算出它的所有张量之后"),
    "loss_first": ("  L comes first: that is the order backward() walks; return it leaves first (backward() reverses it)",
                   "  L 排在了最前面：那是 backward() 走的顺序；要返回叶子在前的顺序（backward() 会把它反过来）"),
    "gradients": ("  {graph}\n    gradients in your order:   {got}\n    gradients in a correct one: {want}",
                  "  {graph}\n    按你的顺序算出的梯度：{got}\n    按正确顺序算出的梯度：{want}"),
    "recursion": ("  s = x + x + ... + x, 5000 ops deep: {name} raised RecursionError\n"
                  "  Python allows about 1000 nested calls: walk the graph with a list as your own stack instead",
                  "  s = x + x + ... + x，5000 层深：{name} 抛出了 RecursionError\n"
                  "  Python 只允许大约 1000 层嵌套调用：改用一个列表当你自己的栈来遍历图"),
    "deep": ("  s = x + x + ... + x, 5000 ops deep", "  s = x + x + ... + x，5000 层深"),
    "partial_sum": ("a partial sum", "某个部分和"),
    "label": ("{t}", "{t}"),
    "deep_grad": ("  s = x + x + ... + x (5001 terms)\n    expected dL/dx = 5001\n    got      {got:g}",
                  "  s = x + x + ... + x（5001 项）\n    期望     dL/dx = 5001\n    得到     {got:g}"),
    "order_passed": ("{name}: passed (3 small graphs and one 5000 ops deep: each tensor once, after its parents; "
                     "backward() in this order gives the right gradients)",
                     "{name}：通过（3 个小图和一个 5000 层深的图：每个张量只出现一次，都排在父节点之后；"
                     "backward() 按这个顺序算出的梯度是对的）"),
    # numerical gradient
    "num_expected": ("{name}(f, x, eps) -> (f(x + eps) - f(x - eps)) / (2 eps) for every element of x",
                 "{name}(f, x, eps) -> 对 x 的每个元素算 (f(x + eps) - f(x - eps)) / (2 eps)"),
    "num_shape": ("  f(x) = sum(x**3) at x = {x}: expected a gradient of shape {want}, got shape {got}",
              "  f(x) = sum(x**3)，x = {x}：梯度的形状应该是 {want}，得到的形状是 {got}"),
    "num_forward": ("  that is (f(x + eps) - f(x)) / eps, a forward difference, off by about 3 x eps; use central differences",
                "  这是前向差分 (f(x + eps) - f(x)) / eps，大约差了 3 x eps；要用中心差分"),
    "num_backward": ("  that is (f(x) - f(x - eps)) / eps, a backward difference, off by about 3 x eps; use central differences",
                 "  这是后向差分 (f(x) - f(x - eps)) / eps，大约差了 3 x eps；要用中心差分"),
    "num_twice": ("  twice the gradient: divide by 2 eps, the distance between x + eps and x - eps",
              "  是梯度的两倍：要除以 2 eps，也就是 x + eps 和 x - eps 之间的距离"),
    "num_vector": ("  f(x) = sum(x**3) at x = {x}, eps = {eps:g}\n    expected 3 x**2 = {want} (within 1e-5)\n"
               "    got      {got}",
               "  f(x) = sum(x**3)，x = {x}，eps = {eps:g}\n    期望     3 x**2 = {want}（误差在 1e-5 以内）\n"
               "    得到     {got}"),
    "num_array_shape": ("  x of shape {shape}: expected a gradient of the same shape, got shape {got}\n"
                    "  loop over every index of x, e.g. np.ndindex(x.shape)",
                    "  x 的形状是 {shape}：梯度应该和它形状相同，得到的形状是 {got}\n"
                    "  要遍历 x 的每个下标，比如用 np.ndindex(x.shape)"),
    "num_element": ("  f(x) = sum(x**3) on a {shape} array, element {i} (x = {x:g}):\n    expected 3 x**2 = {want:g}\n"
                "    got      {got:g}",
                "  f(x) = sum(x**3)，形状 {shape} 的数组，元素 {i}（x = {x:g}）：\n    期望     3 x**2 = {want:g}\n"
                "    得到     {got:g}"),
    "num_changed": ("  x changed: after the call x{i} is {now:g}, it was {was:g}\n  put every element back after perturbing it",
                "  x 被改了：调用之后 x{i} 是 {now:g}，原来是 {was:g}\n  每个元素挪动之后都要恢复原值"),
    "num_eps": ("  f(x) = sum(x**3) at x = {x} with eps = {eps:g}: a central difference is 3 x**2 + eps**2 exactly\n"
            "    expected {want}\n    got      {got}\n  use the eps you are given",
            "  f(x) = sum(x**3)，x = {x}，eps = {eps:g}：中心差分恰好是 3 x**2 + eps**2\n"
            "    期望     {want}\n    得到     {got}\n  要用传进来的 eps"),
    "num_passed": ("{name}: passed (3 x**2 within 1e-5 on shapes (3,) and {shape}, x left as it was, eps = {eps:g} used "
               "as given)",
               "{name}：通过（形状 (3,) 和 {shape} 上都和 3 x**2 相差在 1e-5 以内，x 保持原样，传进来的 eps = {eps:g} 也照用了）"),
}
say = speaker(__name__)

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


@reader_errors("tanh_expected")
def check_tanh(fn, Tensor) -> Result:
    """``fn(x)`` must return ``tanh(x)`` as a Tensor made with ``Tensor._make(out, (x,), _backward, "tanh")``,
    whose ``_backward(g)`` adds ``g * (1 - tanh(x)**2)`` into ``x.grad`` through ``x._accumulate``.

    Three tests, in order: the forward values; ``x.grad`` after ``sum(g * tanh(x)).backward()`` with a ``g``
    that is not all ones (so that a backward that forgets ``g`` is caught); and ``tanh(x) + tanh(x)``, where
    ``x`` is used twice and its gradient must be the sum of both (so that ``x.grad = ...`` is caught).
    """
    name = name_of(fn)
    xs = np.array([-2.0, -0.5, 0.0, 0.5, 1.5])
    g = np.array([1.0, 2.0, -1.0, 0.5, 3.0])
    t = np.tanh(xs)
    want = g * (1.0 - t**2)

    def error(e: BaseException) -> Message:
        return Message("got_error_in", {"error": error_text(e), "where": where(e, source_file(fn))})

    x = Tensor(xs.copy(), requires_grad=True)
    forward = say("forward", x=show(xs), want=show(t))
    try:
        y = fn(x)
    except Exception as e:  # the reader's error, next to what was expected
        return not_yet(name, forward, error(e))
    if not isinstance(y, Tensor):
        return not_yet(name, say("not_tensor", got=type(y).__name__))
    if y.data.shape != xs.shape or not np.allclose(y.data, t, rtol=0, atol=1e-12):
        return not_yet(name, forward, say("forward_got", got=show(y.data), shape=y.data.shape))
    if y._backward is None or not any(p is x for p in y._prev):
        return not_yet(name, say("no_graph", n=len(y._prev), backward=y._backward))

    once = say("once", x=show(xs), g=show(g), want=show(want))
    error_, wrong_shape = _run_backward((y * Tensor(g)).sum(), x)
    if wrong_shape is not None:
        return not_yet(name, once, say("handed", got=wrong_shape, shape=xs.shape), say("lost_shape"))
    if error_ is not None:
        return not_yet(name, once, error(error_))
    got = x.grad
    if got is None:
        return not_yet(name, once, say("grad_none"))
    got = np.asarray(got, dtype=np.float64)
    if got.shape != xs.shape:
        return not_yet(name, once, say("grad_shape", got=got.shape, shape=xs.shape), say("lost_shape"))
    if not np.allclose(got, want, rtol=1e-9, atol=1e-12):
        hints = {"no_square": g * (1.0 - t), "x_squared": g * (1.0 - xs**2), "no_g": 1.0 - t**2, "g_unchanged": g}
        hint = [say(key) for key, wrong in hints.items() if np.allclose(got, wrong, rtol=1e-9, atol=1e-12)][:1]
        return not_yet(name, once, say("grad", got=show(got)), *hint)

    x = Tensor(xs.copy(), requires_grad=True)
    error_, wrong_shape = _run_backward((fn(x) + fn(x)).sum(), x)
    want2 = 2.0 * (1.0 - t**2)
    twice = say("twice", want=show(want2))
    if error_ is not None:
        return not_yet(name, twice, error(error_))
    got = None if x.grad is None else np.asarray(x.grad, dtype=np.float64)
    if got is None or not np.allclose(got, want2, rtol=1e-9, atol=1e-12):
        hint = [say("one_use")] if got is not None and np.allclose(got, want2 / 2, rtol=1e-9, atol=1e-12) else []
        return not_yet(name, twice, say("grad", got="None" if got is None else show(got)), *hint)
    return passed(name, say("tanh_passed", n=xs.size))


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
    out.append((say("tree"), t))
    t = leaves(x=2.0, w=3.0, k=4.0)
    t["h"] = t["x"] * t["w"]
    t["m"] = t["h"] * t["k"]
    t["L"] = t["h"] + t["m"]
    out.append((say("h_twice"), t))
    t = leaves(x=1.5, y=-0.5)
    t["p"] = t["x"] * t["y"]
    t["q"] = t["p"] + t["x"]
    t["L"] = t["q"] * t["p"]
    out.append((say("x_p_twice"), t))
    return [(what, t["L"], t) for what, t in out]


def _deep(Tensor, n: int = 5000):
    x = Tensor(np.array(2.0), requires_grad=True)
    s = x
    for _ in range(n):
        s = s + x
    return s, x


def _problem(order, loss, label) -> tuple[Message, ...]:
    """What is wrong with ``order`` as a topological order of loss's graph, as lines of the report: () if nothing."""
    if not isinstance(order, (list, tuple)):
        return (say("not_list", got=type(order).__name__),)
    correct = _topological_order(loss)
    graph = {id(t): t for t in correct}
    position: dict[int, int] = {}
    for i, t in enumerate(order):
        if id(t) not in graph:
            return (say("stranger", i=i, t=repr(t)),)
        if id(t) in position:
            return (say("duplicate", t=label(t), first=position[id(t)], i=i),)
        position[id(t)] = i
    missing = [label(t) for t in correct if id(t) not in position]
    if missing:
        names = tuple(m if isinstance(m, Message) else say("label", t=m) for m in missing[:8])
        more = say("more", n=len(missing) - 8) if len(missing) > 8 else ""
        return (say("missing", names=names, more=more, n=len(missing), total=len(graph)),)
    for i, t in enumerate(order):
        for p in t._prev:
            if position[id(p)] > i:
                first = [say("loss_first")] if order and order[0] is loss else []
                return (say("before_parent", t=label(t), i=i, p=label(p), j=position[id(p)]), *first)
    return ()


def _backward_in(order, loss) -> None:
    """backward()'s loop with the given order: loss.grad = 1, then each _backward, last tensor first."""
    for t in order:
        t.grad = None
    loss.grad = np.ones_like(loss.data)
    for t in reversed(order):
        if t._backward is not None:
            t._backward(t.grad)


@reader_errors("order_expected")
def check_topological_order(fn, Tensor) -> Result:
    """``fn(loss)`` must return a list of every tensor ``loss`` was computed from (following ``_prev``),
    ``loss`` included, each exactly once and after all of its parents, and must not recurse: it is run on
    a graph 5000 ops deep as well, deeper than Python's recursion limit.

    The tests, in order: three small graphs (a tree, then tensors used twice), each order checked tensor
    by tensor and then used for backward()'s loop, whose gradients must equal those of a correct order;
    then the deep graph ``s = x + x + ... + x``.
    """
    name = name_of(fn)
    for what, loss, tensors in _graphs(Tensor):
        names = {id(t): k for k, t in tensors.items()}

        def label(t, names=names):
            return names.get(id(t), repr(t))

        order = fn(loss)
        problem = _problem(order, loss, label)
        if problem:
            got = " ".join(label(t) for t in order) if isinstance(order, (list, tuple)) else repr(order)
            return not_yet(name, say("your_order", graph=what, order=got or say("empty")), *problem)
        _backward_in(list(order), loss)
        got = {k: float(t.grad) for k, t in tensors.items()}
        _backward_in(_topological_order(loss), loss)
        want = {k: float(t.grad) for k, t in tensors.items()}
        if got != want:  # cannot happen for a valid order; said plainly if it does
            return not_yet(name, say("gradients", graph=what, got=got, want=want))

    s, x = _deep(Tensor)
    try:
        order = fn(s)
    except RecursionError:
        return not_yet(name, say("recursion"))
    problem = _problem(order, s, lambda t: "x" if t is x else ("s" if t is s else say("partial_sum")))
    if problem:
        return not_yet(name, say("deep"), *problem)
    _backward_in(list(order), s)
    if float(x.grad) != 5001.0:
        return not_yet(name, say("deep_grad", got=float(x.grad)))
    return passed(name, say("order_passed"))


# --- numerical gradient ---------------------------------------------------------------------------------


def _cube_sum(a: np.ndarray) -> float:
    return float((a * a * a).sum())  # f(x) = sum(x^3), df/dx = 3 x^2


@reader_errors("num_expected")
def check_numerical_grad(fn) -> Result:
    """``fn(f, x, eps)`` must return (f(x + eps e_i) - f(x - eps e_i)) / (2 eps) for every element i of x,
    in an array of x's shape, and leave x as it found it.

    Four tests, in order: f(x) = sum(x^3) on a vector at eps = 1e-3, where a central difference is off by
    exactly eps^2 = 1e-6 and a forward difference by about 3 x eps; the same f on a (2, 3) array (every
    element, in its place); x unchanged afterwards; the eps it is given used (at eps = 0.5 a central
    difference of x^3 is 3 x^2 + eps^2 exactly, whatever the rounding).
    """
    name = name_of(fn)
    eps = 1e-3

    x = np.array([1.0, 2.0, 3.0])
    got = np.asarray(fn(_cube_sum, x.copy(), eps), dtype=np.float64)
    want = 3 * x**2
    if got.shape != x.shape:
        return not_yet(name, say("num_shape", x=show(x, digits=7), want=x.shape, got=got.shape))
    if not np.allclose(got, want, rtol=0, atol=1e-5):
        hint = []
        if np.allclose(got, want + 3 * x * eps + eps**2, rtol=0, atol=1e-9):
            hint = [say("num_forward")]
        elif np.allclose(got, want - 3 * x * eps + eps**2, rtol=0, atol=1e-9):
            hint = [say("num_backward")]
        elif np.allclose(got, 2 * want, rtol=0, atol=1e-4):
            hint = [say("num_twice")]
        return not_yet(name, say("num_vector", x=show(x, digits=7), eps=eps, want=show(want, digits=7),
                                 got=show(got, digits=7)), *hint)

    x = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -2.5]])
    before = x.copy()
    got = np.asarray(fn(_cube_sum, x, eps), dtype=np.float64)
    want = 3 * before**2
    if got.shape != x.shape:
        return not_yet(name, say("num_array_shape", shape=x.shape, got=got.shape))
    wrong = np.argwhere(~np.isclose(got, want, rtol=0, atol=1e-5))
    if len(wrong):
        i = tuple(int(j) for j in wrong[0])
        return not_yet(name, say("num_element", shape=x.shape, i=i, x=before[i], want=want[i], got=got[i]))
    changed = np.argwhere(x != before)
    if len(changed):
        i = tuple(int(j) for j in changed[0])
        return not_yet(name, say("num_changed", i=list(i), now=x[i], was=before[i]))

    x, big = np.array([1.0, 2.0]), 0.5
    got = np.asarray(fn(_cube_sum, x.copy(), big), dtype=np.float64)
    want = 3 * x**2 + big**2
    if not np.allclose(got, want, rtol=0, atol=1e-9):
        return not_yet(name, say("num_eps", x=show(x, digits=7), eps=big, want=show(want, digits=7), got=show(got, digits=7)))
    return passed(name, say("num_passed", shape=before.shape, eps=big))



def _call_tanh(x):
    return x.tanh()


def _call_topological_order(loss):
    return loss._topological_order()


_call_tanh.__name__, _call_topological_order.__name__ = "Tensor.tanh", "Tensor._topological_order"


def _method(wb, name: str, check, method):
    """The reader's Tensor method ``name``, checked through a function that calls it."""
    wb.get("tensor.py", "Tensor", name)
    return check(method, wb.get("tensor.py", "Tensor"))


LESSON = Lesson("autograd", starts={"gradcheck.py": (
    "numerical_grad: gradients by finite differences, to check a backward", "numerical_grad：用有限差分算梯度，检查反向传播")},
    introduces=(("tensor.py", "Tensor"), ("tensor.py", "Tensor.tanh"), ("tensor.py", "Tensor._topological_order"),
                ("gradcheck.py", "numerical_grad")),
    checks=(Check("Tensor.tanh", "local-derivatives", lambda wb: _method(wb, "tanh", check_tanh, _call_tanh)),
            Check("Tensor._topological_order", "topological-order",
                  lambda wb: _method(wb, "_topological_order", check_topological_order, _call_topological_order)),
            Check("numerical_grad", "central-differences",
                  lambda wb: check_numerical_grad(wb.get("gradcheck.py", "numerical_grad")))))
