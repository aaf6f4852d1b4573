import contextlib
import io
import runpy
from pathlib import Path

import numpy as np

import minigpt.gpt as gpt

bugs = {
    "diagonal hidden too (k=0)": lambda T: np.triu(np.ones((T, T), dtype=bool), k=0),
    "flipped (np.tril, k=-1)": lambda T: np.tril(np.ones((T, T), dtype=bool), k=-1),
}
original = gpt.causal_mask
for bug, mask in bugs.items():
    gpt.causal_mask = mask  # as if src/minigpt/gpt.py were edited
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), np.errstate(invalid="ignore"):
        runpy.run_path(str(Path(__file__).with_name("04_all_positions.py")), run_name="__main__")
    gpt.causal_mask = original
    print(f"{bug}:\n  " + "\n  ".join(printed.getvalue().splitlines()[2:4]))
