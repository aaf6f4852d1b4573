"""Checks for the lesson (``tensor/gradcheck``): the reader's central-difference gradient.

``check_numerical_grad(fn)`` takes a function with the lesson's signature, ``fn(f, x, eps)``: ``f`` maps
a float64 array to a number, and ``fn`` returns d f / d x, an array shaped like ``x``. The check knows
the exact derivatives of its test functions, so it needs nothing from the reader's engine. It returns one
report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` and what was expected and what came back.
An error raised by the reader's code is reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt_course.checks import Check, Lesson, Result, name_of, not_yet, passed, reader_errors, show, speaker


def _cube_sum(a: np.ndarray) -> float:
    return float((a * a * a).sum())  # f(x) = sum(x^3), df/dx = 3 x^2


MESSAGES = {
    "expected": ("{name}(f, x, eps) -> (f(x + eps) - f(x - eps)) / (2 eps) for every element of x",
                 "{name}(f, x, eps) -> 对 x 的每个元素算 (f(x + eps) - f(x - eps)) / (2 eps)"),
    "shape": ("  f(x) = sum(x**3) at x = {x}: expected a gradient of shape {want}, got shape {got}",
              "  f(x) = sum(x**3)，x = {x}：梯度的形状应该是 {want}，得到的形状是 {got}"),
    "forward": ("  that is (f(x + eps) - f(x)) / eps, a forward difference, off by about 3 x eps; use central differences",
                "  这是前向差分 (f(x + eps) - f(x)) / eps，大约差了 3 x eps；要用中心差分"),
    "backward": ("  that is (f(x) - f(x - eps)) / eps, a backward difference, off by about 3 x eps; use central differences",
                 "  这是后向差分 (f(x) - f(x - eps)) / eps，大约差了 3 x eps；要用中心差分"),
    "twice": ("  twice the gradient: divide by 2 eps, the distance between x + eps and x - eps",
              "  是梯度的两倍：要除以 2 eps，也就是 x + eps 和 x - eps 之间的距离"),
    "vector": ("  f(x) = sum(x**3) at x = {x}, eps = {eps:g}\n    expected 3 x**2 = {want} (within 1e-5)\n"
               "    got      {got}",
               "  f(x) = sum(x**3)，x = {x}，eps = {eps:g}\n    期望     3 x**2 = {want}（误差在 1e-5 以内）\n"
               "    得到     {got}"),
    "array_shape": ("  x of shape {shape}: expected a gradient of the same shape, got shape {got}\n"
                    "  loop over every index of x, e.g. np.ndindex(x.shape)",
                    "  x 的形状是 {shape}：梯度应该和它形状相同，得到的形状是 {got}\n"
                    "  要遍历 x 的每个下标，比如用 np.ndindex(x.shape)"),
    "element": ("  f(x) = sum(x**3) on a {shape} array, element {i} (x = {x:g}):\n    expected 3 x**2 = {want:g}\n"
                "    got      {got:g}",
                "  f(x) = sum(x**3)，形状 {shape} 的数组，元素 {i}（x = {x:g}）：\n    期望     3 x**2 = {want:g}\n"
                "    得到     {got:g}"),
    "changed": ("  x changed: after the call x{i} is {now:g}, it was {was:g}\n  put every element back after perturbing it",
                "  x 被改了：调用之后 x{i} 是 {now:g}，原来是 {was:g}\n  每个元素挪动之后都要恢复原值"),
    "eps": ("  f(x) = sum(x**3) at x = {x} with eps = {eps:g}: a central difference is 3 x**2 + eps**2 exactly\n"
            "    expected {want}\n    got      {got}\n  use the eps you are given",
            "  f(x) = sum(x**3)，x = {x}，eps = {eps:g}：中心差分恰好是 3 x**2 + eps**2\n"
            "    期望     {want}\n    得到     {got}\n  要用传进来的 eps"),
    "passed": ("{name}: passed (3 x**2 within 1e-5 on shapes (3,) and {shape}, x left as it was, eps = {eps:g} used "
               "as given)",
               "{name}：通过（形状 (3,) 和 {shape} 上都和 3 x**2 相差在 1e-5 以内，x 保持原样，传进来的 eps = {eps:g} 也照用了）"),
}
say = speaker(__name__)


@reader_errors("expected")
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
        return not_yet(name, say("shape", x=show(x, digits=7), want=x.shape, got=got.shape))
    if not np.allclose(got, want, rtol=0, atol=1e-5):
        hint = []
        if np.allclose(got, want + 3 * x * eps + eps**2, rtol=0, atol=1e-9):
            hint = [say("forward")]
        elif np.allclose(got, want - 3 * x * eps + eps**2, rtol=0, atol=1e-9):
            hint = [say("backward")]
        elif np.allclose(got, 2 * want, rtol=0, atol=1e-4):
            hint = [say("twice")]
        return not_yet(name, say("vector", x=show(x, digits=7), eps=eps, want=show(want, digits=7),
                                 got=show(got, digits=7)), *hint)

    x = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -2.5]])
    before = x.copy()
    got = np.asarray(fn(_cube_sum, x, eps), dtype=np.float64)
    want = 3 * before**2
    if got.shape != x.shape:
        return not_yet(name, say("array_shape", shape=x.shape, got=got.shape))
    wrong = np.argwhere(~np.isclose(got, want, rtol=0, atol=1e-5))
    if len(wrong):
        i = tuple(int(j) for j in wrong[0])
        return not_yet(name, say("element", shape=x.shape, i=i, x=before[i], want=want[i], got=got[i]))
    changed = np.argwhere(x != before)
    if len(changed):
        i = tuple(int(j) for j in changed[0])
        return not_yet(name, say("changed", i=list(i), now=x[i], was=before[i]))

    x, big = np.array([1.0, 2.0]), 0.5
    got = np.asarray(fn(_cube_sum, x.copy(), big), dtype=np.float64)
    want = 3 * x**2 + big**2
    if not np.allclose(got, want, rtol=0, atol=1e-9):
        return not_yet(name, say("eps", x=show(x, digits=7), eps=big, want=show(want, digits=7), got=show(got, digits=7)))
    return passed(name, say("passed", shape=before.shape, eps=big))


LESSON = Lesson("gradcheck", starts={"gradcheck.py": (
    "numerical_grad: gradients by finite differences, to check a backward", "numerical_grad：用有限差分算梯度，检查反向传播")},
    introduces=(("gradcheck.py", "numerical_grad"),),
    checks=(Check("numerical_grad", "central-differences",
                  lambda wb: check_numerical_grad(wb.get("gradcheck.py", "numerical_grad"))),))
