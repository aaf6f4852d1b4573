import numpy as np

from window_mlp import WindowMLP

V, d, H = 69, 16, 64
print(f"V={V} d={d} H={H}: params = V*d + (k*d*H + H) + 2*H + (H*V + V)")
print("window  from code  formula  fc.weight  same")
for k in (1, 2, 4, 8, 16, 64):
    model = WindowMLP(V, k, n_embd=d, n_hidden=H, rng=np.random.default_rng(0))
    code = sum(p.numel() for p in model.parameters())
    formula = V * d + (k * d * H + H) + 2 * H + (H * V + V)
    print(f"{k:6d}  {code:9,d}  {formula:7,d}  {str(model.fc.weight.shape):>9}  {code == formula}")
print(f"each extra position: d*H = {d * H:,} numbers, all in fc.weight")
