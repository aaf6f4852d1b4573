"""Checks for the exercise of lesson 13, ``attention/block``.

``check_block_forward(fn)`` calls a reader's ``fn(block, x)`` with a pre-norm ``Block`` whose weights are
large enough for every part to show in the output (float64), compares the result with ``block(x)``, and
returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` with the largest difference and,
when the result matches a known mistake (no residual, post-norm, no LayerNorm, ``ln_1`` used twice, the
MLP fed the block's input), which one. An error raised by the reader's code is reported as expected vs got
(``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt.checks import reader_errors

from minigpt.config import GPTConfig
from minigpt.gpt import Block
from minigpt.tensor import Tensor

MISTAKES = {
    "no residual: the block returns mlp(ln_2(attn(ln_1(x)))) without the two 'x +'":
        lambda b, x: b.mlp(b.ln_2(b.attn(b.ln_1(x)))),
    "post-norm: LayerNorm after each sum, ln(x + f(x)), instead of x + f(ln(x))":
        lambda b, x: (lambda h: b.ln_2(h + b.mlp(h)))(b.ln_1(x + b.attn(x))),
    "no LayerNorm: x + attn(x), then x + mlp(x)":
        lambda b, x: (lambda h: h + b.mlp(h))(x + b.attn(x)),
    "ln_1 used before the MLP too: ln_2 is a LayerNorm of its own":
        lambda b, x: (lambda h: h + b.mlp(b.ln_1(h)))(x + b.attn(b.ln_1(x))),
    "the MLP reads the block's input x, not x + attn(ln_1(x))":
        lambda b, x: x + b.attn(b.ln_1(x)) + b.mlp(b.ln_2(x)),
}


def _block() -> tuple[Block, Tensor]:
    block = Block(GPTConfig(), np.random.default_rng(0)).to(np.float64)
    rng = np.random.default_rng(1)
    block.load_state_dict({name: rng.normal(0.0, 0.3, a.shape) for name, a in block.state_dict().items()})
    return block, Tensor(rng.standard_normal((2, 5, 64)))  # (B, T, C)


@reader_errors('fn(block, x) -> x + attn(ln_1(x)), then + mlp(ln_2(...)): (B, T, C)')
def check_block_forward(fn, name: str | None = None) -> str:
    name = name or getattr(fn, "__name__", "your function")
    block, x = _block()
    got = fn(block, x)
    got = np.asarray(got.data if isinstance(got, Tensor) else got, dtype=np.float64)
    want = block(x).data
    if got.shape != want.shape:
        return f"{name}: not yet\n  shape: expected (B, T, C) = {want.shape}, got {got.shape}"
    diff = float(np.abs(got - want).max())
    if diff < 1e-9:
        return f"{name}: passed (same as block(x) to within 1e-9)"
    lines = [f"{name}: not yet", f"  largest |yours - block(x)|: {diff:.3g} (largest |block(x)|: {np.abs(want).max():.3g})"]
    for mistake, wrong in MISTAKES.items():
        if np.abs(got - wrong(block, x).data).max() < 1e-9:
            lines.append(f"  it matches a known mistake: {mistake}")
            break
    return "\n".join(lines)
