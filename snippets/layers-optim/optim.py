"""Optimisers, lesson 4: SGD and AdamW update the parameters in place from their .grad."""

from __future__ import annotations

import numpy as np


# --8<-- [start:sgd]
class SGD:
    """p <- p - lr * grad."""

    def __init__(self, params, lr: float):
        self.params, self.lr = list(params), lr

    def step(self) -> None:
        for p in self.params:
            if p.grad is not None:
                p.data -= self.lr * p.grad

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = None
# --8<-- [end:sgd]


# --8<-- [start:adamw]
class AdamW(SGD):
    """Adam with bias correction and decoupled weight decay, as torch.optim.AdamW."""

    def __init__(self, params, lr: float = 1e-3, betas=(0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0.01):
        super().__init__(params, lr)
        self.betas, self.eps, self.weight_decay, self.t = betas, eps, weight_decay, 0
        self.m = [np.zeros_like(p.data) for p in self.params]  # running mean of the gradient
        self.v = [np.zeros_like(p.data) for p in self.params]  # running mean of its square

    def step(self) -> None:
        self.t += 1
        b1, b2 = self.betas
        for p, m, v in zip(self.params, self.m, self.v):
            if p.grad is None:
                continue
            p.data -= self.lr * self.weight_decay * p.data  # decay, decoupled from the gradient
            m[:] = b1 * m + (1 - b1) * p.grad
            v[:] = b2 * v + (1 - b2) * p.grad**2
            m_hat = m / (1 - b1**self.t)  # bias correction: m and v start at 0
            v_hat = v / (1 - b2**self.t)
            p.data -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
# --8<-- [end:adamw]
