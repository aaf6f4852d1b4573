import json
from collections import Counter

import numpy as np

from minigpt.data import data_dir, load_poems, poem_corpus
from minigpt.manifest import poem_files

raw = [r for f in poem_files() for r in json.loads((data_dir() / f).read_bytes())]
texts = ["".join(r.get("paragraphs") or []) for r in raw]
order = np.random.default_rng(1337).permutation(len(texts))
val = {texts[i] for i in order[:round(0.05 * len(texts))]}
train = {texts[i] for i in order[round(0.05 * len(texts)):]}
print(f"raw records split 95/5 by poem, no duplicate rule: {len(val & train)} texts on both sides")

poems = [p for p in load_poems() if p.form is not None]  # (38,521)
n_val = round(0.05 * len(poems))
random = np.random.default_rng(1337).permutation(len(poems))[:n_val]
for name, part in (("all four-form poems", poems), ("a random 5%", [poems[i] for i in random]),
                   ("the last 5%", poems[-n_val:])):
    share = Counter(p.form for p in part)["五言绝句"] / len(part)
    authors = ", ".join(f"{a} {n}" for a, n in Counter(p.author for p in part).most_common(3))
    print(f"{name} ({len(part):,} poems): 五言绝句 {share:.1%}; most poems by {authors}")

corpus = poem_corpus()  # the real split: seed 1337, 5% of the four-form poems to validation
tok = corpus.tokenizer
sides = [{tok.decode(e).split("<sep>")[2] for e in np.split(s, np.flatnonzero(s == tok.bos_id)[1:])}
         for s in (corpus.train, corpus.val)]  # each side's poem texts
print("poem_corpus: poems on both sides:", len(sides[0] & sides[1]))
stream = np.concatenate([corpus.train, corpus.val])  # (N_train + N_val,)
cut = int(len(stream) * 0.95)  # a cut by token position, as for Shakespeare
print("cut the token stream at 95%:", tok.decode(stream[cut - 8:cut]), "|", tok.decode(stream[cut:cut + 8]))
