import numpy as np

from functional import cross_entropy
from tensor import Tensor

np.set_printoptions(precision=4, suppress=True)
rng = np.random.default_rng(0)
x = rng.standard_normal((3, 5)) * 2  # logits (N, V) = (3, 5)
targets = np.array([2, 0, 4])
N, V = x.shape


def show(step, name, a):
    print(f"{step} {name:<10} {str(np.shape(a)):<7} {np.array2string(np.asarray(a), prefix=' ' * 20)}")


show(1, "max", m := x.max(axis=1, keepdims=True))  # (N, 1)
show(2, "shifted", shifted := x - m)  # (N, V), largest 0 in each row
show(3, "logsumexp", lse := np.log(np.exp(shifted).sum(axis=1, keepdims=True)))  # (N, 1)
show(4, "log_probs", log_probs := shifted - lse)  # (N, V)
show(5, "picked", picked := log_probs[np.arange(N), targets])  # (N,) log p[target]
show(6, "loss", loss := -picked.mean())  # ()
grad = np.exp(log_probs)  # (N, V) softmax
grad[np.arange(N), targets] -= 1.0  # minus one_hot
show(7, "grad", grad := grad / N)  # (N, V)

logits = Tensor(x, requires_grad=True)
out = cross_entropy(logits, targets)
out.backward()
print(f"same as cross_entropy(logits, targets): loss {np.isclose(out.data, loss)}, grad {np.allclose(logits.grad, grad)}")
n = 8 * 256 * 6831  # poems-cpu: N = batch 8 * block 256 rows, V = 6,831
print(f"one (N, V) array at poems-cpu: {n:,} numbers, {n * 8 / 1e6:.0f} MB in float64, {n * 4 / 1e6:.0f} MB in float32")
