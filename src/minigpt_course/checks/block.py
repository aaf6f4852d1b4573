"""Checks for the exercises of the lesson ``attention/block``.

``check_block_forward(fn)`` calls a reader's ``fn(block, x)`` with a pre-norm ``Block`` whose weights are
large enough for every part to show in the output (float64), compares the result with ``block(x)``, and
returns a ``Result``: ``"<name>: passed ..."``, or ``"<name>: not yet"`` with the largest difference and,
when the result matches a known mistake (no residual, post-norm, no LayerNorm, ``ln_1`` used twice, the
MLP fed the block's input), which one. An error raised by the reader's code is reported as expected vs got
(``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import Block
from minigpt.tensor import Tensor
from minigpt_course.checks import Check, Lesson, Message, Result, name_of, not_yet, passed, reader_errors, speaker
from minigpt_course.checks.gpt import check_layer

MESSAGES = {
    "expected": ("{name}(block, x) -> x + attn(ln_1(x)), then + mlp(ln_2(...)): (B, T, C)",
                 "{name}(block, x) -> x + attn(ln_1(x))，再 + mlp(ln_2(...))：(B, T, C)"),
    "shape": ("  shape: expected (B, T, C) = {want}, got {got}", "  形状：应该是 (B, T, C) = {want}，得到的是 {got}"),
    "largest": ("  largest |yours - block(x)|: {diff:.3g} (largest |block(x)|: {scale:.3g})",
                "  |yours - block(x)| 最大是 {diff:.3g}（|block(x)| 最大是 {scale:.3g}）"),
    "passed": ("{name}: passed (same as block(x) to within 1e-9)", "{name}：通过（和 block(x) 相差在 1e-9 以内）"),
    # the known mistakes (MISTAKES)
    "no_residual": ("no residual: the block returns mlp(ln_2(attn(ln_1(x)))) without the two 'x +'",
                    "没有残差连接：块返回的是 mlp(ln_2(attn(ln_1(x))))，少了两处 'x +'"),
    "post_norm": ("post-norm: LayerNorm after each sum, ln(x + f(x)), instead of x + f(ln(x))",
                  "后置归一化：每次相加之后才做 LayerNorm，即 ln(x + f(x))，而不是 x + f(ln(x))"),
    "no_norm": ("no LayerNorm: x + attn(x), then x + mlp(x)", "没有 LayerNorm：x + attn(x)，然后 x + mlp(x)"),
    "ln_1_twice": ("ln_1 used before the MLP too: ln_2 is a LayerNorm of its own",
                   "MLP 之前也用了 ln_1：ln_2 是另一个独立的 LayerNorm"),
    "mlp_reads_x": ("the MLP reads the block's input x, not x + attn(ln_1(x))",
                    "MLP 读的是块的输入 x，而不是 x + attn(ln_1(x))"),
}
say = speaker(__name__)

# the key of each known mistake's message -> what it computes
MISTAKES = {
    "no_residual": lambda b, x: b.mlp(b.ln_2(b.attn(b.ln_1(x)))),
    "post_norm": lambda b, x: (lambda h: b.ln_2(h + b.mlp(h)))(b.ln_1(x + b.attn(x))),
    "no_norm": lambda b, x: (lambda h: h + b.mlp(h))(x + b.attn(x)),
    "ln_1_twice": lambda b, x: (lambda h: h + b.mlp(b.ln_1(h)))(x + b.attn(b.ln_1(x))),
    "mlp_reads_x": lambda b, x: x + b.attn(b.ln_1(x)) + b.mlp(b.ln_2(x)),
}


def _block() -> tuple[Block, Tensor]:
    block = Block(GPTConfig(), np.random.default_rng(0)).to(np.float64)
    rng = np.random.default_rng(1)
    block.load_state_dict({name: rng.normal(0.0, 0.3, a.shape) for name, a in block.state_dict().items()})
    return block, Tensor(rng.standard_normal((2, 5, 64)))  # (B, T, C)


@reader_errors("expected")
def check_block_forward(fn, name: str | None = None) -> Result:
    name = name or name_of(fn)
    block, x = _block()
    got = fn(block, x)
    got = np.asarray(got.data if isinstance(got, Tensor) else got, dtype=np.float64)
    want = block(x).data
    if got.shape != want.shape:
        return not_yet(name, say("shape", want=want.shape, got=got.shape))
    diff = float(np.abs(got - want).max())
    if diff < 1e-9:
        return passed(name, say("passed"))
    lines = [say("largest", diff=diff, scale=float(np.abs(want).max()))]
    for mistake, wrong in MISTAKES.items():
        if np.abs(got - wrong(block, x).data).max() < 1e-9:
            lines.append(Message("known_mistake", {"mistake": say(mistake)}))
            break
    return not_yet(name, *lines)


def check_block_class(cls, Tensor) -> Result:
    """``cls(config, rng)(x)`` must equal ``minigpt.gpt.Block`` with the same weights."""
    def mistakes(ours, lib):
        return {f"block.{m}": (lambda wrong=wrong: wrong(ours, lib).data) for m, wrong in MISTAKES.items()}

    return check_layer(cls, Tensor, "Block", Block, "block(x): (B, T, C)", mistakes, "block_passed")


def _block_class(wb):
    return check_block_class(wb.get("gpt.py", "Block"), wb.get("tensor.py", "Tensor"))


LESSON = Lesson("block", introduces=(("gpt.py", "MLP"), ("gpt.py", "Block")), checks=(Check("Block", "structure", _block_class),))
