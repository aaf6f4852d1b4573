import numpy as np

from minigpt_course.lessons import lesson_module

lesson_module("softmax-cross-entropy", "tensor")  # lesson 3's engine, which nn.py builds on
gradcheck = lesson_module("autograd", "gradcheck").gradcheck  # lesson 2's check, on that engine

rng = np.random.default_rng(0)
a, b = rng.standard_normal((2, 1, 4)), rng.standard_normal((3, 1))
x, c, w = rng.standard_normal((2, 3, 4)), rng.standard_normal(4), rng.standard_normal((5, 4))
for name, f, args in [("x (2, 3, 4) + b (4,)", lambda x, c: (x + c).tanh().sum(), (x, c)),
                      ("(2, 1, 4) * (3, 1)", lambda a, b: (a * b).tanh().sum(), (a, b)),
                      ("x (2, 3, 4) @ w.T (4, 5)", lambda x, w: (x @ w.T).tanh().sum(), (x, w))]:
    print(f"gradcheck {name:24} passed, worst error < 1e-8: {gradcheck(f, *args) < 1e-8}")
