import numpy as np

from bigram import CountBigram
from minigpt.data import poem_corpus, shakespeare_corpus

print("loss in nats per token   uniform   unigram   bigram")
for corpus in (shakespeare_corpus(), poem_corpus()):
    V = corpus.tokenizer.vocab_size
    counts = np.bincount(corpus.train, minlength=V)  # (V,)
    unigram = counts / len(corpus.train)  # P(b): no context at all
    bigram = CountBigram(corpus.train, V)  # (V, V) P(b | a): one token of context
    for split, ids in (("train", corpus.train), ("val", corpus.val)):
        with np.errstate(divide="ignore", invalid="ignore"):
            uni = float(-np.log(unigram[ids[1:]]).mean())
            bi = bigram.nll(ids)
        name = f"{corpus.name:<11} {split:<5}"
        print(f"{name}      {np.log(V):7.3f}   {uni:7.3f}  {bi:7.3f}")
