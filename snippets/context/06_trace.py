import numpy as np

from minigpt.data import shakespeare_corpus
from window_mlp import WindowMLP

tok = shakespeare_corpus().tokenizer
model = WindowMLP(tok.vocab_size, window=4, rng=np.random.default_rng(0))
idx = np.array([tok.encode("the "), tok.encode("ROME")])  # (B, k) = (2, 4)
B, k = idx.shape
e = model.wte(idx)  # (B, k, d)
h_row = model.wte.weight.data[tok.encode("h")[0]]  # (d,)
print(f"1 e = wte(idx)          {e.shape}   e[0, 1] is the vector of 'h': {np.array_equal(e.data[0, 1], h_row)}")
x = e.reshape(B, k * e.shape[-1])  # (B, k*d)
print(f"2 x = e.reshape(B, k*d) {x.shape}     x[0, 16:32] == e[0, 1]: {np.array_equal(x.data[0, 16:32], e.data[0, 1])}")
a = model.fc(x)  # (B, H)
print(f"3 a = fc(x)             {a.shape}")
n = model.ln(a)  # (B, H)
print(f"4 n = ln(a)             {n.shape}")
h = n.tanh()  # (B, H)
print(f"5 h = n.tanh()          {h.shape}     in (-1, 1): {bool((abs(h.data) < 1).all())}")
logits = model.lm_head(h)  # (B, V)
print(f"6 logits = lm_head(h)   {logits.shape}")
print(f"same as model(idx): {np.array_equal(logits.data, model(idx).data)}")
d, H, V = e.shape[-1], a.shape[-1], logits.shape[-1]
print(f"multiply-adds per window: fc k*d*H = {k * d * H:,} + lm_head H*V = {H * V:,} = {k * d * H + H * V:,}")
