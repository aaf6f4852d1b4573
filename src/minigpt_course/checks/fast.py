"""The fast lesson's exercise (``train/fast``): the reader's attention written by hand, graded against torch's fused
kernel.

``check_attention(fn)`` calls a reader's ``fn(q, k, v)``, causal attention written out step by step on
(B, nh, T, hs) tensors, on random float64 inputs of four shapes (T from 1 to 9, hs from 2 to 16, so that a size
written into the code shows), and compares it with torch's fused ``scaled_dot_product_attention(q, k, v,
is_causal=True)``. It returns a ``Result``: ``"<name>: passed ..."``, or ``"<name>: not yet"`` with the shape and
the first position that differs, expected vs got, and the mistake that gives exactly those numbers: no mask, no
scale, a scale of hs instead of sqrt(hs), the softmax over the wrong axis, the masked scores set to 0 instead of
-inf, the mask flipped (the later positions kept), the mask applied after the softmax. An error raised by the
reader's code is reported as expected vs got, with the shape it was called on and the reader's line.
"""

from __future__ import annotations

import math

import torch
from torch.nn import functional as F

from minigpt_course.checks import (Check, Lesson, Message, Result, error_text, name_of, not_yet, passed, show,
                                  source_file, speaker, where)

SHAPES = ((2, 2, 5, 4), (1, 3, 7, 8), (3, 1, 1, 2), (2, 4, 9, 16))  # (B, nh, T, hs); T < 10: one-digit positions

MESSAGES = {
    "expected": ("{name}(q, k, v) -> causal attention, a (B, nh, T, hs) tensor",
                 "{name}(q, k, v) -> 因果注意力，一个 (B, nh, T, hs) 的张量"),
    "case": ("  B={B}, nh={nh}, T={T}, hs={hs}:", "  B={B}，nh={nh}，T={T}，hs={hs}："),
    "not_tensor": ("  expected a torch.Tensor of shape {shape}, got {got}",
                   "  期望     形状为 {shape} 的 torch.Tensor，得到的是 {got}"),
    "shape": ("  expected shape (B, nh, T, hs) = {want}, got {got}", "  期望     形状 (B, nh, T, hs) = {want}，得到 {got}"),
    "position": ("  B={B}, nh={nh}, T={T}, hs={hs}: position {t} (batch {b}, head {h})\n"
                 "    expected {want}\n    got      {got}",
                 "  B={B}，nh={nh}，T={T}，hs={hs}：位置 {t}（序列 {b}，头 {h}）\n"
                 "    期望     {want}\n    得到     {got}"),
    "exactly": ("  that is exactly {mistake}", "  正好是一个常见错误：{mistake}"),
    "no_mask": ("no causal mask: every position also looks at later ones", "没有因果掩码，每个位置也看到了后面的位置"),
    "no_scale": ("no scale: the scores are not divided by sqrt(hs)", "没有缩放，分数没有除以 sqrt(hs)"),
    "scale_hs": ("the scores divided by hs: divide by sqrt(hs)", "分数除的是 hs，应该除以 sqrt(hs)"),
    "wrong_axis": ("softmax over dim -2: each column sums to 1 instead of each row",
                   "沿 dim -2 做了 softmax，成了每一列加起来是 1，而不是每一行"),
    "mask_zero": ("the later positions' scores set to 0, not -inf: exp(0) = 1 still gives them weight",
                  "后面位置的分数填的是 0 而不是 -inf：exp(0) = 1，它们照样分到权重"),
    "flipped": ("the mask flipped: each position looks at itself and the later ones (tril keeps j <= i)",
                "掩码反了，每个位置看的是自己和后面的位置（tril 保留的是 j <= i）"),
    "after_softmax": ("the mask applied after the softmax: each row no longer sums to 1; mask the scores, then softmax",
                      "掩码放在了 softmax 之后，每一行加起来不再是 1；要先遮住分数，再做 softmax"),
    "passed": ("{name}: passed ({n} shapes, T from {lo} to {hi}, float64: same as scaled_dot_product_attention within 1e-10)",
               "{name}：通过（{n} 种形状，T 从 {lo} 到 {hi}，float64：和 scaled_dot_product_attention 相差在 1e-10 以内）"),
}
say = speaker(__name__)


