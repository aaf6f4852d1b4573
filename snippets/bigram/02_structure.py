import numpy as np

from bigram import CountBigram
from minigpt.data import poem_corpus, shakespeare_corpus

for corpus, a in ((shakespeare_corpus(), "q"), (poem_corpus(), "月")):
    tok, V = corpus.tokenizer, corpus.tokenizer.vocab_size
    model = CountBigram(corpus.train, V)
    N = model.counts  # (V, V)
    seen = np.count_nonzero(N)
    print(f"{corpus.name}: counts {N.shape} {N.dtype}, {N.nbytes:,} bytes, "
          f"{seen:,} of {N.size:,} cells not 0 ({seen / N.size:.2%})")
    print(f"  pairs counted {N.sum():,} = len(train) - 1 = {len(corpus.train) - 1:,}")
    i = tok.encode(a)[0]
    p = model.probs(np.array([i]))[0]  # (V,) the row of a, normalised
    top = [j for j in np.argsort(-N[i], kind="stable")[:5] if N[i, j] > 0]
    print(f"  row {a!r}: {N[i].sum():,} pairs, next tokens seen: "
          f"{np.count_nonzero(N[i])}, sum of P = {p.sum():.4f}")
    nexts = [f"{tok.decode([j])!r} {N[i, j]} ({p[j]:.3f})" for j in top]
    print("  next: " + "  ".join(nexts))
