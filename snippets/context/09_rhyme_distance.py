from collections import defaultdict

import numpy as np

from minigpt import poetry
from minigpt.data import poem_corpus
from window_mlp import WindowMLP

corpus = poem_corpus()
tok = corpus.tokenizer
ends = {tok.stoi[c] for c in poetry.LINE_ENDS}
dist, total, example = defaultdict(list), defaultdict(int), None
for stream in (corpus.train, corpus.val):
    for s, e in zip(np.flatnonzero(stream == tok.bos_id), np.flatnonzero(stream == tok.eos_id)):
        ids = stream[s : e + 1]  # <bos> form <sep> keywords <sep> poem <eos>
        seps = np.flatnonzero(ids == tok.sep_id)
        form, text = tok.decode(ids[1 : seps[0]]), tok.decode(ids[seps[1] + 1 : -1])
        total[form] += 1
        if not poetry.check_rhyme(text, form).ok:
            continue
        rhymes = [i - 1 for i in range(seps[1], len(ids)) if ids[i] in ends][1::2]  # last character of lines 2, 4, ...
        last = rhymes[-1]  # the position the model must fill with a rhyme
        dist[form].append((last - rhymes[-2], last - rhymes[-3] if len(rhymes) == 4 else 0, last - 1))
        if form == "七言律诗" and example is None:
            example = ids[: last + 1], last - rhymes[-3]


def span(v):
    return f"{v.min()}" if v.min() == v.max() else f"{v.min()}-{v.max()} (median {int(np.median(v))})"


print("form      rhyming/all    2 lines back  4 lines back  back to the form name")
for form in poetry.FORMS:
    d = np.array(dist[form])
    four = span(d[:, 1]) if d[:, 1].any() else "-"
    print(f"{form}  {len(d):6,d}/{total[form]:6,d}  {span(d[:, 0]):>12}  {four:>12}  {span(d[:, 2])}")

ids, back = example
print(f"\na 七言律诗 up to its last rhyme: ...{tok.decode(ids[-34:])}")
other = ids.copy()
other[-1 - back] = tok.stoi["月"]  # the rhyme of line 4, 32 characters back, changed
print(f"the same with line 4's rhyme {tok.decode(ids[-1 - back : -back])} -> 月")
for k in (16, 40):
    model = WindowMLP(tok.vocab_size, k, rng=np.random.default_rng(0))
    a, b = (model(np.array([seq[-1 - k : -1]])).data for seq in (ids, other))  # predict the last rhyme
    print(f"window {k}: sees position -{back}: {k >= back}   same prediction: {np.array_equal(a, b)}")
