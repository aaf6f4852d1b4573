"""Checks for the exercises of lesson 7, ``lm/text-to-tokens``.

``check_get_batch(fn)`` calls a reader's ``fn(data, batch_size, block_size, rng)`` on a stream whose ids
say where they stand (id = 100 + position), so a wrong window is reported by the positions it holds:
"x[1] holds positions 7..14" rather than a list of ids. Errors raised by the reader's code are not caught.
"""

from __future__ import annotations

import numpy as np

N, B, T, DRAWS = 40, 4, 8, 200
OFFSET = 100  # data[i] = OFFSET + i


def _positions(row: np.ndarray) -> str:
    p = np.asarray(row).astype(np.int64) - OFFSET
    if p.size and (np.diff(p) == 1).all():
        return f"positions {p[0]}..{p[-1]}"
    return "ids " + str(np.asarray(row).tolist())


def check_get_batch(fn) -> str:
    """Report on ``fn(data, batch_size, block_size, rng) -> (x, y)``: shapes (B, T), windows of
    consecutive tokens, y one position after x, every window start from 0 to N - T - 1 reachable."""
    name = getattr(fn, "__name__", "get_batch")
    data = OFFSET + np.arange(N)  # (N,)
    starts = set()
    rng = np.random.default_rng(0)
    for _ in range(DRAWS):
        out = fn(data, B, T, rng)
        if not isinstance(out, tuple) or len(out) != 2:
            return f"{name}: not yet\n  expected a pair (x, y), got {type(out).__name__}"
        x, y = out
        for label, a in (("x", x), ("y", y)):
            if not isinstance(a, np.ndarray) or a.shape != (B, T) or not np.issubdtype(a.dtype, np.integer):
                what = f"shape {a.shape}, dtype {a.dtype}" if isinstance(a, np.ndarray) else repr(a)[:40]
                return (f"{name}: not yet\n  data has N = {N} tokens, batch_size B = {B}, block_size T = {T}\n"
                        f"  {label}: expected an integer array of shape (B, T) = ({B}, {T}), got {what}")
        for b in range(B):
            p = x[b] - OFFSET
            if not (np.diff(p) == 1).all():
                return (f"{name}: not yet\n  x[{b}] should be T = {T} consecutive tokens of data, "
                        f"got {_positions(x[b])}")
            want = data[p[0] + 1 : p[0] + 1 + T]
            if not np.array_equal(y[b], want):
                hint = (" = x itself: a target is the NEXT token, so y is x shifted left by one"
                        if np.array_equal(y[b], x[b]) else "")
                return (f"{name}: not yet\n  x[{b}] holds {_positions(x[b])}\n"
                        f"  y[{b}]: expected positions {p[0] + 1}..{p[0] + T}, got {_positions(y[b])}{hint}")
            starts.add(int(p[0]))
    missing = sorted(set(range(N - T)) - starts)
    if missing:
        return (f"{name}: not yet\n  in {DRAWS} batches, no window started at position {missing[-1]} "
                f"(starts go from 0 to N - T - 1 = {N - T - 1}; numpy's integers(low, high) leaves out high)")
    return (f"{name}: passed (x, y of shape ({B}, {T}), y one position after x, "
            f"all {N - T} window starts drawn in {DRAWS} batches)")
