import numpy as np

from functional import cross_entropy
from tensor import Tensor

np.set_printoptions(precision=4, suppress=True)
x = np.array([[2.0, 1.0, 0.1, -1.0],
              [0.5, 0.5, 3.0, 0.0]])  # logits (N, V) = (2, 4)
targets = np.array([0, 3])
N, V = x.shape

logits = Tensor(x, requires_grad=True)
loss = cross_entropy(logits, targets)  # mean of -log p, one op
p = logits.softmax(-1).data
print("p of the right class:", p[np.arange(N), targets], "  -log p:", -np.log(p[np.arange(N), targets]))
print(f"cross_entropy: {loss.data:.4f}, made by one op: {loss._op!r}, from {len(loss._prev)} tensor")
loss.backward()
print("autograd, d loss / d logits:")
print(logits.grad)

one_hot = np.eye(V)[targets]  # (N, V), a 1 in each row's target column
print("(softmax - one_hot) / N:")
print((p - one_hot) / N)


def loss_at(a):
    return cross_entropy(Tensor(a), targets).data


h, numeric = 1e-6, np.zeros_like(x)
for i in np.ndindex(x.shape):  # central differences: (L(x + h) - L(x - h)) / 2h
    up, down = x.copy(), x.copy()
    up[i] += h
    down[i] -= h
    numeric[i] = (loss_at(up) - loss_at(down)) / (2 * h)
print(f"autograd vs central differences: max |diff| < 1e-8: {np.abs(logits.grad - numeric).max() < 1e-8}")
print("row sums of the gradient:", np.round(logits.grad.sum(axis=1), 12) + 0.0)
