import numpy as np

from bigram import CountBigram
from minigpt.data import poem_corpus, shakespeare_corpus
from minigpt_course import figures

TITLES = {
    "zh": ("莎士比亚：小写字母这一角", "唐诗：最常见的 16 个字",
           "下一个字符 b", "当前字符 a"),
    "en": ("Shakespeare: the lowercase corner",
           "Tang poems: the 16 commonest characters",
           "next character b", "current character a"),
}
corners = []  # (P rows x cols, row labels, column labels)
for corpus in (shakespeare_corpus(), poem_corpus()):
    tok, V = corpus.tokenizer, corpus.tokenizer.vocab_size
    model = CountBigram(corpus.train, V)
    if V < 1000:
        rows = tok.encode("abcdefghijklmnopqrstuvwxyz")  # (26,)
        cols = tok.encode(" ") + rows  # (27,): a space, then a-z
    else:  # the 16 commonest, no special tokens
        order = np.argsort(-model.row_sums, kind="stable")
        rows = cols = [i for i in order if i > 3][:16]
    P = model.probs(np.array(rows))[:, cols]  # a corner of the (V, V) P(b | a)
    r, c = np.unravel_index(P.argmax(), P.shape)
    print(f"{corpus.name}: corner {P.shape}, largest P(b | a) = {P[r, c]:.3f} for "
          f"a = {tok.decode([rows[r]])!r}, b = {tok.decode([cols[c]])!r}")
    labels = [tok.decode([i]) for i in rows], [tok.decode([i]) for i in cols]
    corners.append((P, *labels))

FONTS = {lang: ["DejaVu Sans", "Noto Sans CJK SC"] for lang in TITLES}  # Latin first: the ticks are letters
for lang, fig in figures.bilingual("bigram-counts.png", size=(6, 10.5), fonts=FONTS):
    *titles, xlabel, ylabel = TITLES[lang]
    for ax, (P, rows, cols), title in zip(fig.subplots(2, 1), corners, titles):
        im = ax.imshow(P, cmap="Blues", vmin=0, vmax=1, aspect="auto")
        xticks = ["␣" if c == " " else c for c in cols]
        ax.set_xticks(range(len(cols)), xticks, fontsize=8)
        ax.set_yticks(range(len(rows)), rows, fontsize=8)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        fig.colorbar(im, ax=ax, label="P(b | a)", shrink=0.8)
