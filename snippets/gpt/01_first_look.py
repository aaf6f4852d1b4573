import re

import numpy as np

from minigpt.convert import to_numpy
from minigpt.data import load_shakespeare, shakespeare_corpus
from minigpt.gpt import GPT
from minigpt.tensor import no_grad
from minigpt.tiny_models import BARD_SETTINGS, tiny_bard
from minigpt_course import figures
from minigpt_course.lessons import lesson_module

count_bigram = lesson_module("bigram", "bigram")  # lesson 7's CountBigram
ALPHA = 1.0  # lesson 7's smoothing for Shakespeare, the best of its sweep there

twin, tok, _ = tiny_bard()  # the PyTorch twin of this lesson's GPT, trained once per machine (about 20 s)
model = GPT(twin.config).to(np.float64)  # this lesson's numpy GPT, the same sizes
model.load_state_dict(to_numpy(twin.state_dict()))  # the same parameter names: the weights move as they are
c = model.config
print(f"numpy GPT: {c.n_layer} layers x {c.n_embd} wide, context {c.block_size}, "
      f"{model.num_params():,} parameters, V = {c.vocab_size}")
steps, per_step = BARD_SETTINGS["max_steps"], BARD_SETTINGS["batch_size"] * c.block_size
print(f"weights: {steps:,} steps x {per_step:,} targets of tiny Shakespeare, trained by its PyTorch twin")

corpus = shakespeare_corpus()
V, val, T = tok.vocab_size, corpus.val, c.block_size
N, FIRST = 64, 4  # 64 stretches of 64 targets: positions 4 .. 4099 (exercise 4's window needs 4 before)
starts = FIRST - 1 + T * np.arange(N)  # (N,)
X, Y = val[starts[:, None] + np.arange(T)], val[starts[:, None] + np.arange(1, T + 1)]  # (N, T) each
with no_grad():
    gpt_loss = float(model(X, Y)[1].data)  # each target sees 1 to 64 characters of its stretch
    one_loss = float(model(X.reshape(-1, 1), Y.reshape(-1, 1))[1].data)  # the same targets, 1 character each
bigram = count_bigram.CountBigram(corpus.train, V, alpha=ALPHA)
bigram_loss = bigram.nll(val[FIRST - 1 : FIRST + N * T])  # the stretches tile the stream: the same pairs

rows = [("ln V", "uniform guess", np.log(V)), ("count bigram", "1 previous character", bigram_loss),
        ("GPT", "shown 1 character only", one_loss), ("GPT", "up to 64 previous characters", gpt_loss)]
print(f"validation loss on the same {N * T:,} targets")
for name, sees, loss in rows:
    print(f"  {name:13}{sees:30}{loss:6.3f}")
print(f"the GPT is ahead of the count bigram by {bigram_loss - gpt_loss:.3f}")

WORD = re.compile(r"[a-z]+(?:'[a-z]+)*")  # letters, and an apostrophe inside: thou, i'll
known = set(WORD.findall(load_shakespeare().lower()))  # every word of the plays
prompt = tok.encode("ROMEO:\n")  # (7,)
S, new = 50, T - len(prompt)  # 50 samples of 57 new characters each: within the GPT's context
gpt_rows = model.generate(np.array([prompt] * S), new, rng=np.random.default_rng(0))[:, len(prompt):]  # (S, new)
rng = np.random.default_rng(0)
bigram_rows = [count_bigram.generate(bigram, prompt[-1], new, rng)[1:] for _ in range(S)]  # from the new line
print(f"words of the plays among the words written: {S} samples of {new} characters after ROMEO:")
firsts = {}
for name, samples in (("count bigram", bigram_rows), ("GPT", gpt_rows)):
    texts = [tok.decode(list(ids)) for ids in samples]
    words = [WORD.findall(t.lower())[:-1] for t in texts]  # the last word may be cut short: left out
    real = sum(w in known for ws in words for w in ws) / sum(map(len, words))
    print(f"  {name:14}{real:4.0%}")
    firsts[name] = texts[0].replace("\n", " / ")
print("first sample of each (seed 0), new lines as /:")
for name, text in firsts.items():
    print(f"  {name:14}{text.rstrip()}")

LABELS = {
    "zh": (["均匀猜测 ln V", "二元计数", "GPT，只看 1 个字符", "GPT，至多 64 个字符"], "验证损失（奈特）"),
    "en": (["uniform, ln V", "count bigram", "GPT, 1 character", "GPT, up to 64"], "validation loss (nats)"),
}
for lang, fig in figures.bilingual("gpt-compare.png", size=(5.0, 2.6), font_size=11):
    names, xlabel = LABELS[lang]
    ax = fig.subplots()
    losses = [loss for _, _, loss in rows]
    ax.barh(names[::-1], losses[::-1], color=["C0", "C1", "C2", "gray"])
    for i, loss in enumerate(losses[::-1]):
        ax.text(loss + 0.05, i, f"{loss:.2f}", va="center")
    ax.set_xlim(0, max(losses) + 0.7)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
