import numpy as np

from minigpt.sampling import sample

logits = np.array([[2.0, 1.0, 0.5]])
for kwargs in (dict(temperature=-1), dict(top_p=0.0), dict(top_k=0)):
    try:
        sample(logits, rng=np.random.default_rng(0), **kwargs)
    except ValueError as e:
        print(f"ValueError: {e}")
