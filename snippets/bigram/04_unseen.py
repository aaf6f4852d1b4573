import numpy as np

from bigram import CountBigram
from minigpt.data import poem_corpus, shakespeare_corpus

for corpus in (shakespeare_corpus(), poem_corpus()):
    tok, V = corpus.tokenizer, corpus.tokenizer.vocab_size
    model = CountBigram(corpus.train, V)
    a, b = corpus.val[:-1], corpus.val[1:]  # (T-1,) pairs of the validation split
    no_row = model.row_sums[a] == 0  # a never seen in train: 0 / 0
    unseen = (model.counts[a, b] == 0) & ~no_row  # a seen, never followed by b: 0 / n
    k = int(np.argmax(unseen))
    print(f"{corpus.name}: {len(a):,} val pairs; pair never seen in train "
          f"{unseen.sum():,} ({unseen.mean():.2%}), its a never seen {no_row.sum():,}")
    print(f"  first unseen pair {tok.decode(corpus.val[k:k + 2])!r}")
    n, total = model.counts[a[k], b[k]], model.row_sums[a[k]]
    with np.errstate(divide="ignore"):
        cost = -np.log(n / total)
    print(f"  P(b | a) of that pair = {n} / {total:,}; -ln P = {cost}")
    print("  alpha     train     val   -ln P(that pair)")
    for alpha in (0.0, 0.001, 0.01, 0.1, 1.0):
        model.alpha = alpha
        with np.errstate(divide="ignore", invalid="ignore"):
            cost = -np.log(model.probs(a[k:k + 1])[0, b[k]])
        train, val = model.nll(corpus.train), model.nll(corpus.val)
        print(f"  {alpha:<6} {train:8.3f} {val:8.3f}   {cost:8.3f}")
