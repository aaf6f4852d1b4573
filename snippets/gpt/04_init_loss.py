import numpy as np

from minigpt.config import GPTConfig
from minigpt.data import poem_corpus
from minigpt.gpt import GPT

corpus = poem_corpus()
V = corpus.tokenizer.vocab_size
x, y = corpus.get_batch("val", 8, 32, np.random.default_rng(0))  # (B, T), (B, T)
print(f"V = {V}, ln V = {np.log(V):.3f} (a uniform guess)")
for std in (0.02, 0.2, 1.0):
    model = GPT(GPTConfig(vocab_size=V, n_embd=32), seed=0)
    for name, w in model.named_parameters():
        if name.endswith("weight") and w.data.ndim == 2:  # every matrix and embedding
            w.data = w.data * (std / 0.02)  # re-scaled from N(0, 0.02) to N(0, std)
    logits, loss = model(x, y)
    p = np.exp(logits.data - logits.data.max(-1, keepdims=True))
    top = (p / p.sum(-1, keepdims=True)).max(-1).mean()
    print(f"std {std:<4}  logits std {logits.data.std():6.3f}  loss {float(loss.data):6.3f}  "
          f"mean top probability {top:.5f}")
