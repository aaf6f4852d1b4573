import contextlib
import io
import math
import runpy
from pathlib import Path

import one_head


def no_scale(q, k, v):
    return (q @ k.transpose(-2, -1)).softmax(dim=-1) @ v  # (B, T, dv)


def by_d(q, k, v):
    scores = q @ k.transpose(-2, -1) * (1.0 / q.shape[-1])  # / d instead of / sqrt(d)
    return scores.softmax(dim=-1) @ v  # (B, T, dv)


def columns(q, k, v):
    scores = q @ k.transpose(-2, -1) * (1.0 / math.sqrt(q.shape[-1]))  # (B, T, T)
    return scores.softmax(dim=-2) @ v  # (B, T, dv)


right = one_head.attention
bugs = (("no bug", right), ("no scale", no_scale), ("divided by d", by_d),
        ("softmax(dim=-2)", columns))
for name, fn in bugs:
    one_head.attention = fn  # as if snippets/self-attention/one_head.py were edited
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        runpy.run_path(str(Path(__file__).with_name("08_torch_check.py")), run_name="__main__")
    print(f"{name}:\n  " + "\n  ".join(printed.getvalue().splitlines()[:2]))
one_head.attention = right
