from pathlib import Path

from minigpt.train import read_log
from minigpt_course import figures

here = Path(__file__).resolve().parent
rows = read_log(here / "shakespeare-cpu-log.csv")  # log.csv of the documented run, copied as it was
print("step  lr        train   val     gap")
for r in rows:
    print(f"{r['step']:>4}  {r['lr']:.2e}  {r['train_loss']:.4f}  {r['val_loss']:.4f}  "
          f"{r['val_loss'] - r['train_loss']:+.4f}")
last = rows[-1]
print(f"training time in log.csv: {last['elapsed']:.0f} s, {last['step'] / last['elapsed']:.1f} steps/s")
# nanoGPT's train.py, its laptop config, measured once on the same quiet 2-core Xeon; not run here.
# The figure draws its validation loss as a dashed line; benchmarks.md#nanogpt compares the two runs.
NANOGPT_VAL_LOSS = 1.8857

LABELS = {
    "zh": ("步数", "损失（nats/词元）", "训练（20 个固定批次）", "验证（20 个固定批次）",
           "nanoGPT 的验证损失（实测）"),
    "en": ("step", "loss (nats per token)", "train (20 fixed batches)",
           "validation (20 fixed batches)", "nanoGPT's validation loss (measured)"),
}
steps = [r["step"] for r in rows]
for lang, fig in figures.bilingual("run-shakespeare.png", size=(4.4, 3.1), font_size=12):
    xlabel, ylabel, tr, va, nano = LABELS[lang]
    ax = fig.subplots()
    ax.plot(steps, [r["train_loss"] for r in rows], marker="o", label=tr)
    ax.plot(steps, [r["val_loss"] for r in rows], marker="s", label=va)
    ax.axhline(NANOGPT_VAL_LOSS, color="gray", linestyle="--", label=nano)
    ax.set_ylim(1.2, 4.4)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=10)
