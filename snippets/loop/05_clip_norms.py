import tempfile

import numpy as np
import torch

from minigpt.presets import get_preset
from minigpt.train import train
from minigpt_course import figures

clip = torch.nn.utils.clip_grad_norm_
norms = []

def recording_clip(params, max_norm):  # the real clip, its return value (the norm before) kept
    total = clip(params, max_norm)
    norms.append(float(total))
    return total

torch.nn.utils.clip_grad_norm_ = recording_clip
with tempfile.TemporaryDirectory() as out:
    config = get_preset("tiny", n_layer=1, lr=1e-2, min_lr=1e-3, max_steps=150, warmup_steps=15,
                        eval_interval=50, eval_iters=8, dtype="float64", threads=1, out_dir=out)
    train(config, plot=False)
torch.nn.utils.clip_grad_norm_ = clip
norms = np.array(norms)  # (150,): the global norm of every step, before clipping
print(f"{len(norms)} steps, grad_clip {config.grad_clip}")
print("first 5 norms:", " ".join(f"{n:.2f}" for n in norms[:5]))
print(f"largest {norms.max():.2f} at step {norms.argmax() + 1}; median of the last 50: {np.median(norms[-50:]):.3f}")
clipped = np.flatnonzero(norms > config.grad_clip) + 1  # step numbers, from 1
print(f"steps clipped (norm > {config.grad_clip}): {len(clipped)} of {len(norms)}, the last at step {clipped[-1]}")

LABELS = {
    "zh": ("步数", "梯度范数（裁剪前）", "裁剪阈值"),
    "en": ("step", "gradient norm (before clipping)", "clip threshold"),
}
for lang, fig in figures.bilingual("loop-grad-norms.png", size=(4.4, 3.1), font_size=12):
    xlabel, ylabel, limit = LABELS[lang]
    ax = fig.subplots()
    ax.plot(np.arange(1, len(norms) + 1), norms, color="C0", linewidth=1)
    ax.axhline(config.grad_clip, color="C3", linestyle="--", label=limit)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=10)
