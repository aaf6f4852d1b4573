import contextlib

import numpy as np

import minigpt.gpt as gpt
from minigpt.config import GPTConfig
from minigpt.data import load_poems
from minigpt.optim import AdamW
from minigpt.tokenizer import CharTokenizer
from minigpt_course import figures

poets = ("李白", "王维", "孟浩然")
poems = [p.text for p in load_poems() if p.form == "五言绝句" and p.author in poets][:80]
text = "".join(poems)
tok = CharTokenizer.from_text(text)
data = np.array(tok.encode(text))  # (N,)
T, B, steps = 12, 16, 400


@contextlib.contextmanager
def no_mask():  # causal_mask(T) -> all False: j > i visible
    original = gpt.causal_mask
    gpt.causal_mask = lambda size: np.zeros((size, size), dtype=bool)
    try:
        yield
    finally:
        gpt.causal_mask = original


def train(seed):
    config = GPTConfig(vocab_size=tok.vocab_size, block_size=T, n_layer=1, n_head=1, n_embd=32)
    model = gpt.GPT(config, seed=seed).to(np.float64)  # float64: far less CPU-dependent than float32
    opt = AdamW(model.parameters(), lr=1e-2, weight_decay=0.0)
    rng, losses = np.random.default_rng(seed), []
    for _ in range(steps):
        ix = rng.integers(0, len(data) - T, B)
        x = data[ix[:, None] + np.arange(T)]  # (B, T)
        y = data[ix[:, None] + np.arange(1, T + 1)]  # (B, T): x shifted by 1
        _, loss = model(x, y)
        model.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, x, y, losses


V = tok.vocab_size
print(f"{len(poems)} quatrains, {len(data)} characters, V = {V}, ln V = {np.log(V):.2f}")
print("seed  mask  train loss  same batch, future hidden  argmax = target")
samples, curves = {}, {}
for seed in (0, 1, 2):
    for masked in (True, False):
        with contextlib.nullcontext() if masked else no_mask():
            model, x, y, losses = train(seed)
            copied = (model(x)[0].data.argmax(-1) == y).mean()  # (B, T): predicted == target
        _, hidden = model(x, y)  # the real causal_mask: the future hidden
        print(f"{seed:>4}  {'yes' if masked else 'no':>4}  {losses[-1]:>10.2f}"
              f"  {hidden.item():>25.2f}  {copied:>15.0%}")
        if seed == 0:
            prompt = np.array([tok.encode(poems[0][:6])])  # (1, 6)
            out = model.generate(prompt, 18, rng=np.random.default_rng(0))  # (1, 24)
            samples[masked], curves[masked] = tok.decode(out[0].tolist()), losses
print("with the mask:   ", samples[True])
print("without the mask:", samples[False])

labels = {"zh": ("训练步数", "训练损失（交叉熵）", "带掩码", "不带掩码：看得见后文", "ln V：均匀地猜"),
          "en": ("training step", "training loss (cross-entropy)", "with the mask",
                 "without the mask: sees the future", "ln V: a uniform guess")}
for lang, fig in figures.bilingual("causal-mask-loss.png", size=(4.8, 3.4), font_size=11):
    xlabel, ylabel, with_mask, without, uniform = labels[lang]
    ax = fig.subplots()
    ax.plot(curves[True], label=with_mask)  # seed 0, one loss per step
    ax.plot(curves[False], label=without)
    ax.axhline(np.log(V), color="gray", linestyle="--", label=uniform)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 7.5)
    ax.grid(alpha=0.3)
    ax.tick_params(labelsize=10)
    ax.legend(fontsize=9.5, loc="center right")