def _inputs(shape: tuple[int, int, int, int]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(0)
    return tuple(torch.randn(*shape, generator=gen, dtype=torch.float64) for _ in range(3))


def _known_mistakes(q, k, v) -> dict[str, torch.Tensor]:
    """What the usual wrong versions compute (the key of the message that names each): the same inputs, one step
    left out or misplaced."""
    T, hs = q.shape[-2:]
    scores = q @ k.transpose(-2, -1)  # (B, nh, T, T)
    causal = torch.ones(T, T, dtype=torch.bool).tril()  # (T, T): True where position i may look at j
    scaled = scores / math.sqrt(hs)
    return {
        "no_mask": scaled.softmax(-1) @ v,
        "no_scale": scores.masked_fill(~causal, float("-inf")).softmax(-1) @ v,
        "scale_hs": (scores / hs).masked_fill(~causal, float("-inf")).softmax(-1) @ v,
        "wrong_axis": scaled.masked_fill(~causal, float("-inf")).softmax(-2).nan_to_num() @ v,
        "mask_zero": scaled.masked_fill(~causal, 0.0).softmax(-1) @ v,
        "flipped": scaled.masked_fill(~causal.T, float("-inf")).softmax(-1) @ v,
        "after_softmax": (scaled.softmax(-1) * causal) @ v,
    }


def check_attention(fn) -> Result:
    """``fn(q, k, v)`` on (B, nh, T, hs) float64 tensors of four shapes must equal torch's fused causal attention.

    Not yet: the shape and first position that differ, expected vs got, and the mistake that gives exactly that;
    or the error the reader's code raised, on which shape, at which of their lines."""
    name = name_of(fn)
    for shape in SHAPES:
        B, nh, T, hs = shape
        q, k, v = _inputs(shape)
        expected = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (B, nh, T, hs)
        try:
            got = fn(q.clone(), k.clone(), v.clone())
        except Exception as e:  # the reader's error, beside what was expected
            return not_yet(name, say("case", B=B, nh=nh, T=T, hs=hs), Message("expected", {"what": say("expected")}),
                           Message("got_error", {"error": error_text(e), "where": where(e, source_file(fn))}))
        if not isinstance(got, torch.Tensor):
            return not_yet(name, say("case", B=B, nh=nh, T=T, hs=hs),
                           say("not_tensor", shape=tuple(expected.shape), got=type(got).__name__))
        if tuple(got.shape) != tuple(expected.shape):
            return not_yet(name, say("case", B=B, nh=nh, T=T, hs=hs),
                           say("shape", want=tuple(expected.shape), got=tuple(got.shape)))
        got = got.detach().double()
        wrong = ~torch.isclose(got, expected, rtol=0, atol=1e-10)  # (B, nh, T, hs); a nan is wrong too
        if not wrong.any():
            continue
        t = int(torch.nonzero(wrong.any(dim=(0, 1, 3)))[0])  # the first position wrong in any sequence or head
        b, h = (int(i) for i in torch.nonzero(wrong[:, :, t].any(dim=-1))[0])  # the first sequence and head there
        lines = [say("position", B=B, nh=nh, T=T, hs=hs, t=t, b=b, h=h, want=show(expected[b, h, t].tolist()),
                     got=show(got[b, h, t].tolist()))]
        for mistake, value in _known_mistakes(q, k, v).items():
            if torch.allclose(got, value, rtol=0, atol=1e-10):
                lines.append(say("exactly", mistake=say(mistake)))
                break
        return not_yet(name, *lines)
    sizes = [T for _, _, T, _ in SHAPES]
    return passed(name, say("passed", n=len(SHAPES), lo=min(sizes), hi=max(sizes)))


LESSON = Lesson("fast", introduces=(("gpt.py", "manual_attention"),), checks=(
    Check("manual_attention", "fused-attention",
          lambda wb: check_attention(wb.get("gpt.py", "manual_attention"))),))
