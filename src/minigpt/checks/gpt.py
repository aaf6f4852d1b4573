"""Checks of the GPT the reader writes in their workbook's ``gpt.py`` (lessons 12-14), against the library's.

Each check builds the reader's class and the library's (``minigpt.gpt``) from the same small config, gives
both the same weights by name, runs both on the same input in the reader's own ``Tensor`` and returns one
report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` with what was expected, what came back and, when
the numbers match a known mistake (no residual, post-norm, no position embedding...), which one. An
exception raised by the reader's code is reported as what was expected next to the error and the line of
the reader's file it came from.

- ``check_attention_class(MultiHeadAttention, Tensor)``: lesson 12, ``attn(x)`` for x (B, T, C).
- ``check_block_class(Block, Tensor)``: lesson 13, ``block(x)``.
- ``check_gpt_class(GPT, Tensor)``: lesson 14, ``model(idx, targets) -> (logits, loss)``.
- ``check_gpt_trains(GPT, AdamW)``: lesson 14, a few optimizer steps on one batch lower the loss.
"""

from __future__ import annotations

import traceback

import numpy as np

import minigpt.gpt as library
from minigpt.checks import show
from minigpt.config import GPTConfig
from minigpt.tensor import Tensor as LibraryTensor

CONFIG = GPTConfig(vocab_size=11, block_size=8, n_layer=2, n_head=4, n_embd=16)
B, T = 2, 6
RTOL = 1e-4  # float32 on both sides: a different but correct order of operations stays well inside this


def _where(error: BaseException, prefer: str = "gpt.py") -> str:
    """`` (line 12 of gpt.py: y = att @ v)``: the deepest line of the file being checked (``prefer``), else the
    deepest outside minigpt that is not a ``raise``: the reader's line that went wrong, rather than the
    check in their tensor.py that caught it."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "/minigpt/" not in f.filename.replace("\\", "/")]
    if not frames:
        return ""
    mine = [f for f in frames if f.filename.replace("\\", "/").endswith("/" + prefer)]  # the file being checked
    calls = [f for f in frames if not (f.line or "").startswith("raise")]  # the line that called, not a check
    f = (mine or calls or frames)[-1]
    return f" (line {f.lineno} of {f.filename.replace(chr(92), '/').rsplit('/', 1)[-1]}: {f.line})"


def raised(name: str, expected: str, error: BaseException) -> str:
    """The report for an exception of the reader's code: what was expected, and the error where it arose."""
    return (f"{name}: not yet\n  expected {expected}\n"
            f"  got      {type(error).__name__}: {' '.join(str(error).split())}{_where(error)}")


class _Failed(Exception):
    """A report, ready: the reader's code did something the check cannot go on from."""


def _call(name: str, expected: str, fn, *args):
    try:
        return fn(*args)
    except Exception as e:  # the reader's error, beside what was expected
        raise _Failed(raised(name, expected, e)) from None


def _same_weights(name: str, theirs, ours, seed: int = 1) -> None:
    """Give the reader's module the library module's parameter names' weights (random, std 0.3)."""
    what = f"{type(theirs).__name__}.named_parameters()"
    mine = dict(_call(name, "(name, parameter) pairs from " + what, lambda: list(theirs.named_parameters())))
    lib = dict(ours.named_parameters())
    missing, extra = [n for n in lib if n not in mine], [n for n in mine if n not in lib]
    if missing or extra:
        def few(names):
            return str(names[:6])[:-1] + (f", ... {len(names) - 6} more]" if len(names) > 6 else "]")

        lines = [f"{name}: not yet", f"  parameter names: expected the lesson's {len(lib)} names"]
        if missing:
            lines.append(f"  missing  {few(missing)}")
        if extra:
            lines.append(f"  extra    {few(extra)}")
            if "lm_head.weight" in extra:
                lines.append("  the output head reuses wte.weight (tied): logits = x @ wte.weight.T, no lm_head")
        lines.append("  use the lesson's names, so that the library's weights load into your model")
        raise _Failed("\n".join(lines))
    rng = np.random.default_rng(seed)
    for n, p in lib.items():
        got = tuple(np.shape(mine[n].data))
        if got != tuple(p.shape):
            raise _Failed(f"{name}: not yet\n  {n}: expected shape {tuple(p.shape)}, got {got}")
        w = rng.normal(0.0, 0.3, p.shape).astype(np.float32)
        p.data[...] = w
        mine[n].data[...] = w


