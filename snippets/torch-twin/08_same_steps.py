import numpy as np

from minigpt.data import shakespeare_corpus
from minigpt.presets import get_preset
from minigpt.train import NumpyEngine, TorchEngine, lr_at
from minigpt_course import figures

STEPS = 40
config = get_preset("tiny", max_steps=STEPS, dtype="float32", device="cpu", threads=1, seed=0)
corpus = shakespeare_corpus()
model_config = config.gpt_config(corpus.tokenizer.vocab_size)
engines = {"numpy": NumpyEngine(config, model_config), "torch": TorchEngine(config, model_config)}
losses = {name: [] for name in engines}
rng = np.random.default_rng(0)
for step in range(STEPS):
    x, y = corpus.get_batch("train", config.batch_size, config.block_size, rng)  # (B, T) each
    for name, engine in engines.items():  # same (x, y), same lr
        losses[name].append(engine.train_step(x, y, lr_at(step, config)))
a, b = np.array(losses["numpy"]), np.array(losses["torch"])
print(f"tiny preset, B={config.batch_size}, T={config.block_size}, AdamW, float32, {STEPS} steps")
print("step   numpy   torch")
for s in (0, 9, 19, 39):
    print(f"{s + 1:4d}  {a[s]:.3f}  {b[s]:.3f}")
print(f"every step: max |numpy - torch| < 1e-3: {np.abs(a - b).max() < 1e-3}")

LABELS = {
    "zh": ("训练步", "训练损失（nats）", "numpy 引擎", "PyTorch"),
    "en": ("step", "training loss (nats)", "numpy engine", "PyTorch"),
}
for lang, fig in figures.bilingual("torch-twin-losses.png", size=(5.0, 3.4), font_size=11):
    xlabel, ylabel, ours, theirs = LABELS[lang]
    ax = fig.subplots()
    steps = np.arange(1, STEPS + 1)
    ax.plot(steps, a, color="tab:blue", linewidth=4, alpha=0.5, label=ours)
    ax.plot(steps, b, color="tab:orange", linewidth=1.2, marker=".", label=theirs)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend()
