"""Checks for lesson 18 (``train/kv-cache``): the reader's ``cached_keys_values``.

``check_cached_keys_values(fn)`` calls ``fn(kv_cache, k, v, start)`` as ``MultiHeadAttention.forward`` does
during generation (a prompt of 3 tokens, then one token at a time) with keys and values whose every number
says which position, head and channel it belongs to; then it puts ``fn`` inside the numpy GPT and compares
every position's logits with the forward pass without a cache. It returns one report: ``"<name>: passed
..."``, or ``"<name>: not yet"`` with the first position that differs, what should be there and what is.
An error raised by the reader's code is reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt.checks import reader_errors

import minigpt.gpt
from minigpt.config import GPTConfig
from minigpt.tensor import Tensor, no_grad

B, NH, BLOCK, HS = 2, 2, 8, 3
CALLS = ((0, 3), (3, 1), (4, 1))  # (start, T): the prompt, then one new token per call


def _labelled(start: int, T: int, sign: int) -> np.ndarray:
    """(B, nh, T, hs): the keys (sign 1) or values (sign -1) of positions start .. start+T-1, each number
    sign * (1000 + 100*b + 10*position + 4*h + c + 1), so that it names its sequence, position, head, channel."""
    b = np.arange(B)[:, None, None, None]
    h = np.arange(NH)[None, :, None, None]
    p = np.arange(start, start + T)[None, None, :, None]
    c = np.arange(HS)[None, None, None, :]
    return (sign * (1000 + 100 * b + 10 * p + 4 * h + c + 1)).astype(np.float32)


def _what(row: np.ndarray, b: int) -> str:
    """What a (nh, hs) slice of sequence b holds: 'the key of position 2', 'zeros', ..."""
    if not row.any():
        return "zeros (a slot nobody wrote)"
    for sign, kind in ((1, "key"), (-1, "value")):
        for p in range(BLOCK):
            if np.array_equal(row, _labelled(p, 1, sign)[b, :, 0]):
                return f"the {kind} of position {p}"
    return "numbers that are no position's key or value"


def _report(name: str, start: int, T: int, lines: list[str]) -> str:
    return f"{name}: not yet\n  call with start={start}, T={T} new tokens:\n" + "\n".join(f"    {x}" for x in lines)


def _check_calls(fn, name: str) -> str | None:
    k_buf = np.zeros((B, NH, BLOCK, HS), dtype=np.float32)
    v_buf = np.zeros((B, NH, BLOCK, HS), dtype=np.float32)
    for start, T in CALLS:
        out = fn((k_buf, v_buf), Tensor(_labelled(start, T, 1)), Tensor(_labelled(start, T, -1)), start)
        if not (isinstance(out, tuple) and len(out) == 2 and all(isinstance(t, Tensor) for t in out)):
            return _report(name, start, T, [f"expected a tuple of two Tensors (k, v), got {type(out).__name__}"])
        want = (B, NH, start + T, HS)
        for t, kind, sign in ((out[0], "keys", 1), (out[1], "values", -1)):
            got = tuple(t.shape)
            if got != want:
                why = {(B, NH, T, HS): "only this call's new tokens: attention needs every stored position",
                       (B, NH, BLOCK, HS): "the whole buffer, slots not yet written included: slice up to start+T"}
                return _report(name, start, T, [f"{kind}: expected (B, nh, start+T, hs) = {want}, got {got}",
                                                why.get(got, "")])
            for p in range(start + T):
                expected = _labelled(p, 1, sign)[:, :, 0]  # (B, nh, hs)
                if not np.array_equal(t.data[:, :, p], expected):
                    kind1 = kind[:-1]
                    lines = [f"{kind}[0, :, {p}]: expected the {kind1} of position {p}, got {_what(t.data[0, :, p], 0)}"]
                    if p < start:
                        lines.append("earlier calls' tokens must still be in the buffers: write into "
                                     "kv_cache's arrays in place, at positions start .. start+T-1")
                    return _report(name, start, T, lines)
    return None


@reader_errors('fn(kv_cache, k, v, start) -> the keys and values of positions 0 .. start+T-1')
def check_cached_keys_values(fn) -> str:
    """``fn(kv_cache, k, v, start)`` must store k, v (B, nh, T, hs) at positions start .. start+T-1 of the
    buffers ``kv_cache = (k_buf, v_buf)``, each (B, nh, block_size, hs), and return every stored position's
    keys and values as Tensors, (B, nh, start+T, hs), as ``minigpt.gpt.cached_keys_values`` does."""
    name = getattr(fn, "__name__", "your function")
    problem = _check_calls(fn, name)
    if problem:
        return problem
    model = minigpt.gpt.GPT(GPTConfig(vocab_size=69), seed=0)
    idx = np.array([[20, 46, 53, 58, 1, 39, 43, 52, 10, 0]])  # (1, 10)
    library = minigpt.gpt.cached_keys_values
    with no_grad():
        full = model(idx)[0].data  # (1, 10, V): no cache
        cache = model.new_kv_cache(1)
        try:
            minigpt.gpt.cached_keys_values = fn
            rows = [model(idx[:, :3], kv_cache=cache)[0].data]  # the prompt, positions 0..2
            rows += [model(idx[:, t : t + 1], kv_cache=cache)[0].data for t in range(3, 10)]  # one at a time
        finally:
            minigpt.gpt.cached_keys_values = library
    cached = np.concatenate(rows, axis=1)  # (1, 10, V)
    for t in range(10):
        diff = float(np.abs(cached[0, t] - full[0, t]).max())
        if not diff < 1e-5:
            return (f"{name}: not yet\n  inside the GPT (a prompt of 3, then 7 tokens one at a time): the logits "
                    f"of position {t} differ from the forward pass without a cache by {diff:.3g}")
    return (f"{name}: passed ({len(CALLS)} calls, every stored position where it belongs; inside the GPT, "
            f"the logits of all 10 positions as without a cache)")
