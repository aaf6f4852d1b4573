import numpy as np

from bigram import CountBigram
from minigpt.data import shakespeare_corpus

corpus = shakespeare_corpus()
V = corpus.tokenizer.vocab_size
model = CountBigram(corpus.train, V)
print(f"ln V = {np.log(V):.4f}")
for alpha in (1.0, 1e2, 1e4, 1e6):
    model.alpha = alpha  # alpha * V made-up pairs in every row
    train, val = model.nll(corpus.train), model.nll(corpus.val)
    print(f"alpha {alpha:>9,.0f}: train {train:.4f}  val {val:.4f}")
