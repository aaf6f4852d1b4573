"""Checks for the exercises of the lesson ``first-network``: the reader's gradient by nudging.

``check_grad_by_nudging(fn)`` calls ``fn(f, theta)`` on two functions whose partial derivatives calculus
gives exactly, and returns a ``Result``: ``"<name>: every check passed ..."``, or ``"<name>: not yet"``
followed by what was expected, what came back and, when the numbers match a known mistake, which one.
An exception raised by the reader's code is reported the same way, with the line of the reader's file
it came from, so that the reader sees what was expected next to what went wrong.
"""

from __future__ import annotations

import numpy as np

from minigpt_course.checks import (Check, Lesson, Message, Result, error_text, name_of, not_yet, passed, show, source_file,
                            speaker, where)

RTOL, ATOL = 1e-4, 1e-4  # a one-sided nudge with h = 1e-6 is within about 1e-5 of calculus here

MESSAGES = {
    "line": ("  L(w, b) = mean((w*x + b - y)^2) on the lesson's 20 points, at theta = [w, b] = [0, 0]:",
             "  L(w, b) = mean((w*x + b - y)^2)，用课上的 20 个点，在 theta = [w, b] = [0, 0] 处："),
    "three": ("  f(t) = (t0 - 1)^2 + 2*t0*t1 + t2^3 at theta = [0.5, -1, 2]:",
              "  f(t) = (t0 - 1)^2 + 2*t0*t1 + t2^3，在 theta = [0.5, -1, 2] 处："),
    "expected": ("    expected {want}  (calculus: {how})", "    期望     {want}（微积分算出的是 {how}）"),
    "none": ("    got      None: return the array of partial derivatives", "    得到     None：要返回由偏导数组成的数组"),
    "not_numbers": ("    got      {got}, which is not an array of numbers", "    得到     {got}，这不是数值数组"),
    "shape": ("    got      an array of shape {shape}: one partial derivative per entry of theta, shape {want}",
              "    得到     形状为 {shape} 的数组：theta 每个分量对应一个偏导数，形状应该是 {want}"),
    "moved": ("    got      {got}, and theta ended {moved} away from where it started:\n"
              "  put each entry back after nudging it (theta[i] -= h), so that the next one starts from theta",
              "    得到     {got}，而且 theta 最后离起点差了 {moved}：\n"
              "  每挪完一个分量都要把它挪回去（theta[i] -= h），下一个才从原来的 theta 出发"),
    "zeros": ("  all zeros: fill grad[i] for every i, (f(theta with theta[i] + h) - f(theta)) / h",
              "  全是 0：每个 i 都要填上 grad[i]，即 (f(theta[i] 加上 h 之后的 theta) - f(theta)) / h"),
    "flipped": ("  the sign is flipped: (f(theta + h) - f(theta)) / h, the nudged value first",
                "  符号反了：(f(theta + h) - f(theta)) / h，挪过的值在前"),
    "piled_up": ("  entry i is the sum of the first i+1 partial derivatives: the nudges pile up;\n"
                 "  undo each nudge before the next one",
                 "  第 i 个分量是前 i+1 个偏导数之和：每次挪动都叠在了一起；\n  挪下一个之前，先把上一个挪回去"),
    "not_divided": ("  {ratio:.1e} times too small: the change of f is not yet divided by h",
                    "  只有应有值的 {ratio:.1e} 倍：f 的变化量还没除以 h"),
    "close": ("  close, but not close enough: make h smaller (1e-6 works well in float64)",
              "  接近了，但还不够近：把 h 取小一些（float64 里 1e-6 就很好）"),
    "passed": ("{name}: every check passed (2 functions, 5 partial derivatives, each within {tol:g} of calculus's)",
               "{name}：全部通过（2 个函数、5 个偏导数，和微积分算出的都相差在 {tol:g} 以内）"),
}
say = speaker(__name__)


