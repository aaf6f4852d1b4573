import argparse
import tempfile

import numpy as np

from minigpt.data import format_prompt, poem_corpus
from minigpt_course.lessons import lesson_module
from minigpt.presets import get_preset
from minigpt.tensor import no_grad
from minigpt.train import train
from minigpt_course import figures

window_mlp = lesson_module("context", "window_mlp")  # lesson 8's model
count_bigram = lesson_module("bigram", "bigram")  # lesson 7's CountBigram
ALPHA = 0.01  # lesson 7's smoothing for the poems, the best of its sweep (snippets/bigram/10_in_the_model.py)

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=300)
parser.add_argument("--n-embd", type=int, default=32, help="the GPT's width (exercise 4)")
args = parser.parse_args()
STEPS, WIDTH = args.steps, args.n_embd
corpus = poem_corpus()
tok = corpus.tokenizer
V, val = tok.vocab_size, corpus.val
N, FIRST = 256, 17  # 256 chunks of 32 targets: positions 17 .. 8208 of the validation stream
starts = FIRST - 1 + 32 * np.arange(N)  # (N,)
X, Y = val[starts[:, None] + np.arange(32)], val[starts[:, None] + np.arange(1, 33)]  # (N, 32) each

with tempfile.TemporaryDirectory() as out:
    # the tiny preset, narrower (n_embd 32) and a batch of 4 x 32 tokens, in float64: seconds on one core
    config = get_preset("tiny", corpus="poems", engine="numpy", n_embd=WIDTH, batch_size=4, max_steps=STEPS,
                        eval_interval=100, eval_iters=8, dtype="float64", out_dir=out)
    result = train(config, corpus=corpus, progress=False, plot=False)
gpt = result.model
print(f"numpy GPT, {gpt.num_params():,} parameters, V = {V}")
for row in result.history:
    print(f"step {row['step']:4d}  train loss {row['train_loss']:.3f}  "
          f"validation loss {row['val_loss']:.3f}")
rng = np.random.default_rng(0)
for form, keywords in (("五言绝句", "春风"), ("七言绝句", "明月")):
    prompt = format_prompt(tok, form, keywords)  # <bos> form <sep> keywords <sep>
    ids = gpt.generate(np.array([prompt]), 40, stop=tok.eos_id, rng=rng)[0]  # (T + new,)
    print(f"{form} {keywords}: {tok.decode(ids[len(prompt):], skip_special=True)}")
with no_grad():
    gpt_loss = np.mean([float(gpt(X[i : i + 64], Y[i : i + 64])[1].data) for i in range(0, N, 64)])

# the chunks tile one stretch of the stream: its pairs are exactly the (X, Y) pairs above
bigram = count_bigram.CountBigram(corpus.train, V, alpha=ALPHA).nll(val[FIRST - 1 : FIRST + N * 32])

rng = np.random.default_rng(0)
window = window_mlp.WindowMLP(V, 4, rng=rng)  # 4 tokens before the target, lesson 8's default sizes
window_mlp.train(window, corpus, STEPS, batch_size=128, rng=rng)  # 128 targets a step, as the GPT's 4 x 32
wx, wy = window_mlp.windows(val, 4, FIRST)  # (M, 4), (M,)
window_loss = window_mlp.evaluate(window, wx[: N * 32], wy[: N * 32])

rows = [("ln V", "uniform guess", np.log(V)), ("count bigram", "1 previous token", bigram),
        ("window MLP", "4 previous tokens", window_loss), ("GPT", "up to 32 previous tokens", gpt_loss)]
print(f"validation loss on the same {N * 32:,} targets "
      f"({STEPS} steps x 128 targets for both trained models)")
for name, sees, loss in rows:
    print(f"  {name:13}{sees:26}{loss:6.3f}")
if (STEPS, WIDTH) != (300, 32):
    print("no figure: it shows the default run only")
    raise SystemExit
LABELS = {
    "zh": (["均匀猜测 ln V", "二元计数", "窗口 MLP（4 字）", "GPT（至多 32 字）"],
           "验证损失（nats）"),
    "en": (["uniform, ln V", "count bigram", "window MLP (4)", "GPT (up to 32)"],
           "validation loss (nats)"),
}
for lang, fig in figures.bilingual("gpt-compare.png", size=(5.0, 2.8), font_size=11):
    names, xlabel = LABELS[lang]
    ax = fig.subplots()
    losses = [loss for _, _, loss in rows]
    ax.barh(names[::-1], losses[::-1], color=["C0", "C2", "C1", "gray"])
    for i, loss in enumerate(losses[::-1]):
        ax.text(loss + 0.1, i, f"{loss:.2f}", va="center")
    ax.set_xlim(0, max(losses) + 1.2)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
