import numpy as np

from optim import AdamW
from toy import TinyLM, pairs

from functional import cross_entropy

x, y = pairs()
model = TinyLM(C=16, rng=np.random.default_rng(0))
opt = AdamW(model.parameters(), lr=0.03, weight_decay=0.0)
wte, head = model.wte, model.lm_head

h = wte.weight[x]  # (N,) -> (N, C)
print("1 wte.weight[idx]      ", h.shape)
logits = h @ head.weight.T + head.bias  # (N, C) @ (C, V) + (V,) -> (N, V)
print("2 h @ W.T + b          ", logits.shape)
loss = cross_entropy(logits, y)  # (N, V), (N,) -> ()
print("3 cross_entropy        ", loss.shape, f"{float(loss.data):.4f}")
print("same as model(x):", np.array_equal(logits.data, model(x).data))

opt.zero_grad()
loss.backward()
for name, p in model.named_parameters():
    print(f"4 backward: {name + '.grad':<20}", p.grad.shape)
before = {name: (p.data.copy(), p.grad.copy()) for name, p in model.named_parameters()}
opt.step()
# t = 1: m_hat = g, v_hat = g^2, so p - lr * m_hat / (sqrt(v_hat) + eps) = p - lr * g / (|g| + eps)
print("5 opt.step() == p - lr * g / (|g| + eps):", all(
    np.allclose(p.data, p0 - 0.03 * g / (np.abs(g) + 1e-8), rtol=0, atol=1e-15)
    for p, (p0, g) in zip(model.parameters(), before.values())))
print(f"cost of lm_head: N*C*V = {len(x)}*16*{head.weight.shape[0]} = {len(x) * 16 * head.weight.shape[0]:,} multiply-adds")
