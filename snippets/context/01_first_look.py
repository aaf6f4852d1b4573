import numpy as np

from minigpt.data import shakespeare_corpus
from window_mlp import WindowMLP, evaluate, generate, train, windows

corpus = shakespeare_corpus()
tok = corpus.tokenizer
prompt = tok.encode("ROMEO:\n")
for k in (1, 4):
    rng = np.random.default_rng(0)
    model = WindowMLP(tok.vocab_size, k, rng=rng)
    train(model, corpus, 600, rng=rng)
    x, y = windows(corpus.val, k, 16)
    print(f"--- window {k}: validation loss {evaluate(model, x[:20_000], y[:20_000]):.3f}")
    print(tok.decode(generate(model, prompt, 160, np.random.default_rng(1))))
