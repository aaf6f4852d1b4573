"""Does a small fixed run still learn as well as it did? A guard against regressions that cost loss, not speed.

The run: the ``tiny`` preset's shape on the Tang poems, 300 steps, float32, one thread, seed 1337, scored on
8 fixed validation batches. Its validation loss is recorded in ``records/learning.json``; a run more than
the record's tolerance above it has learned measurably worse. ``tests/test_learning_guard.py`` runs the
same function in the suite; ``minigpt bench learning`` prints it beside the record, with a control (the
same run at a tenth of the learning rate, which must miss) and, with ``--full``, the same run under
bfloat16 autocast.

Why: at one point ``poems-cpu`` trained measurably worse than a commit before it (validation loss 4.17
against 4.07 after 3,000 steps on one machine), and no test or benchmark noticed.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

RECORD = Path(__file__).resolve().parent / "records" / "learning.json"
RUN = "tiny-poems-300"
SETTINGS = dict(corpus="poems", max_steps=300, eval_interval=300, eval_iters=8, dtype="float32", threads=1,
                seed=1337)


def record() -> dict:
    """The recorded run: {"val_loss", "tolerance", "measured_on", ...}."""
    return json.loads(RECORD.read_text(encoding="utf-8"))[RUN]


def small_run(**overrides) -> float:
    """Validation loss of the fixed small run (``overrides`` change single fields, for controls)."""
    from minigpt.presets import get_preset
    from minigpt.train import train

    with tempfile.TemporaryDirectory() as out:
        config = get_preset("tiny", **{**SETTINGS, **overrides, "out_dir": out})
        return train(config, progress=False, plot=False).val_loss


def learns_as_recorded(val_loss: float, rec: dict) -> bool:
    return val_loss <= rec["val_loss"] + rec["tolerance"]


def report(say, options) -> None:
    rec = record()
    say(f"learning: {RUN} (tiny shape on the poems, 300 steps, float32, 1 thread, seed 1337); "
        f"record {rec['val_loss']:.4f} + {rec['tolerance']} ({rec['measured_on']})")
    rows = [("this commit", {}, True), ("control, lr / 10", {"lr": 3e-4, "min_lr": 3e-5}, False)]
    if getattr(options, "full", False):
        rows.append(("bfloat16 autocast", {"dtype": "bfloat16"}, True))
    for name, overrides, should_pass in rows:
        val = small_run(**overrides)
        ok = learns_as_recorded(val, rec)
        verdict = say.mark(ok == should_pass) + ("" if should_pass else " (must miss)")
        say(f"  {name:18s} val {val:.4f}  {val - rec['val_loss']:+.4f} vs record  {verdict}")
