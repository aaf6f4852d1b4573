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
# whole commands under /usr/bin/time, one after the other on the same quiet 2-core Xeon; not run here
NANOGPT = {"val_loss": 1.8857, "wall_s": 65.7}  # nanoGPT's train.py, its laptop config (see benchmarks.md#nanogpt)
FOUR_LAYERS = {"val_loss": 1.7610, "wall_s": 68.0}  # this preset with nanoGPT's n_layer=4, max_steps=2000
OURS_WALL_S = 44.3  # the command above, whose log.csv this is
print(f"nanoGPT laptop run (measured): val {NANOGPT['val_loss']}, wall {NANOGPT['wall_s']} s")
print(f"ours with nanoGPT's 4 layers x 2000 steps: val {FOUR_LAYERS['val_loss']:.4f}, "
      f"wall {FOUR_LAYERS['wall_s']} s, {FOUR_LAYERS['wall_s'] / NANOGPT['wall_s']:.2f} of nanoGPT's")
print(f"ours at step {last['step']}: val {last['val_loss']:.4f}, {NANOGPT['val_loss'] - last['val_loss']:.3f} lower; "
      f"wall {OURS_WALL_S} s, {OURS_WALL_S / NANOGPT['wall_s']:.2f} of nanoGPT's")

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
    ax.axhline(NANOGPT["val_loss"], color="gray", linestyle="--", label=nano)
    ax.set_ylim(1.2, 4.4)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=10)
