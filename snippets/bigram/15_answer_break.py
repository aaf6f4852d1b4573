from collections import Counter

import numpy as np

import bigram
from bigram import CountBigram, generate
from minigpt.data import load_shakespeare, shakespeare_corpus

corpus = shakespeare_corpus()
tok, V = corpus.tokenizer, corpus.tokenizer.vocab_size
text = load_shakespeare()[: len(corpus.train)]
pairs = Counter(zip(text, text[1:]))  # the check of the check section


def no_shift(ids, V):  # the bug: b = ids[:-1], not ids[1:]; each token follows itself
    a, b = ids[:-1], ids[:-1]
    return np.bincount(a * V + b, minlength=V * V).astype(np.int32).reshape(V, V)


right = bigram.count_pairs
for name, counter in (("right", right), ("no shift", no_shift)):
    bigram.count_pairs = counter  # CountBigram calls bigram.count_pairs
    model = CountBigram(corpus.train, V)
    N = model.counts
    same = all(N[tok.stoi[a], tok.stoi[b]] == n for (a, b), n in pairs.items())
    rng = np.random.default_rng(0)
    sample = tok.decode(generate(model, tok.stoi["T"], 20, rng))
    train, val = model.nll(corpus.train), model.nll(corpus.val)
    print(f"{name:<9} train {train:.3f}  val {val:.3f}  "
          f"sample {sample!r}  Counter check: {same}")
bigram.count_pairs = right
