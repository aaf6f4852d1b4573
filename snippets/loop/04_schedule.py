from minigpt.presets import get_preset
from minigpt.train import lr_at
from minigpt_course import figures

config = get_preset("shakespeare-cpu")
steps = range(config.max_steps)
lrs = [lr_at(s, config) for s in steps]
print(f"lr {config.lr}, min_lr {config.min_lr}, warmup {config.warmup_steps}, max_steps {config.max_steps}")
w, d = config.warmup_steps, config.max_steps
for s in (0, 1, w - 1, w, (w + d) // 2, d - 1):  # warmup's ends, the middle of the cosine, the last step
    print(f"step {s:>4}: lr {lr_at(s, config):.3e}")
print(f"mean lr over the run: {sum(lrs) / len(lrs):.3e}")

LABELS = {
    "zh": ("步数", "学习率", "预热", "余弦衰减"),
    "en": ("step", "learning rate", "warmup", "cosine decay"),
}
for lang, fig in figures.bilingual("loop-lr-schedule.png", size=(4.4, 3.1), font_size=12):
    xlabel, ylabel, warm, cos = LABELS[lang]
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
