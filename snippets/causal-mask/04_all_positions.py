import numpy as np

import minigpt.gpt as gpt
from minigpt.config import GPTConfig
from minigpt.functional import cross_entropy
from minigpt.tokenizer import CharTokenizer

text = "相见时难别亦难，东风无力百花残。"
tok = CharTokenizer.from_text(text)
ids = np.array([tok.encode(text)])  # (1, 16)
x, y = ids[:, :-1], ids[:, 1:]  # (1, T) inputs, (1, T) targets: y[t] = x[t + 1]
T = x.shape[1]
config = GPTConfig(vocab_size=tok.vocab_size, block_size=T, n_layer=2, n_head=2, n_embd=32)
model = gpt.GPT(config, seed=0)
print("input ", tok.decode(x[0].tolist()))
print("target", tok.decode(y[0].tolist()))

logits, loss = model(x, y)  # one pass: (1, T, V), T predictions
each = [cross_entropy(logits[:, t], y[:, t]).item() for t in range(T)]  # T losses
print(f"one pass: logits {logits.shape}, {T} predictions; loss = mean of {T} cross-entropies:",
      np.isclose(loss.item(), np.mean(each)))


def see_all(size):  # (size, size), all False
    return np.zeros((size, size), dtype=bool)


for name, mask in (("with the mask", gpt.causal_mask), ("without", see_all)):
    original, gpt.causal_mask = gpt.causal_mask, mask
    full = model(x)[0].data  # (1, T, V)
    alone = np.stack([model(x[:, :t + 1])[0].data[:, -1] for t in range(T)], axis=1)  # (1, T, V)
    gpt.causal_mask = original
    same = np.abs(full - alone).max(-1)[0] < 1e-5  # (T,)
    print(f"{name:<13}: position t of one pass = the prefix x[:t+1] run alone:"
          f" {same.sum()} of {T} positions")
