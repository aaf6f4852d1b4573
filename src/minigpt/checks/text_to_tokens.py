"""Checks for the exercises of lesson 7, ``lm/text-to-tokens``.

``check_get_batch(fn)`` calls a reader's ``fn(data, batch_size, block_size, rng)`` on a stream whose ids
say where they stand (id = 100 + position), so a wrong window is reported by the positions it holds:
"x[1] holds positions 7..14" rather than a list of ids. An error raised by the reader's code is reported as
expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt.checks import reader_errors

N, B, T, DRAWS = 40, 4, 8, 200
OFFSET = 100  # data[i] = OFFSET + i


def _positions(row: np.ndarray) -> str:
    p = np.asarray(row).astype(np.int64) - OFFSET
    if p.size and (np.diff(p) == 1).all():
        return f"positions {p[0]}..{p[-1]}"
    return "ids " + str(np.asarray(row).tolist())


@reader_errors('fn(data, batch_size, block_size, rng) -> (x, y), each (B, T), y one position after x')
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


@reader_errors('cls(chars) with encode(text) -> ids and decode(ids) -> text')
def check_tokenizer(cls) -> str:
    """Report on a reader's ``cls(chars)`` with ``encode(text) -> ids`` and ``decode(ids) -> text``, as
    ``minigpt.tokenizer.CharTokenizer``: ids 0..3 the special tokens <pad> <bos> <eos> <sep>, the characters
    after them in sorted order, and decode(encode(text)) == text."""
    name = getattr(cls, "__name__", "CharTokenizer")

    def call(what, fn, *args):
        try:
            return fn(*args), None
        except Exception as e:  # the reader's error, beside what was expected
            return None, f"{name}: not yet\n  {what}\n  got {type(e).__name__}: {' '.join(str(e).split())}"

    tok, problem = call(f'expected {name}("hello") to build a tokenizer of the characters e, h, l, o', cls, "hello")
    if problem:
        return problem
    want = [5, 7, 6, 4]
    ids, problem = call(f"expected encode('hole') = {want}", tok.encode, "hole")
    if problem:
        return problem
    ids = [int(i) for i in ids] if isinstance(ids, (list, tuple, np.ndarray)) else ids
    if ids != want:
        report = (f"{name}: not yet\n  {name}('hello'): ids 0..3 are <pad> <bos> <eos> <sep>, then e h l o in "
                  f"sorted order\n  encode('hole'): expected {want}, got {ids}")
        if ids == [i - 4 for i in want]:
            report += "\n  the characters start at id 0: ids 0..3 belong to the special tokens, characters start at 4"
        elif isinstance(ids, list) and sorted(ids) == sorted(want):
            report += "\n  the ids follow the order characters first appear: sort them, so one set of characters always gets the same ids"
        return report
    text, problem = call("expected decode([1, 5, 7, 6, 4, 2]) = '<bos>hole<eos>'", tok.decode, [1, 5, 7, 6, 4, 2])
    if problem:
        return problem
    if text != "<bos>hole<eos>":
        return f"{name}: not yet\n  decode([1, 5, 7, 6, 4, 2]): expected '<bos>hole<eos>', got {text!r}"
    poem = "床前明月光，疑是地上霜。"
    tok, problem = call(f"expected {name}({poem!r}) to build a tokenizer", cls, poem)
    if problem:
        return problem
    back, problem = call("expected decode(encode(text)) to give text back", lambda: tok.decode(tok.encode(poem)))
    if problem:
        return problem
    if back != poem:
        return f"{name}: not yet\n  decode(encode({poem!r})): expected the same text back, got {back!r}"
    return f"{name}: passed (specials at ids 0..3, characters sorted from 4, decode(encode(text)) == text)"
