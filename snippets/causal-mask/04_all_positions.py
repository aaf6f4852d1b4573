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
model = gpt.GPT(GPTConfig(vocab_size=tok.vocab_size, block_size=T, n_layer=2, n_head=2, n_embd=32), seed=0)
print("input ", tok.decode(x[0].tolist()))
print("target", tok.decode(y[0].tolist()))

logits, loss = model(x, y)  # one pass: (1, T, V), T predictions
print(f"one pass: logits {logits.shape}, {T} predictions; loss = mean of {T} cross-entropies:",
      np.isclose(loss.item(), np.mean([cross_entropy(logits[:, t], y[:, t]).item() for t in range(T)])))
for name, mask in (("with the mask", gpt.causal_mask), ("without", lambda size: np.zeros((size, size), dtype=bool))):
    original, gpt.causal_mask = gpt.causal_mask, mask
    full = model(x)[0].data  # (1, T, V)
    alone = np.stack([model(x[:, :t + 1])[0].data[:, -1] for t in range(T)], axis=1)  # prefix x[:t+1] alone
    gpt.causal_mask = original
    same = np.abs(full - alone).max(-1)[0] < 1e-5  # (T,)
    print(f"{name:<13}: position t of one pass = the prefix x[:t+1] run alone: {same.sum()} of {T} positions")
