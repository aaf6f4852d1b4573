from collections import Counter

import numpy as np

from minigpt.data import load_poems, load_shakespeare, poem_corpus
from minigpt_course import figures

poems = [p for p in load_poems() if p.form is not None]
counts = {"poems": Counter(c for p in poems for c in p.text if c not in "，。？！；"),
          "shakespeare": Counter(load_shakespeare())}
for name, count in counts.items():
    n = np.sort(np.array(list(count.values())))[::-1]  # (distinct,), descending
    cover = np.cumsum(n) / n.sum()
    top = " ".join({" ": "␣", "\n": "\\n"}.get(c, c) for c, _ in count.most_common(10))
    print(f"{name}: {n.sum():,} occurrences of {len(n):,} distinct; top 10: {top}")
    print("  characters needed for " + ", ".join(
        f"{q:.0%}: {np.searchsorted(cover, q) + 1:,}" for q in (0.5, 0.9, 0.99)) + f"; seen once: {(n == 1).sum():,}")

corpus = poem_corpus()
seen = np.bincount(corpus.train, minlength=corpus.tokenizer.vocab_size) > 0
unseen = sorted(set(corpus.val.tolist()) - set(np.flatnonzero(seen).tolist()))
print(f"poems: {len(unseen)} characters of the validation poems never occur in training:",
      corpus.tokenizer.decode(unseen[:8]))

labels = {"zh": ("按出现次数排名", "出现次数", "唐诗（四种体裁，不计标点）", "莎士比亚"),
          "en": ("rank by count", "occurrences", "Tang poems (four forms, no punctuation)", "Shakespeare")}
FONTS = {lang: ["Noto Sans CJK SC", "DejaVu Sans"] for lang in labels}  # the top characters are Chinese
for lang, fig in figures.bilingual("text-to-tokens-ranks.png", size=(5.0, 3.8), font_size=11, fonts=FONTS):
    ax = fig.subplots()
    for (name, count), label in zip(counts.items(), labels[lang][2:]):
        n = np.sort(np.array(list(count.values())))[::-1]
        ax.loglog(np.arange(1, len(n) + 1), n, label=label)
    top5 = counts["poems"].most_common(5)
    ax.annotate(" ".join(c for c, _ in top5) + " ...", (1, top5[0][1]), textcoords="offset points",
                xytext=(2, -16), fontsize=11)
    ax.set_xlabel(labels[lang][0])
    ax.set_ylabel(labels[lang][1])
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=9, loc="upper right")
