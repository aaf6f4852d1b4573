"""A small fixed training run learns as well as it did when it was recorded (benchmarks/learning.py): a change
that costs loss without costing speed fails here, not months later in a long run."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from learning import learns_as_recorded, record, small_run  # noqa: E402


def test_the_small_run_learns_as_well_as_recorded():
    rec = record()
    val = small_run()
    assert learns_as_recorded(val, rec), (
        f"the fixed small run ends at validation loss {val:.4f}, more than {rec['tolerance']} above the "
        f"record {rec['val_loss']:.4f} ({rec['measured_on']}): something learns worse")


def test_the_guard_rejects_a_run_that_learns_worse():
    rec = record()
    assert learns_as_recorded(rec["val_loss"] + rec["tolerance"], rec)
    assert not learns_as_recorded(rec["val_loss"] + rec["tolerance"] + 1e-3, rec)