def _array(name: str, out, expected: str) -> np.ndarray:
    data = getattr(out, "data", out)
    try:
        return np.asarray(data, dtype=np.float64)
    except (TypeError, ValueError):
        raise _Failed(f"{name}: not yet\n  expected {expected}, got {type(out).__name__}") from None


def _compare(name: str, got: np.ndarray, want: np.ndarray, what: str, mistakes: dict) -> str | None:
    """None when ``got`` matches ``want``; else a report naming the largest difference and a known mistake."""
    if got.shape != want.shape:
        return f"{name}: not yet\n  {what}: expected shape {want.shape}, got {got.shape}"
    scale = max(1.0, float(np.abs(want).max()))
    diff = float(np.abs(got - want).max())
    if diff <= RTOL * scale:
        return None
    row = tuple(int(i) for i in np.unravel_index(np.abs(got - want).argmax(), want.shape)[:-1])
    lines = [f"{name}: not yet", f"  {what}", f"  at {list(row)}, the largest difference ({diff:.3g}), first 6 numbers:",
             f"    expected {show(want[row][:6], decimals=4)}", f"    got      {show(got[row][:6], decimals=4)}"]
    for mistake, wrong in mistakes.items():
        wrong = np.asarray(wrong(), dtype=np.float64)
        if wrong.shape == got.shape and float(np.abs(got - wrong).max()) <= RTOL * scale:
            lines.append(f"  it matches a known mistake: {mistake}")
            break
    return "\n".join(lines)


def _input(Tensor, seed: int = 2):
    x = np.random.default_rng(seed).standard_normal((B, T, CONFIG.n_embd)).astype(np.float32)  # (B, T, C)
    return x, Tensor(x), LibraryTensor(x)


def _run(name: str, fn) -> str:
    try:
        return fn()
    except _Failed as f:
        return str(f)


def check_attention_class(cls, Tensor) -> str:
    """``cls(config, rng)(x)`` must equal ``minigpt.gpt.MultiHeadAttention`` with the same weights, x (B, T, C)."""
    name = getattr(cls, "__name__", "MultiHeadAttention")

    def run():
        ours = library.MultiHeadAttention(CONFIG, np.random.default_rng(0))
        theirs = _call(name, f"{name}(config, rng) to build", cls, CONFIG, np.random.default_rng(0))
        _same_weights(name, theirs, ours)
        x, mine, lib = _input(Tensor)
        got = _array(name, _call(name, "attn(x): (B, T, C)", theirs, mine), "a Tensor (B, T, C)")
        want = ours(lib).data

        def unmasked():
            saved = library.causal_mask
            library.causal_mask = lambda size: np.zeros((size, size), dtype=bool)
            try:
                return ours(lib).data
            finally:
                library.causal_mask = saved

        mistakes = {"no causal mask: every token also sees the later ones": unmasked}
        return _compare(name, got, want, f"output (B, T, C) = {(B, T, CONFIG.n_embd)}", mistakes) or (
            f"{name}: passed (output {got.shape} as the lesson's, to within {RTOL:g})")

    return _run(name, run)


def check_block_class(cls, Tensor) -> str:
    """``cls(config, rng)(x)`` must equal ``minigpt.gpt.Block`` with the same weights."""
    from minigpt.checks.block import MISTAKES

    name = getattr(cls, "__name__", "Block")

    def run():
        ours = library.Block(CONFIG, np.random.default_rng(0))
        theirs = _call(name, f"{name}(config, rng) to build", cls, CONFIG, np.random.default_rng(0))
        _same_weights(name, theirs, ours)
        x, mine, lib = _input(Tensor)
        got = _array(name, _call(name, "block(x): (B, T, C)", theirs, mine), "a Tensor (B, T, C)")
        want = ours(lib).data
        mistakes = {m: (lambda wrong=wrong: wrong(ours, lib).data) for m, wrong in MISTAKES.items()}
        return _compare(name, got, want, f"output (B, T, C) = {(B, T, CONFIG.n_embd)}", mistakes) or (
            f"{name}: passed (block(x) {got.shape} as the lesson's, to within {RTOL:g})")

    return _run(name, run)


def _batch() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    ids = rng.integers(0, CONFIG.vocab_size, size=(B, T + 1))
    return ids[:, :-1], ids[:, 1:]  # (B, T) each


