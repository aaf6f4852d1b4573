"""Checks for the exercises of the lesson ``train/fast``.

``check_attention(fn)`` calls a reader's ``fn(q, k, v)``, causal attention written out step by step on
(B, nh, T, hs) tensors, and compares it in float64 with torch's fused ``scaled_dot_product_attention``. It
returns a ``Result``: ``"<name>: passed ..."``, or ``"<name>: not yet"`` with the first position that differs,
expected vs got, and the mistake that gives exactly those numbers (no mask, no scale, softmax over the
wrong axis). An error raised by the reader's code is reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import math

import torch
from torch.nn import functional as F

from minigpt_course.checks import Result, name_of, not_yet, passed, reader_errors, show, speaker

B, NH, T, HS = 2, 2, 5, 4  # T < 10: "position {t}" has one digit, and "got" lines up under "expected"

MESSAGES = {
    "expected": ("{name}(q, k, v) -> causal attention, a (B, nh, T, hs) tensor",
                 "{name}(q, k, v) -> 因果注意力，一个 (B, nh, T, hs) 的张量"),
    "not_tensor": ("  expected a torch.Tensor of shape {shape}, got {got}",
                   "  期望     形状为 {shape} 的 torch.Tensor，得到的是 {got}"),
    "shape": ("  expected shape (B, nh, T, hs) = {want}, got {got}", "  期望     形状 (B, nh, T, hs) = {want}，得到 {got}"),
    "position": ("  position {t} (batch 0, head 0): expected {want}\n" + " " * 32 + "got      {got}",
                 "  位置 {t}（序列 0，头 0）：\n    期望     {want}\n    得到     {got}"),
    "exactly": ("  that is exactly {mistake}", "  和一个常见错误完全吻合：{mistake}"),
    "no_mask": ("no causal mask: every position also looks at later ones", "没有因果掩码：每个位置也看到了后面的位置"),
    "no_scale": ("no scale: the scores are not divided by sqrt(hs)", "没有缩放：分数没有除以 sqrt(hs)"),
    "wrong_axis": ("softmax over dim -2: each column sums to 1 instead of each row",
                   "沿 dim -2 做了 softmax：成了每一列加起来是 1，而不是每一行"),
    "passed": ("{name}: passed (B={B}, nh={nh}, T={T}, hs={hs}, float64: same as scaled_dot_product_attention within 1e-10)",
               "{name}：通过（B={B}，nh={nh}，T={T}，hs={hs}，float64：和 scaled_dot_product_attention 相差在 1e-10 以内）"),
}
say = speaker(__name__)


def _known_mistakes(q, k, v) -> dict[str, torch.Tensor]:
    """What the usual wrong versions compute (the key of the message that names each): the same inputs, one step
    left out or misplaced."""
    scores = q @ k.transpose(-2, -1)  # (B, nh, T, T)
    causal = torch.ones(T, T, dtype=torch.bool).tril()  # (T, T)
    masked = scores.masked_fill(~causal, float("-inf"))
    return {
        "no_mask": (scores / math.sqrt(HS)).softmax(-1) @ v,
        "no_scale": masked.softmax(-1) @ v,
        "wrong_axis": (masked / math.sqrt(HS)).softmax(-2).nan_to_num() @ v,
    }


@reader_errors("expected")
def check_attention(fn) -> Result:
    name = name_of(fn)
    gen = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(B, NH, T, HS, generator=gen, dtype=torch.float64) for _ in range(3))
    expected = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (B, nh, T, hs)
    got = fn(q.clone(), k.clone(), v.clone())
    if not isinstance(got, torch.Tensor):
        return not_yet(name, say("not_tensor", shape=tuple(expected.shape), got=type(got).__name__))
    if tuple(got.shape) != tuple(expected.shape):
        return not_yet(name, say("shape", want=tuple(expected.shape), got=tuple(got.shape)))
    if torch.allclose(got.double(), expected, atol=1e-10):
        return passed(name, say("passed", B=B, nh=NH, T=T, hs=HS))
    bad = (got.double() - expected).abs().amax(dim=(0, 1, 3))  # (T,): the worst difference at each position
    t = int(torch.nonzero(bad > 1e-10)[0])
    lines = [say("position", t=t, want=show(expected[0, 0, t].tolist()), got=show(got[0, 0, t].double().tolist()))]
    for mistake, wrong in _known_mistakes(q, k, v).items():
        if torch.allclose(got.double(), wrong, atol=1e-10):
            lines.append(say("exactly", mistake=say(mistake)))
    return not_yet(name, *lines)
