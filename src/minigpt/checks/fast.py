"""Checks for the exercises of lesson 19, ``train/fast``.

``check_attention(fn)`` calls a reader's ``fn(q, k, v)``, causal attention written out step by step on
(B, nh, T, hs) tensors, and compares it in float64 with torch's fused ``scaled_dot_product_attention``. It
returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` with the first position that differs,
expected vs got, and the mistake that gives exactly those numbers (no mask, no scale, softmax over the
wrong axis). An error raised by the reader's code is reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import math

import torch
from torch.nn import functional as F

from minigpt.checks import reader_errors, show

B, NH, T, HS = 2, 2, 5, 4


def _known_mistakes(q, k, v) -> dict[str, torch.Tensor]:
    """What the usual wrong versions compute: the same inputs, one step left out or misplaced."""
    scores = q @ k.transpose(-2, -1)  # (B, nh, T, T)
    causal = torch.ones(T, T, dtype=torch.bool).tril()  # (T, T)
    masked = scores.masked_fill(~causal, float("-inf"))
    return {
        "no causal mask: every position also looks at later ones": (scores / math.sqrt(HS)).softmax(-1) @ v,
        "no scale: the scores are not divided by sqrt(hs)": masked.softmax(-1) @ v,
        "softmax over dim -2: each column sums to 1 instead of each row":
            (masked / math.sqrt(HS)).softmax(-2).nan_to_num() @ v,
    }


@reader_errors("fn(q, k, v) -> causal attention, a (B, nh, T, hs) tensor")
def check_attention(fn) -> str:
    name = getattr(fn, "__name__", "your function")
    gen = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(B, NH, T, HS, generator=gen, dtype=torch.float64) for _ in range(3))
    expected = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (B, nh, T, hs)
    got = fn(q.clone(), k.clone(), v.clone())
    if not isinstance(got, torch.Tensor):
        return f"{name}: not yet\n  expected a torch.Tensor of shape {tuple(expected.shape)}, got {type(got).__name__}"
    if tuple(got.shape) != tuple(expected.shape):
        return f"{name}: not yet\n  expected shape (B, nh, T, hs) = {tuple(expected.shape)}, got {tuple(got.shape)}"
    if torch.allclose(got.double(), expected, atol=1e-10):
        return f"{name}: passed (B={B}, nh={NH}, T={T}, hs={HS}, float64: same as scaled_dot_product_attention within 1e-10)"
    bad = (got.double() - expected).abs().amax(dim=(0, 1, 3))  # (T,): the worst difference at each position
    t = int(torch.nonzero(bad > 1e-10)[0])
    where = f"  position {t} (batch 0, head 0): "
    lines = [f"{name}: not yet", f"{where}expected {show(expected[0, 0, t].tolist())}",
             f"{' ' * len(where)}got      {show(got[0, 0, t].double().tolist())}"]
    for mistake, wrong in _known_mistakes(q, k, v).items():
        if torch.allclose(got.double(), wrong, atol=1e-10):
            lines.append(f"  that is exactly {mistake}")
    return "\n".join(lines)
