import numpy as np

from window_mlp import WindowMLP

d, H = 16, 64
for V, k in ((69, 32), (6831, 16), (6831, 72)):
    predicted = V * d + (k * d * H + H) + 2 * H + (H * V + V)
    model = WindowMLP(V, k, rng=np.random.default_rng(0))
    measured = sum(p.numel() for p in model.parameters())
    share = model.fc.weight.numel() / measured
    print(f"V={V:5d} k={k:2d}: predicted {predicted:7,d}  measured {measured:7,d}  fc.weight {share:5.1%} of it")
