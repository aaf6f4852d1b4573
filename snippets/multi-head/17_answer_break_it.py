import contextlib
import io
import runpy
from pathlib import Path

import numpy as np

import minigpt.gpt as gpt


def merge_without_permute(y):  # (B, nh, T, hs) -> (B, T, C), tokens scrambled
    B, nh, T, hs = y.shape
    return y.reshape(B, T, nh * hs)


bugs = {
    "no bug": {},
    "merge_heads without permute": {"merge_heads": merge_without_permute},
    "mask forgotten": {"causal_mask": lambda T: np.zeros((T, T), dtype=bool)},
    "mask hides the diagonal too": {"causal_mask": lambda T: np.triu(np.ones((T, T), dtype=bool))},
}
originals = {name: getattr(gpt, name) for name in ("merge_heads", "causal_mask")}
for bug, patch in bugs.items():
    for name, fn in {**originals, **patch}.items():
        setattr(gpt, name, fn)  # as if src/minigpt/gpt.py were edited
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), np.errstate(invalid="ignore"):
        runpy.run_path(str(Path(__file__).with_name("10_torch_check.py")), run_name="__main__")
    lines = printed.getvalue().splitlines()
    print(f"{bug}:\n  " + "\n  ".join(lines))
