import numpy as np

from gradcheck import gradcheck, numerical_grad
from minigpt.config import GPTConfig
from minigpt.gpt import GPT
from tensor import Tensor

rng = np.random.default_rng(0)
x, b = rng.standard_normal((2, 3, 4)), rng.standard_normal(4)  # x (B, T, C), b (C,)
calls = 0


def f(x, b):  # mean(tanh(x + b))
    global calls
    calls += 1
    return (x + b).tanh().mean()


def step(n, what, shapes, note=""):
    print(f"{n} {what:20} {shapes:30} {note}".rstrip())


step(" ", "inputs", f"x {x.shape}  b {b.shape}")
X, B = Tensor(x.copy(), requires_grad=True), Tensor(b.copy(), requires_grad=True)
f(X, B).backward()
step(1, "f(x, b).backward()", f"x.grad {X.grad.shape}  b.grad {B.grad.shape}", f"{calls} call of f")
calls = 0
num_x = numerical_grad(lambda a: f(Tensor(a), Tensor(b)).data.item(), x.copy())
step(2, "numerical_grad, x", f"num_x {num_x.shape}", f"{x.size} elements, {calls} calls of f")
calls = 0
num_b = numerical_grad(lambda a: f(Tensor(x), Tensor(a)).data.item(), b.copy())
step(3, "numerical_grad, b", f"num_b {num_b.shape}", f"{b.size} elements, {calls} calls of f")
err = [np.abs(X.grad - num_x), np.abs(B.grad - num_b)]
worst = max(e.max() for e in err)
step(4, "|grad - num|", f"{err[0].shape}  {err[1].shape}", f"largest < 1e-8: {worst < 1e-8}")
bad = sum(int((e > 1e-8 + 1e-5 * np.abs(n)).sum()) for e, n in zip(err, [num_x, num_b]))
step(5, "> atol + rtol |num|", f"{bad} of {x.size + b.size} elements")
print("same as gradcheck(f, x, b):", worst == gradcheck(f, x, b))
n, here = GPT(GPTConfig()).num_params(), x.size + b.size
print(f"cost: 2 N + 1 calls of f for N input numbers; here N = {here}: {2 * here + 1} calls")
print(f"      the numpy GPT at GPTConfig(): N = {n:,} weights, {2 * n + 1:,} forward passes")
