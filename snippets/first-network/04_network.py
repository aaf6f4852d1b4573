import numpy as np

rng = np.random.default_rng(0)
H = 10  # hidden width: the network is 1 -> 10 -> 1
W1, b1 = rng.normal(0, 1, (1, H)), rng.normal(0, 1, H)  # (1, 10), (10,)
W2, b2 = rng.normal(0, 0.3, (H, 1)), np.zeros(1)  # (10, 1), (1,)
x = np.array([[-2.0], [-1.0], [0.0], [1.0], [2.0]])  # a batch of 5 inputs: (5, 1)
a = x @ W1 + b1  # (5, 1) @ (1, 10) + (10,) -> (5, 10)
hidden = np.tanh(a)  # (5, 10) the activation, number by number
out = hidden @ W2 + b2  # (5, 10) @ (10, 1) + (1,) -> (5, 1)
print("x", x.shape, "-> layer 1", a.shape, "-> tanh", hidden.shape,
      "-> layer 2", out.shape)
print("out[:, 0] =", np.round(out[:, 0], 4))
print("parameters of 1 -> 10 -> 1:", W1.size + b1.size + W2.size + b2.size)
n = 4 * 8 + 8 + 8 * 1 + 1  # W1 (4, 8), b1 (8,), W2 (8, 1), b2 (1,)
print("parameters of 4 -> 8 -> 1: ", n, "(40 weights, 9 biases)")
no_act = (x @ W1 + b1) @ W2 + b2  # the same two layers without tanh
w, b = (W1 @ W2).item(), (b1 @ W2 + b2).item()  # ... are one line w * x + b
print("without tanh: out[:, 0] =", np.round(no_act[:, 0], 4))
print(f"  = w * x + b with w = {w:.4f}, b = {b:.4f}:",
      np.allclose(no_act, w * x + b))
