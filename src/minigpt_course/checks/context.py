"""Checks for the exercises of the lesson ``lm/context``.

``check_concat_window(fn)`` feeds a reader's function a labelled window of embeddings, e of shape
(B, k, d) whose value ``100*b + 10*j + c`` says which sequence b, window position j and channel c it is,
and returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` followed by the first row
slice that holds something else, what was expected there, what the function put there, and, when the
result matches a known mistake, which one. An error raised by the reader's code is reported as expected vs
got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt_course.checks import Check, Lesson, Message, Result, name_of, not_yet, passed, reader_errors, speaker

from minigpt.tensor import Tensor as LibraryTensor

B, K, D = 2, 3, 4  # sequences, window positions, channels: each below 10, so a label reads digit by digit


def _labelled() -> np.ndarray:
    b, j, c = np.ix_(np.arange(B), np.arange(K), np.arange(D))
    return (100 * b + 10 * j + c).astype(np.float64)  # (B, K, D)


MESSAGES = {
    "expected": ("{name}(e): e (B, k, d) -> x (B, k*d), the window's vectors in order",
                 "{name}(e): e (B, k, d) -> x (B, k*d)，窗口里的向量按顺序排"),
    "not_in_e": ("numbers that are not in e", "e 里没有的数"),
    "vector": ("e[{b}, {j}], the vector of window position {j}", "e[{b}, {j}]，窗口第 {j} 个位置的向量"),
    "interleaved": ("  that is e.permute(0, 2, 1) flattened: channel 0 of every position, then channel 1, ...;\n"
                    "  e is already (B, k, d) in order, reshape it as it is",
                    "  这是 e.permute(0, 2, 1) 摊平的结果：先是每个位置的通道 0，再是通道 1……；\n"
                    "  e 本来就是按顺序排好的 (B, k, d)，直接 reshape 就行"),
    "reversed": ("  the window is reversed: position k-1 comes first; keep the positions in order 0, 1, ..., k-1",
                 "  窗口反了：位置 k-1 排在了最前面；要按 0, 1, ..., k-1 的顺序排"),
    "not_tensor": ("  expected a Tensor (the engine must see the op to send gradients back), got {got}",
                   "  期望     一个 Tensor（引擎要看到这个运算，才能把梯度传回去），得到的是 {got}"),
    "e_is": ("  e is (B, k, d) = {shape}", "  e 是 (B, k, d) = {shape}"),
    "shape": ("  shape: expected (B, k*d) = {want}, got {got}", "  形状：应该是 (B, k*d) = {want}，得到的是 {got}"),
    "summed": ("  (B, d) is the window summed or averaged: the order of the k tokens is lost",
               "  (B, d) 是把窗口加起来或取了平均：k 个词元的顺序丢了"),
    "slice": ("  x[{b}, {start}:{stop}]:\n    expected {want} = {want_is}\n    got      {got} = {got_is}",
              "  x[{b}, {start}:{stop}]：\n    期望     {want} = {want_is}\n    得到     {got} = {got_is}"),
    "no_grad": ("  the values are right, but the gradient does not reach e as it should:\n"
                "  build x from e with Tensor ops (reshape), not from e.data with numpy",
                "  数值是对的，可梯度没有传回 e：\n  要用 Tensor 的运算（reshape）从 e 得到 x，不要拿 e.data 用 numpy 算"),
    "passed": ("{name}: passed (e {e} -> x {x}, all {n} numbers in order, gradients back to e)",
               "{name}：通过（e {e} -> x {x}，{n} 个数顺序全对，梯度也传回了 e）"),
}
say = speaker(__name__)


def _describe(v: np.ndarray) -> Message | str:
    v = np.asarray(v, dtype=np.float64)
    if not np.all(v == np.round(v)) or v.min() < 0 or v.max() >= 100 * B:
        return say("not_in_e")
    v = v.astype(np.int64)
    b, j, c = v // 100, v % 100 // 10, v % 10
    if (b == b[0]).all() and (j == j[0]).all() and np.array_equal(c, np.arange(D)):
        return say("vector", b=b[0], j=j[0])
    return ", ".join(f"e[{bi}, {ji}, {ci}]" for bi, ji, ci in zip(b, j, c))


def _show(v: np.ndarray) -> list:
    """Whole numbers as ints ([0, 10, 20, 1]), anything else rounded."""
    return v.astype(np.int64).tolist() if np.all(v == np.round(v)) else np.round(v, 3).tolist()


MISTAKES = {
    "interleaved": lambda e: e.transpose(0, 2, 1).reshape(B, K * D),
    "reversed": lambda e: e[:, ::-1].reshape(B, K * D),
}


@reader_errors("expected")
def check_concat_window(fn, Tensor=LibraryTensor) -> Result:
    """``fn(e)`` must turn e (B, k, d) into x (B, k*d) whose row b is e[b, 0], e[b, 1], ..., e[b, k-1];
    ``Tensor`` is the class e is made of (the reader's, in their workbook)."""
    name = name_of(fn)
    e = Tensor(_labelled(), requires_grad=True)
    x = fn(e)
    if not isinstance(x, Tensor):
        return not_yet(name, say("not_tensor", got=type(x).__name__))
    head = say("e_is", shape=(B, K, D))
    if tuple(x.shape) != (B, K * D):
        hint = [say("summed")] if tuple(x.shape) == (B, D) else []
        return not_yet(name, head, say("shape", want=(B, K * D), got=tuple(x.shape)), *hint)
    want = _labelled().reshape(B, K * D)
    got = np.asarray(x.data, dtype=np.float64)
    for b in range(B):
        for j in range(K):
            s = slice(j * D, (j + 1) * D)
            if not np.array_equal(got[b, s], want[b, s]):
                line = say("slice", b=b, start=s.start, stop=s.stop, want=want[b, s].astype(int).tolist(),
                           want_is=_describe(want[b, s]), got=_show(got[b, s]), got_is=_describe(got[b, s]))
                hints = [say(key) for key, wrong in MISTAKES.items() if np.array_equal(got, wrong(_labelled()))]
                return not_yet(name, head, line, *hints[:1])
    if x.requires_grad:
        (x * Tensor(np.arange(x.numel(), dtype=np.float64).reshape(x.shape))).sum().backward()
    if e.grad is None or not np.array_equal(e.grad, np.arange(B * K * D, dtype=np.float64).reshape(B, K, D)):
        return not_yet(name, say("no_grad"))
    return passed(name, say("passed", e=(B, K, D), x=(B, K * D), n=x.numel()))


LESSON = Lesson("context", introduces=(("nn.py", "LayerNorm"), ("lm.py", "concat_window")), checks=(
    Check("concat_window", "concat", lambda wb: check_concat_window(wb.get("lm.py", "concat_window"), wb.tensor())),))
