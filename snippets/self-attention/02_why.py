import numpy as np

from minigpt.tensor import Tensor

d, n = 16, 3  # vector size; lesson 7's window: the last n characters


def weights(line):  # (T, T) attention weights with q = k = x
    vectors = [np.random.default_rng(ord(c)).standard_normal(d) for c in line]  # T x (d,)
    x = Tensor(np.stack(vectors))  # (T, d)
    return (x @ x.T * (1 / np.sqrt(d))).softmax(dim=-1).data


for line in ("相见时难别亦难", "去岁欢游何处去"):
    T = len(line)
    window = [f"{c}" if t >= T - n else "·" for t, c in enumerate(line)]
    print(f"{line}  window n={n} reads: {' '.join(window)}")
    last = weights(line)[-1]  # the last character's row
    print(f"{'':7}  attention, last row: " + " ".join(f"{c}{p:.2f}" for c, p in zip(line, last)))
    outside = last[:T - n]  # weights on positions before the window
    print(f"{'':7}  largest weight outside the window: {line[outside.argmax()]} {outside.max():.2f}")
