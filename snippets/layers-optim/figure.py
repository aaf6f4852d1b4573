"""The loss curves of 01_fit.py, drawn twice: Chinese labels for docs/assets, English for docs/en/assets."""

from __future__ import annotations

import numpy as np

from minigpt_course import figures

LABELS = {  # the page's language
    "zh": ("交叉熵（nats）", "损失 − 下界", "步数", "下界"),
    "en": ("cross-entropy (nats)", "loss - floor", "step", "floor"),
}
FONTS = {"zh": ["Noto Sans CJK SC", "DejaVu Sans"], "en": ["DejaVu Sans"]}


def save_loss_figure(runs: dict[str, list[float]], best: float, name: str = "layers-optim-loss.png") -> None:
    """Top: each run's loss and the floor; bottom: loss - floor on a log scale."""
    for lang, fig in figures.bilingual(name, size=(6.4, 5.2), fonts=FONTS):
        loss_label, gap_label, step_label, floor_label = LABELS[lang]
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
