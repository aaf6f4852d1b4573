import numpy as np

from bigram import CountBigram, LearnedBigram, fit, generate
from minigpt.data import poem_corpus, shakespeare_corpus

corpus = shakespeare_corpus()
tok, V = corpus.tokenizer, corpus.tokenizer.vocab_size
model = LearnedBigram(V, rng=np.random.default_rng(0))
T = tok.encode("T")[0]


def sample(seed, n=60):
    return tok.decode(generate(model, T, n, np.random.default_rng(seed)))


print(f"shakespeare, learned table, before training (val {model.nll(corpus.val):.3f}):")
print(f"  seed 0: {sample(0)!r}")
fit(model, corpus, steps=300, lr=0.3, seed=0)
print(f"after 300 steps (val {model.nll(corpus.val):.3f}):")
for seed in (0, 0, 1):
    print(f"  seed {seed}: {sample(seed)!r}")

corpus = poem_corpus()
tok, V = corpus.tokenizer, corpus.tokenizer.vocab_size
model = CountBigram(corpus.train, V)
print("poems, count table, from <bos> to <eos>:")
for seed in (0, 1, 2):
    rng = np.random.default_rng(seed)
    ids = generate(model, tok.bos_id, 80, rng, stop=tok.eos_id)
    print(f"  seed {seed}: {len(ids) - 1:3d} tokens {tok.decode(ids)}")
