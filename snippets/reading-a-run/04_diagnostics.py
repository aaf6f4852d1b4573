import numpy as np
import torch

from minigpt import diagnostics
from minigpt.presets import get_preset
from minigpt.train import TorchEngine, load_corpus, lr_at
from minigpt_course import figures

torch.set_num_threads(1)
corpus = load_corpus("poems")
V = corpus.tokenizer.vocab_size
STEPS = 60
probe = corpus.get_batch("val", 16, 32, np.random.default_rng(0))  # one fixed validation batch (x, y): (16, 32)
RUNS = {"healthy": (1, 1e-2), "init x50": (50, 1e-2), "lr x10": (1, 1e-1)}  # name: (init scale, peak lr)


def run(scale, lr):
    config = get_preset("tiny", corpus="poems", batch_size=4, lr=lr, min_lr=lr / 10, warmup_steps=10,
                        max_steps=STEPS, dtype="float64", threads=1)
    engine = TorchEngine(config, config.gpt_config(V))
    with torch.no_grad():
        for p in engine.model.parameters():
            if p.dim() == 2:  # every matrix and embedding: N(0, 0.02) -> N(0, 0.02 * scale)
                p.mul_(scale)
    ratios = diagnostics.Ratios(engine.model, engine.optimizer)  # hooks on the optimizer's step
    rng = np.random.default_rng(config.seed)
    B, T = config.batch_size, config.block_size
    losses = [engine.train_step(*corpus.get_batch("train", B, T, rng), lr_at(s, config)) for s in range(STEPS)]
    ratios.close()
    return dict(first=losses[0], val=engine.eval_loss([probe]), ratios=ratios,
                blocks=diagnostics.activations(engine.model, probe[0]))


runs = {name: run(*setting) for name, setting in RUNS.items()}


def median_ratio(ratios, steps):  # median over the matrices of each one's median over the steps
    return np.median([np.median(r[steps]) for r in ratios.values()])


rows = [(f"loss of step 1 (ln V = {np.log(V):.2f})", lambda r: f"{r['first']:.1f}"),
        (f"val loss after {STEPS} steps", lambda r: f"{r['val']:.1f}")]
for i in range(len(runs["healthy"]["blocks"])):
    rows += [(f"block {i}: GELU input std", lambda r, i=i: f"{r['blocks'][i]['gelu_in'].std():.1f}"),
             (f"block {i}: GELU inputs < {diagnostics.DEAD:g}",
              lambda r, i=i: f"{diagnostics.dead_share(r['blocks'][i]['gelu_in']):.0%}"),
             (f"block {i}: attention rows max > {diagnostics.SATURATED}",
              lambda r, i=i: f"{diagnostics.saturated_share(r['blocks'][i]['attn_max']):.0%}")]
rows += [("log10 update/weight, steps 1-10", lambda r: f"{median_ratio(r['ratios'].update, slice(0, 10)):.1f}"),
         (f"log10 update/weight, steps {STEPS - 9}-{STEPS}",
          lambda r: f"{median_ratio(r['ratios'].update, slice(-10, None)):.1f}"),
         (f"log10 grad/weight, steps {STEPS - 9}-{STEPS}",
          lambda r: f"{median_ratio(r['ratios'].grad, slice(-10, None)):.1f}")]
print(f"{'':38}" + "".join(f"{name:>10}" for name in runs))
for label, show in rows:
    print(f"{label:38}" + "".join(f"{show(r):>10}" for r in runs.values()))

LABELS = {
    "zh": (("健康", "初始化宽 50 倍", "学习率大 10 倍"), "GELU 的输入", "注意力每行的最大权重",
           "步数", "log10 更新/权重", "第 {} 层", "中位数", "密度"),
    "en": (("healthy", "init 50x too wide", "lr 10x too high"), "GELU input", "largest weight of an attention row",
           "step", "log10 update/weight", "block {}", "median", "density"),
}
gelu_bins, attn_bins = np.linspace(-30, 30, 61), np.linspace(0, 1, 41)
for lang, fig in figures.bilingual("run-diagnostics.png", size=(8.4, 6.6), font_size=10):
    titles, gelu_label, attn_label, step_label, ratio_label, block_label, median_label, density_label = LABELS[lang]
    axes = fig.subplots(3, 3, sharey="row")
    for col, (title, r) in enumerate(zip(titles, runs.values())):
        for i, seen in enumerate(r["blocks"]):
            for row, (values, bins) in enumerate(((seen["gelu_in"], gelu_bins), (seen["attn_max"], attn_bins))):
                density, edges = np.histogram(values.numpy(), bins=bins, density=True)
                axes[row, col].stairs(density, edges, label=block_label.format(i))
        axes[0, col].axvline(diagnostics.DEAD, color="gray", linestyle="--", linewidth=1)
        axes[1, col].axvline(diagnostics.SATURATED, color="gray", linestyle="--", linewidth=1)
        axes[0, col].set_title(title)
        axes[0, col].set_xlabel(gelu_label)
        axes[1, col].set_xlabel(attn_label)
        for curve in r["ratios"].update.values():  # one thin line per matrix, the median over them bold
            axes[2, col].plot(np.arange(1, STEPS + 1), curve, color="C0", alpha=0.25, linewidth=0.7)
        axes[2, col].plot(np.arange(1, STEPS + 1), np.median(list(r["ratios"].update.values()), axis=0),
                          color="C3", linewidth=1.6, label=median_label)
        axes[2, col].axhline(-3, color="gray", linestyle="--", linewidth=1)
        axes[2, col].set_xlabel(step_label)
        for ax in axes[:, col]:
            ax.grid(alpha=0.3)
    axes[1, 0].set_yscale("log")
    axes[0, 0].set_ylabel(density_label)
    axes[1, 0].set_ylabel(density_label)
    axes[2, 0].set_ylabel(ratio_label)
    axes[0, 0].legend(fontsize=8)
    axes[2, 0].legend(fontsize=8)
