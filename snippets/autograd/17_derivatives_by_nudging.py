import numpy as np


def grad_by_nudging(f, theta, h=1e-6):  # lesson 0's, from its exercise 1
    base = f(theta)
    grad = np.zeros_like(theta)  # (n,)
    for i in range(theta.size):
        theta[i] += h
        grad[i] = (f(theta) - base) / h  # dL/dtheta[i]
        theta[i] -= h  # put it back before nudging the next one
    return grad


functions = [  # f, its name, its derivative as the fold works it out, and that formula's name
    (lambda x: x**2, "x**2", lambda x: 2 * x, "2x"),
    (np.exp, "exp(x)", np.exp, "exp(x)"),
    (np.log, "ln(x)", lambda x: 1 / x, "1/x"),
    (np.tanh, "tanh(x)", lambda x: 1 - np.tanh(x) ** 2, "1 - tanh(x)**2"),
    (lambda x: x**2 * np.exp(x), "x**2 exp(x)",  # the product f g, f = x**2, g = exp(x)
     lambda x: 2 * x * np.exp(x) + x**2 * np.exp(x), "f'g + fg'"),
]
print(f"{'f(x)':<12} {'slope by calculus':<17} {'x':>4} {'nudged':>10} {'calculus':>10} {'difference':>11}")
for f, name, slope, formula in functions:
    for x in (0.5, 1.0, 1.5):
        nudged = grad_by_nudging(lambda t: f(t[0]), np.array([x]))[0]  # theta has one entry, x
        print(f"{name:<12} {formula:<17} {x:4g} {nudged:10.6f} {slope(x):10.6f} {nudged - slope(x):11.0e}")
        name = formula = ""
