import os
from pathlib import Path

from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from minigpt.presets import get_preset
from minigpt.train import lr_at

config = get_preset("shakespeare-cpu")
steps = range(config.max_steps)
lrs = [lr_at(s, config) for s in steps]
print(f"lr {config.lr}, min_lr {config.min_lr}, warmup {config.warmup_steps}, max_steps {config.max_steps}")
w, d = config.warmup_steps, config.max_steps
for s in (0, 1, w - 1, w, (w + d) // 2, d - 1):  # warmup's ends, the middle of the cosine, the last step
    print(f"step {s:>4}: lr {lr_at(s, config):.3e}")
print(f"mean lr over the run: {sum(lrs) / len(lrs):.3e}")

docs = Path(os.environ.get("MINIGPT_DOCS", Path(__file__).resolve().parents[2] / "docs"))
LABELS = {  # the page's language: Chinese at docs/assets, English at docs/en/assets
    "assets/figures": ("步数", "学习率", "预热", "余弦衰减", ["Noto Sans CJK SC", "DejaVu Sans"]),
    "en/assets/figures": ("step", "learning rate", "warmup", "cosine decay", ["DejaVu Sans"]),
}
for folder, (xlabel, ylabel, warm, cos, fonts) in LABELS.items():
    with rc_context({"font.family": fonts, "font.size": 12}):
        fig = Figure(figsize=(4.4, 3.1), dpi=150)
        FigureCanvasAgg(fig)
        ax = fig.subplots()
        w = config.warmup_steps
        ax.plot(list(steps)[:w + 1], lrs[:w + 1], color="C1", label=warm)
        ax.plot(list(steps)[w:], lrs[w:], color="C0", label=cos)
        ax.axhline(config.min_lr, color="gray", linestyle="--", linewidth=0.8)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.ticklabel_format(axis="y", style="sci", scilimits=(-3, -3))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=10)
        fig.tight_layout()
        (docs / folder).mkdir(parents=True, exist_ok=True)
        fig.savefig(docs / folder / "loop-lr-schedule.png", metadata={"Software": None})
    print(f"saved docs/{folder}/loop-lr-schedule.png")
