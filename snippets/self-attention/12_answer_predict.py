import numpy as np

rng = np.random.default_rng(0)
d, N = 64, 100_000
for std in (1.0, 0.5):
    q, k = rng.normal(0, std, (N, d)), rng.normal(0, std, (N, d))
    dots = (q * k).sum(-1)  # (N,): var = d * std^2 * std^2
    predicted = np.sqrt(d) * std**2
    print(f"entries std {std}: std of q.k predicted {predicted:.2f} measured {dots.std():.2f};"
          f" after / sqrt(d): predicted {predicted / np.sqrt(d):.2f}"
          f" measured {(dots / np.sqrt(d)).std():.2f}")
