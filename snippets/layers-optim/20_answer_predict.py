import numpy as np

from minigpt_course.lessons import lesson_module

Tensor = lesson_module("softmax-cross-entropy", "tensor").Tensor  # lesson 3's engine, which nn.py builds on

x = np.arange(24.0).reshape(2, 3, 4)  # (B, T, C)
predictions = [  # (name, f(x, b), predicted b.grad)
    ("(x + b).sum()", lambda x, b: (x + b).sum(), np.full(4, 2 * 3)),  # B * T = 6
    ("(x + b).mean()", lambda x, b: (x + b).mean(), np.full(4, 6 / 24)),  # B * T / (B * T * C) = 6 / 24
    ("(x * b).sum()", lambda x, b: (x * b).sum(), x.sum(axis=(0, 1))),  # sum of x[:, :, c] over (B, T)
]
for name, f, predicted in predictions:
    b = Tensor(np.ones(4), requires_grad=True)
    f(Tensor(x), b).backward()
    print(f"{name:15} b.grad {b.grad.round(4).tolist()}  as predicted: {np.allclose(b.grad, predicted)}")
