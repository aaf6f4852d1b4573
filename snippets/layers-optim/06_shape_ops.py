import numpy as np

from minigpt_course.lessons import lesson_module

lesson_module("softmax-cross-entropy", "tensor")  # lesson 3's engine, which nn.py builds on
gradcheck = lesson_module("autograd", "gradcheck").gradcheck  # lesson 2's check, on that engine

rng = np.random.default_rng(0)
a = rng.standard_normal((2, 3, 4))  # (B, T, C)
checks = [
    ("mean()", lambda a: a.mean().tanh()),
    ("mean(dim=-1)", lambda a: a.mean(-1).tanh().sum()),
    ("reshape(6, 4)", lambda a: a.reshape(6, 4).tanh().sum()),
    ("permute(2, 0, 1)", lambda a: (a.permute(2, 0, 1) * np.arange(24.0).reshape(4, 2, 3)).sum()),
    ("transpose(-2, -1)", lambda a: (a.transpose(-2, -1) * np.arange(24.0).reshape(2, 4, 3)).sum()),
    ("a[:, 1:]", lambda a: a[:, 1:].tanh().sum()),
    ("a[:, [0, 2, 0]]", lambda a: a[:, [0, 2, 0]].tanh().sum()),
]
for name, f in checks:
    print(f"{name:18} passed, worst error < 1e-8: {gradcheck(f, a) < 1e-8}")
