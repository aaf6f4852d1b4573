import dataclasses
import tempfile

from minigpt.presets import get_preset
from minigpt.train import load_corpus, train
from minigpt_course import figures

full = load_corpus("shakespeare")
small = dataclasses.replace(full, train=full.train[:1000])  # 1,000 training characters; val unchanged
print(f"training characters: {len(small.train):,} (the full split has {len(full.train):,})")
with tempfile.TemporaryDirectory() as out:
    config = get_preset("tiny", lr=1e-2, min_lr=1e-3, max_steps=400, warmup_steps=20,
                        eval_interval=50, eval_iters=8, dtype="float64", threads=1, out_dir=out)
    rows = train(config, corpus=small, plot=False).history
print("step  train   val")
for r in rows:
    print(f"{r['step']:>4}  {r['train_loss']:.3f}  {r['val_loss']:.3f}")
best = min(rows, key=lambda r: r["val_loss"])
print(f"lowest val loss {best['val_loss']:.3f} at step {best['step']}; "
      f"at the end: train {rows[-1]['train_loss']:.3f}, val {rows[-1]['val_loss']:.3f}")

LABELS = {
    "zh": ("步数", "损失（nats/词元）", "训练（1,000 个字符）", "验证", "验证损失最低"),
    "en": ("step", "loss (nats per token)", "train (the 1,000 characters)", "validation",
           "lowest validation loss"),
}
steps = [r["step"] for r in rows]
for lang, fig in figures.bilingual("run-overfit.png", size=(4.4, 3.1), font_size=12):
    xlabel, ylabel, tr, va, low = LABELS[lang]
    ax = fig.subplots()
    ax.plot(steps, [r["train_loss"] for r in rows], marker="o", label=tr)
    ax.plot(steps, [r["val_loss"] for r in rows], marker="s", label=va)
    ax.axvline(best["step"], color="gray", linestyle=":", label=low)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=10)