def _line_data() -> tuple[np.ndarray, np.ndarray]:
    """The lesson's 20 points around y = 2x + 1 (snippets/first-network/01_fit_a_line.py)."""
    rng = np.random.default_rng(0)
    x = rng.uniform(-2, 2, size=20)
    return x, 2 * x + 1 + rng.normal(0, 0.3, size=20)


def _cases():
    """(what, f, theta, calculus's gradient of f at theta, how calculus got it)."""
    x, y = _line_data()

    def line_loss(t):
        return float(np.mean((t[0] * x + t[1] - y) ** 2))

    err = -y  # w * x + b - y at w = b = 0
    yield (say("line"), line_loss,
           np.array([0.0, 0.0]), np.array([np.mean(2 * err * x), np.mean(2 * err)]),
           "[mean(2*err*x), mean(2*err)], err = w*x + b - y")

    def three(t):
        return float((t[0] - 1) ** 2 + 2 * t[0] * t[1] + t[2] ** 3)

    t = np.array([0.5, -1.0, 2.0])
    yield (say("three"), three, t,
           np.array([2 * (t[0] - 1) + 2 * t[1], 2 * t[0], 3 * t[2] ** 2]),
           "[2*(t0 - 1) + 2*t1, 2*t0, 3*t2^2]")


def _show(a) -> str:
    return "[" + ", ".join(f"{v:.4f}" for v in np.ravel(np.asarray(a, dtype=np.float64))) + "]"


def _close(got, want, rtol=RTOL, atol=ATOL) -> bool:
    return got.shape == want.shape and bool(np.allclose(got, want, rtol=rtol, atol=atol))


def check_grad_by_nudging(fn) -> Result:
    """``fn(f, theta)`` must return the partial derivatives of ``f`` at ``theta``, one per entry of
    ``theta``, each estimated by nudging that entry alone, and must leave ``theta`` as it found it."""
    name = name_of(fn)
    for what, f, theta, want, how in _cases():
        given = theta.copy()
        head = (what, say("expected", want=_show(want), how=how))
        try:
            got = fn(f, given)
        except Exception as e:  # the reader's error, next to what was expected
            return not_yet(name, *head, Message("got_error_in", {"error": error_text(e),
                                                                 "where": where(e, source_file(fn))}))
        if got is None:
            return not_yet(name, *head, say("none"))
        try:
            got = np.asarray(got, dtype=np.float64)
        except (TypeError, ValueError):
            return not_yet(name, *head, say("not_numbers", got=repr(got)))
        if got.shape != want.shape:
            return not_yet(name, *head, say("shape", shape=got.shape, want=want.shape))
        moved = given - theta
        if np.any(np.abs(moved) > 1e-9):  # += h then -= h may leave a rounding error, no more
            return not_yet(name, *head, say("moved", got=_show(got), moved=show(moved)))
        if _close(got, want):
            continue
        report = (*head, Message("got_in", {"what": _show(got)}))
        if not np.any(got):
            return not_yet(name, *report, say("zeros"))
        if _close(got, -want):
            return not_yet(name, *report, say("flipped"))
        if np.allclose(got, np.cumsum(want), rtol=RTOL, atol=ATOL):
            return not_yet(name, *report, say("piled_up"))
        nonzero = np.abs(want) > 1e-3
        if nonzero.any():
            ratio = got[nonzero] / want[nonzero]
            if np.allclose(ratio, ratio[0], rtol=1e-2) and 1e-9 < abs(ratio[0]) < 1e-2:
                return not_yet(name, *report, say("not_divided", ratio=float(ratio[0])))
        if _close(got, want, rtol=5e-2, atol=5e-2):
            return not_yet(name, *report, say("close"))
        return not_yet(name, *report)
    return passed(name, say("passed", tol=RTOL))


LESSON = Lesson("first-network", starts={"first_network.py": (
    "grad_by_nudging: a gradient by nudging one weight at a time", "grad_by_nudging：一次轻推一个权重，算出梯度")},
    introduces=(("first_network.py", "grad_by_nudging"),),
    checks=(Check("grad_by_nudging", "gradient",
                  lambda wb: check_grad_by_nudging(wb.get("first_network.py", "grad_by_nudging"))),))
