"""The loss curves of 01_fit.py, drawn twice: Chinese labels for docs/assets, English for docs/en/assets."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

LABELS = {  # the page's language: Chinese at docs/assets, English at docs/en/assets
    "assets/figures": ("交叉熵（nats）", "损失 − 下界", "步数", "下界", ["Noto Sans CJK SC", "DejaVu Sans"]),
    "en/assets/figures": ("cross-entropy (nats)", "loss - floor", "step", "floor", ["DejaVu Sans"]),
}


def save_loss_figure(runs: dict[str, list[float]], best: float, name: str = "layers-optim-loss.png") -> None:
    """Top: each run's loss and the floor; bottom: loss - floor on a log scale."""
    docs = Path(os.environ.get("MINIGPT_DOCS", Path(__file__).resolve().parents[2] / "docs"))
    for folder, (loss_label, gap_label, step_label, floor_label, fonts) in LABELS.items():
        with rc_context({"font.family": fonts}):
            fig = Figure(figsize=(6.4, 5.2), dpi=150)
            FigureCanvasAgg(fig)
            top, bottom = fig.subplots(2, 1, sharex=True)
            for run, losses in runs.items():
                top.plot(losses, label=run)
                bottom.semilogy(np.array(losses) - best, label=run)  # distance to the floor
            top.axhline(best, color="gray", linestyle="--", label=f"{floor_label} {best:.3f}")
            top.set_ylabel(loss_label)
            top.set_ylim(0, 4.5)
            bottom.set_ylabel(gap_label)
            bottom.set_xlabel(step_label)
            for ax in (top, bottom):
                ax.grid(alpha=0.3)
                ax.legend()
            fig.tight_layout()
            (docs / folder).mkdir(parents=True, exist_ok=True)
            fig.savefig(docs / folder / name, metadata={"Software": None})
        print(f"saved docs/{folder}/{name}")
