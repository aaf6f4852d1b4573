"""Checks for the exercises of the lesson ``attention/self-attention``.

``check_attention(fn)`` calls a reader's ``fn(q, k, v)`` on small Tensors and returns one report:
``"<name>: passed ..."``, or ``"<name>: not yet"`` followed by what was expected, what the function gave
and, when the numbers match a known mistake (no scaling, dividing by d, softmax over the wrong dimension,
the weights returned instead of the weighted sum), which one. An error raised by the reader's code is
reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt_course.checks import Check, Lesson, Message, Result, name_of, not_yet, passed, reader_errors, speaker

from minigpt.tensor import Tensor as LibraryTensor

B, T, D, DV = 2, 5, 8, 3


def _inputs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """q, k (B, T, D) and v (B, T, DV) in float64, large enough that the weights are far from uniform."""
    rng = np.random.default_rng(10)
    return rng.normal(0, 1.5, (B, T, D)), rng.normal(0, 1.5, (B, T, D)), rng.normal(0, 1.0, (B, T, DV))


def _softmax(s: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _expected(q, k, v, divide_by: float | None = None, axis: int = -1, aggregate: bool = True) -> np.ndarray:
    s = q @ np.swapaxes(k, -1, -2) / (np.sqrt(q.shape[-1]) if divide_by is None else divide_by)  # (B, T, T)
    w = _softmax(s, axis)
    return w @ v if aggregate else w


MESSAGES = {
    "expected": ("{name}(q, k, v) -> softmax(q @ k^T / sqrt(d), dim=-1) @ v, (B, T, dv)",
                 "{name}(q, k, v) -> softmax(q @ k^T / sqrt(d), dim=-1) @ v，(B, T, dv)"),
    "v": ("  that is v unchanged: compare q with k, scale, normalise, then take the weighted sum of v",
          "  这是原封不动的 v：要拿 q 和 k 比较、缩放、归一化，再对 v 加权求和"),
    "no_scale": ("  that is softmax(q @ k^T) @ v without the scale: multiply the scores by 1/sqrt(d) first",
                 "  这是没有缩放的 softmax(q @ k^T) @ v：先把分数乘上 1/sqrt(d)"),
    "by_d": ("  that divides the scores by d = {d}; divide by sqrt(d) = {sqrt_d:.3f}",
             "  这是把分数除以了 d = {d}；应该除以 sqrt(d) = {sqrt_d:.3f}"),
    "columns": ("  that is the softmax over dim=-2 (each column sums to 1); each row must: softmax(dim=-1)",
                "  这是沿 dim=-2 做的 softmax（每一列加起来是 1）；应该是每一行加起来是 1：softmax(dim=-1)"),
    "weights": ("  those are the attention weights (B, T, T); the last step multiplies them by v",
                "  这是注意力权重 (B, T, T)；最后一步还要把它乘上 v"),
    "shapes": ("  q, k (B, T, d) = {qk}, v (B, T, dv) = {v}", "  q, k (B, T, d) = {qk}，v (B, T, dv) = {v}"),
    "shape": ("  shape: expected (B, T, dv) = {want}, got {got}", "  形状：应该是 (B, T, dv) = {want}，得到的是 {got}"),
    "row": ("  output[{b}, {t}] (sequence {b}, position {t}):\n    expected {want}\n    got      {got}",
            "  output[{b}, {t}]（序列 {b}，位置 {t}）：\n    期望     {want}\n    得到     {got}"),
    "passed": ("{name}: passed (output {shape}, every number within 1e-9 of softmax(q @ k^T / sqrt(d)) @ v)",
               "{name}：通过（输出 {shape}，每个数和 softmax(q @ k^T / sqrt(d)) @ v 都相差在 1e-9 以内）"),
}
say = speaker(__name__)


def _mistakes(q, k, v) -> list[tuple[Message, np.ndarray]]:
    return [
        (say("v"), v),
        (say("no_scale"), _expected(q, k, v, divide_by=1.0)),
        (say("by_d", d=D, sqrt_d=np.sqrt(D)), _expected(q, k, v, divide_by=float(D))),
        (say("columns"), _expected(q, k, v, axis=-2)),
        (say("weights"), _expected(q, k, v, aggregate=False)),
    ]


def _show(a: np.ndarray) -> list:
    return np.round(np.asarray(a, dtype=np.float64), 3).tolist()


@reader_errors("expected")
def check_attention(fn, Tensor=LibraryTensor) -> Result:
    """``fn(q, k, v)``: q, k (B, T, d), v (B, T, dv) Tensors -> softmax(q @ k^T / sqrt(d), dim=-1) @ v;
    ``Tensor`` is the class q, k, v are made of (the reader's, in their workbook)."""
    name = name_of(fn)
    q, k, v = _inputs()
    got = fn(Tensor(q), Tensor(k), Tensor(v))
    got = np.asarray(got.data if isinstance(got, Tensor) else got, dtype=np.float64)
    want = _expected(q, k, v)
    head = say("shapes", qk=q.shape, v=v.shape)
    if got.shape != want.shape:
        weights = _expected(q, k, v, aggregate=False)
        hint = [say("weights")] if got.shape == weights.shape and np.allclose(got, weights, atol=1e-9) else []
        return not_yet(name, head, say("shape", want=want.shape, got=got.shape), *hint)
    if np.allclose(got, want, rtol=1e-9, atol=1e-9):
        return passed(name, say("passed", shape=got.shape))
    b, t = np.unravel_index(np.abs(got - want).max(-1).argmax(), want.shape[:2])
    line = say("row", b=b, t=t, want=_show(want[b, t]), got=_show(got[b, t]))
    hints = [hint for hint, wrong in _mistakes(q, k, v) if wrong.shape == got.shape and np.allclose(got, wrong, atol=1e-9)]
    return not_yet(name, head, line, *hints[:1])


LESSON = Lesson("self-attention", starts={"gpt.py": (
    "attention, causal_mask, split_heads, MultiHeadAttention, Block, GPT, move_weights, cached_keys_values, "
    "manual_attention (self-attention to fast; GPTConfig may come from minigpt.config)",
    "attention、causal_mask、split_heads、MultiHeadAttention、Block、GPT、move_weights、cached_keys_values、"
    "manual_attention（self-attention 到 fast；GPTConfig 可以从 minigpt.config 导入）")},
    introduces=(("gpt.py", "attention"),),
    checks=(Check("attention", "structure", lambda wb: check_attention(wb.get("gpt.py", "attention"), wb.tensor())),))