def check_gpt_class(cls, Tensor) -> str:
    """``cls(config, seed=0)(idx, targets)`` must give the logits (B, T, V) and mean cross-entropy of
    ``minigpt.gpt.GPT`` with the same weights."""
    name = getattr(cls, "__name__", "GPT")

    def run():
        ours = library.GPT(CONFIG, seed=0)
        theirs = _call(name, f"{name}(config) to build", cls, CONFIG)
        _same_weights(name, theirs, ours)
        idx, targets = _batch()
        out = _call(name, "model(idx, targets) -> (logits, loss)", theirs, idx, targets)
        if not (isinstance(out, tuple) and len(out) == 2):
            return f"{name}: not yet\n  model(idx, targets): expected a pair (logits, loss), got {type(out).__name__}"
        logits = _array(name, out[0], "logits, a Tensor (B, T, V)")
        want, loss = ours(idx, targets)

        def forward(positions=True, final_norm=True):
            x = ours.wte(idx) + ours.wpe(np.arange(T)) if positions else ours.wte(idx)
            for block in ours.blocks:
                x = block(x)
            x = ours.ln_f(x) if final_norm else x
            return (x @ ours.wte.weight.T).data

        mistakes = {"no position embedding: x = wte(idx) alone, so every position looks the same to the blocks":
                        lambda: forward(positions=False),
                    "no final LayerNorm: ln_f(x) comes before the output head": lambda: forward(final_norm=False)}
        report = _compare(name, logits, want.data, f"logits (B, T, V) = {(B, T, CONFIG.vocab_size)}", mistakes)
        if report:
            return report
        got_loss = float(_array(name, out[1], "loss, a Tensor holding one number").sum())
        want_loss = float(loss.data)
        if not np.isclose(got_loss, want_loss, rtol=RTOL):
            hint = ""
            if np.isclose(got_loss, want_loss * B * T, rtol=RTOL):
                hint = f"\n  that is the sum over the B*T = {B * T} tokens: take the mean"
            return (f"{name}: not yet\n  loss (mean cross-entropy of the logits against targets):\n"
                    f"    expected {want_loss:.4f}\n    got      {got_loss:.4f}{hint}")
        return (f"{name}: passed (logits {logits.shape} and loss {want_loss:.4f} as the lesson's GPT, "
                f"to within {RTOL:g})")

    return _run(name, run)


STEPS, LR = 20, 1e-2


def check_gpt_trains(cls, AdamW) -> str:
    """``STEPS`` steps of ``AdamW(model.parameters(), lr=LR)`` on one batch must lower the loss by at least
    a third, and backward must reach every parameter."""
    name = getattr(cls, "__name__", "GPT") + " trains"

    def run():
        model = _call(name, f"{name}(config) to build", cls, CONFIG)
        idx, targets = _batch()
        params = _call(name, "model.parameters()", lambda: list(model.parameters()))
        opt = _call(name, f"{getattr(AdamW, '__name__', 'AdamW')}(model.parameters(), lr={LR}, weight_decay=0)",
                    lambda: AdamW(params, lr=LR, weight_decay=0.0))
        losses = []
        for step in range(STEPS):
            _, loss = _call(name, "model(idx, targets) -> (logits, loss)", model, idx, targets)
            _call(name, "loss.backward()", loss.backward)
            if step == 0:
                named = _call(name, "model.named_parameters()", lambda: list(model.named_parameters()))
                dead = [n for n, p in named if p.grad is None or not np.any(p.grad)]
                if dead:
                    return (f"{name}: not yet\n  after loss.backward(), these parameters have no gradient "
                            f"(None or all zeros): {dead[:4]}{' ...' if len(dead) > 4 else ''}\n"
                            f"  build every step from Tensor ops, so that backward reaches them")
            _call(name, "opt.step()", opt.step)
            _call(name, "opt.zero_grad()", opt.zero_grad)
            losses.append(float(np.asarray(loss.data).sum()))
        first, last = losses[0], losses[-1]
        if not last < first * 2 / 3:
            return (f"{name}: not yet\n  {STEPS} AdamW steps (lr {LR}) on one batch:\n"
                    f"    expected the loss to fall below 2/3 of {first:.4f}\n    got      {last:.4f}")
        return f"{name}: passed ({STEPS} AdamW steps on one batch: loss {first:.4f} -> {last:.4f})"

    return _run(name, run)
