import re
import tempfile

import numpy as np

from minigpt.data import load_shakespeare, shakespeare_corpus
from minigpt.presets import get_preset
from minigpt.tensor import no_grad
from minigpt.train import train
from minigpt_course import figures
from minigpt_course.lessons import lesson_module

count_bigram = lesson_module("bigram", "bigram")  # lesson 6's CountBigram
ALPHA = 1.0  # lesson 6's smoothing for Shakespeare, the best of its sweep there

corpus = shakespeare_corpus()
with tempfile.TemporaryDirectory() as out:
    # this lesson's numpy GPT (engine="numpy"), 2 blocks 32 wide, context 32, batch 8, AdamW;
    # float64: the same digits on every CPU
    config = get_preset("tiny", engine="numpy", n_embd=32, max_steps=1500, lr=1e-2, min_lr=1e-3,
                        warmup_steps=150, eval_interval=1500, eval_iters=1, dtype="float64", threads=1,
                        out_dir=out)
    model = train(config, corpus=corpus, progress=False, plot=False).model
c, tok = model.config, corpus.tokenizer
print(f"numpy GPT: {c.n_layer} layers x {c.n_embd} wide, context {c.block_size}, "
      f"{model.num_params():,} parameters, V = {c.vocab_size}")
print(f"trained here: {config.max_steps:,} steps x {config.tokens_per_step:,} targets of tiny Shakespeare")

V, val, T = tok.vocab_size, corpus.val, c.block_size
N, FIRST = 128, 4  # 128 stretches of 32 targets: positions 4 .. 4099 (exercise 4's window needs 4 before)
starts = FIRST - 1 + T * np.arange(N)  # (N,)
X, Y = val[starts[:, None] + np.arange(T)], val[starts[:, None] + np.arange(1, T + 1)]  # (N, T) each
with no_grad():
    gpt_loss = float(model(X, Y)[1].data)  # each target sees 1 to 32 characters of its stretch
    one_loss = float(model(X.reshape(-1, 1), Y.reshape(-1, 1))[1].data)  # the same targets, 1 character each
bigram = count_bigram.CountBigram(corpus.train, V, alpha=ALPHA)
bigram_loss = bigram.nll(val[FIRST - 1 : FIRST + N * T])  # the stretches tile the stream: the same pairs

rows = [("ln V", "uniform guess", np.log(V)), ("count bigram", "1 previous character", bigram_loss),
        ("GPT", "shown 1 character only", one_loss), ("GPT", "up to 32 previous characters", gpt_loss)]
print(f"validation loss on the same {N * T:,} targets")
for name, sees, loss in rows:
    print(f"  {name:13}{sees:30}{loss:6.3f}")
print(f"the GPT is ahead of the count bigram by {bigram_loss - gpt_loss:.3f}")

WORD = re.compile(r"[a-z]+(?:'[a-z]+)*")  # letters, and an apostrophe inside: thou, i'll
known = set(WORD.findall(load_shakespeare().lower()))  # every word of the plays
prompt = tok.encode("ROMEO:\n")  # (7,)
S, new = 50, 57  # 50 samples of 57 new characters each; the GPT sees the last 32
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
    "zh": (["均匀猜测 ln V", "二元计数", "GPT，只看 1 个字符", "GPT，至多 32 个字符"], "验证损失（奈特）"),
    "en": (["uniform, ln V", "count bigram", "GPT, 1 character", "GPT, up to 32"], "validation loss (nats)"),
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
