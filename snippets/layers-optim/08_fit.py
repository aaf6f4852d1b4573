from pathlib import Path

import numpy as np
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from optim import SGD, AdamW
from toy import V, TinyLM, floor, pairs, train

x, y = pairs()  # (N,), (N,)
best = floor(x, y)
print(f"N={len(x)} pairs, V={V}; ln V = {np.log(V):.3f}; floor (counted) = {best:.3f}")
runs = {}
for name, make in (("SGD lr=1.0", lambda ps: SGD(ps, lr=1.0)),
                   ("AdamW lr=0.03", lambda ps: AdamW(ps, lr=0.03, weight_decay=0.0))):
    model = TinyLM(C=16, rng=np.random.default_rng(0))  # the same start for both
    runs[name] = train(model, make(model.parameters()), x, y, steps=200)
    losses = runs[name]
    print(f"{name:<14} loss at step " + "  ".join(f"{s}: {losses[s]:.3f}" for s in (0, 10, 50, 199))
          + f"   step 199 - floor = {losses[199] - best:.4f}")

LABELS = {  # the page's language: Chinese at docs/assets, English at docs/en/assets
    "assets/figures": ("交叉熵（nats）", "损失 − 下界", "步数", "下界", ["Noto Sans CJK SC", "DejaVu Sans"]),
    "en/assets/figures": ("cross-entropy (nats)", "loss - floor", "step", "floor", ["DejaVu Sans"]),
}
docs = Path(__file__).resolve().parents[2] / "docs"
for folder, (loss_label, gap_label, step_label, floor_label, fonts) in LABELS.items():
    with rc_context({"font.family": fonts}):
        fig = Figure(figsize=(6.4, 5.2), dpi=150)
        FigureCanvasAgg(fig)
        top, bottom = fig.subplots(2, 1, sharex=True)
        for name, losses in runs.items():
            top.plot(losses, label=name)
            bottom.semilogy(np.array(losses) - best, label=name)  # distance to the floor
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
        fig.savefig(docs / folder / "layers-optim-loss.png", metadata={"Software": None})
    print(f"saved docs/{folder}/layers-optim-loss.png")
