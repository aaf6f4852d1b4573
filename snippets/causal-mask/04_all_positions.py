import numpy as np

from minigpt.functional import cross_entropy
from minigpt.gpt import causal_mask
from minigpt.nn import Embedding, Linear
from minigpt.tokenizer import CharTokenizer
from minigpt_course.lessons import lesson_module

OneHead = lesson_module("self-attention", "one_head").OneHead  # lesson 8's head: c_q, c_k, c_v

text = "相见时难别亦难，东风无力百花残。"
tok = CharTokenizer.from_text(text)
ids = np.array([tok.encode(text)])  # (1, 16)
x, y = ids[:, :-1], ids[:, 1:]  # (1, T) inputs, (1, T) targets: y[t] = x[t + 1]
V, T, C = tok.vocab_size, x.shape[1], 32
rng = np.random.default_rng(0)  # the opening's model, untrained
wte, wpe = Embedding(V, C, rng, std=1.0), Embedding(T, C, rng, std=1.0)
head, out = OneHead(C, C, rng), Linear(C, V, True, rng)


def model(idx, masked=True):  # 01_peek.py's TinyLM.forward: ids (1, t) -> logits (1, t, V)
    t = idx.shape[1]
    h = wte(idx) + wpe(np.arange(t))  # (1, t, C)
    q, k, v = head.c_q(h), head.c_k(h), head.c_v(h)  # (1, t, C) each
    scores = q @ k.transpose(-2, -1) * (1.0 / np.sqrt(C))  # (1, t, t)
    if masked:
        scores = scores.masked_fill(causal_mask(t), -np.inf)
    return out(scores.softmax(dim=-1) @ v)


print("input ", tok.decode(x[0].tolist()))
print("target", tok.decode(y[0].tolist()))
logits = model(x)  # one pass: (1, T, V), T predictions
each = [cross_entropy(logits[:, t], y[:, t]).item() for t in range(T)]  # T losses
print(f"one pass: logits {logits.shape}, {T} predictions; loss = mean of {T} cross-entropies:",
      np.isclose(cross_entropy(logits, y).item(), np.mean(each)))

for name, masked in (("with the mask", True), ("without", False)):
    full = model(x, masked).data  # (1, T, V)
    alone = np.stack([model(x[:, :t + 1], masked).data[:, -1] for t in range(T)], axis=1)  # (1, T, V)
    same = np.abs(full - alone).max(-1)[0] < 1e-6  # (T,)
    print(f"{name:<13}: position t of one pass = the prefix x[:t+1] run alone:"
          f" {same.sum()} of {T} positions")
