import numpy as np

from minigpt.data import load_poems
from minigpt.functional import cross_entropy
from minigpt.gpt import causal_mask
from minigpt.nn import Embedding, Linear, Module
from minigpt.optim import AdamW
from minigpt.sampling import sample
from minigpt.tensor import no_grad
from minigpt.tokenizer import CharTokenizer
from minigpt_course import figures
from minigpt_course.lessons import lesson_module

OneHead = lesson_module("self-attention", "one_head").OneHead  # lesson 8's head: c_q, c_k, c_v

poets = ("李白", "王维", "孟浩然")
poems = [p.text for p in load_poems() if p.form == "五言绝句" and p.author in poets][:80]
text = "".join(poems)
tok = CharTokenizer.from_text(text)
data = np.array(tok.encode(text))  # (N,)
V, T, C, B, steps = tok.vocab_size, 12, 32, 16, 400


class TinyLM(Module):
    """ids (B, t) -> logits (B, t, V): two embeddings, lesson 8's one head, a Linear to V."""

    def __init__(self, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        # std 1, like lesson 8's character vectors: at the default 0.02, with no LayerNorm, every score
        # starts near 0 and stays there for most of the 400 steps
        self.wte, self.wpe = Embedding(V, C, rng, std=1.0), Embedding(T, C, rng, std=1.0)  # token, position
        self.head, self.out = OneHead(C, C, rng), Linear(C, V, True, rng)

    def forward(self, idx, masked=True):
        t = idx.shape[1]
        x = self.wte(idx) + self.wpe(np.arange(t))  # (B, t, C)
        q, k, v = self.head.c_q(x), self.head.c_k(x), self.head.c_v(x)  # (B, t, C) each
        scores = q @ k.transpose(-2, -1) * (1.0 / np.sqrt(C))  # 1. compare, 2. scale: (B, t, t)
        if masked:
            scores = scores.masked_fill(causal_mask(t), -np.inf)  # j > i: weight exactly 0
        return self.out(scores.softmax(dim=-1) @ v)  # 3. normalise, 4. aggregate, then (B, t, V)


def train(seed, masked):
    model = TinyLM(seed).to(np.float64)  # float64: far less CPU-dependent than float32
    opt = AdamW(model.parameters(), lr=1e-2, weight_decay=0.0)
    rng, losses = np.random.default_rng(seed), []
    for _ in range(steps):
        ix = rng.integers(0, len(data) - T, B)
        x = data[ix[:, None] + np.arange(T)]  # (B, T)
        y = data[ix[:, None] + np.arange(1, T + 1)]  # (B, T): x shifted by 1
        loss = cross_entropy(model(x, masked), y)
        model.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, x, y, losses


def generate(model, ids, n, rng):  # the last position has no later one: the mask changes nothing here
    with no_grad():
        for _ in range(n):
            logits = model(np.array([ids[-T:]])).data[:, -1]  # (1, V): the next character
            ids = ids + [int(sample(logits, rng=rng)[0])]
    return tok.decode(ids)


print(f"{len(poems)} quatrains, {len(data)} characters, V = {V}, ln V = {np.log(V):.2f}")
print("seed  mask  train loss  same batch, future hidden  argmax = target")
samples, curves = {}, {}
for seed in (0, 1, 2):
    for masked in (True, False):
        model, x, y, losses = train(seed, masked)
        with no_grad():
            copied = (model(x, masked).data.argmax(-1) == y).mean()  # (B, T): predicted == target
            hidden = cross_entropy(model(x, masked=True), y)  # the same batch, the future hidden
        print(f"{seed:>4}  {'yes' if masked else 'no':>4}  {losses[-1]:>10.2f}"
              f"  {hidden.item():>25.2f}  {copied:>15.0%}")
        if seed == 0:
            samples[masked] = generate(model, tok.encode(poems[0][:6]), 18, np.random.default_rng(0))
            curves[masked] = losses
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
