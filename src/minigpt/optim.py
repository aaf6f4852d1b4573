"""Optimisers for the numpy engine: SGD (with momentum), AdamW, and gradient clipping.

The update rules are torch's; the parameters are updated in place and keep their dtype.
"""

from __future__ import annotations

import math

import numpy as np

from .tensor import Tensor


def _as_list(params) -> list[Tensor]:
    params = list(params)
    if not params:
        raise ValueError("optimizer got an empty parameter list")
    for p in params:
        if not isinstance(p, Tensor):
            raise TypeError(f"optimizer params must be Tensors, got {type(p).__name__}")
    return params


class Optimizer:
    def __init__(self, params, lr: float) -> None:
        if lr < 0:
            raise ValueError(f"lr must be >= 0, got {lr}")
        self.params = _as_list(params)
        self.lr = lr

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = None

    def _check_buffers(self, name: str, buffers) -> list:
        if len(buffers) != len(self.params):
            raise ValueError(f"load_state_dict: {name} has {len(buffers)} entries, expected {len(self.params)}")
        out = []
        for i, (b, p) in enumerate(zip(buffers, self.params)):
            if b is None:
                out.append(None)
                continue
            b = np.asarray(b)
            if b.shape != p.shape:
                raise ValueError(f"load_state_dict: {name}[{i}] has shape {b.shape}, expected {p.shape}")
            out.append(b.astype(p.dtype, copy=True))
        return out


class SGD(Optimizer):
    """p -= lr * buf, with buf = momentum * buf + (grad + weight_decay * p)."""

    def __init__(self, params, lr: float, momentum: float = 0.0, weight_decay: float = 0.0) -> None:
        super().__init__(params, lr)
        self.momentum, self.weight_decay = momentum, weight_decay
        self.buffers: list[np.ndarray | None] = [None] * len(self.params)

    def step(self) -> None:
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            g = p.grad
            if self.weight_decay:
                g = g + self.weight_decay * p.data
            if self.momentum:
                if self.buffers[i] is None:
                    self.buffers[i] = np.array(g, copy=True)
                else:
                    self.buffers[i] *= self.momentum
                    self.buffers[i] += g
                g = self.buffers[i]
            p.data -= self.lr * g

    def state_dict(self) -> dict:
        return {"lr": self.lr, "momentum": self.momentum, "weight_decay": self.weight_decay,
                "momentum_buffer": [None if b is None else b.copy() for b in self.buffers]}

    def load_state_dict(self, state: dict) -> None:
        buffers = self._check_buffers("momentum_buffer", state["momentum_buffer"])
        self.lr, self.momentum, self.weight_decay = state["lr"], state["momentum"], state["weight_decay"]
        self.buffers = buffers


class AdamW(Optimizer):
    """Adam with bias correction and decoupled weight decay (p *= 1 - lr * weight_decay)."""

    def __init__(self, params, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.01) -> None:
        super().__init__(params, lr)
        if not (0.0 <= betas[0] < 1.0 and 0.0 <= betas[1] < 1.0):
            raise ValueError(f"betas must be in [0, 1), got {betas}")
        self.betas, self.eps, self.weight_decay = tuple(betas), eps, weight_decay
        self.t = 0
        self.m: list[np.ndarray] = [np.zeros_like(p.data) for p in self.params]  # first moment
        self.v: list[np.ndarray] = [np.zeros_like(p.data) for p in self.params]  # second moment

    def step(self) -> None:
        self.t += 1
        b1, b2 = self.betas
        step_size = self.lr / (1.0 - b1**self.t)  # bias corrections, as Python floats
        root_bc2 = math.sqrt(1.0 - b2**self.t)
        for p, m, v in zip(self.params, self.m, self.v):
            if p.grad is None:
                continue
            g = p.grad
            if self.weight_decay:
                p.data *= 1.0 - self.lr * self.weight_decay
            m *= b1
            m += (1.0 - b1) * g
            v *= b2
            v += (1.0 - b2) * (g * g)
            p.data -= step_size * m / (np.sqrt(v) / root_bc2 + self.eps)

    def state_dict(self) -> dict:
        return {"lr": self.lr, "betas": self.betas, "eps": self.eps, "weight_decay": self.weight_decay,
                "step": self.t, "exp_avg": [m.copy() for m in self.m], "exp_avg_sq": [v.copy() for v in self.v]}

    def load_state_dict(self, state: dict) -> None:
        m = self._check_buffers("exp_avg", state["exp_avg"])
        v = self._check_buffers("exp_avg_sq", state["exp_avg_sq"])
        self.lr, self.betas, self.eps = state["lr"], tuple(state["betas"]), state["eps"]
        self.weight_decay, self.t = state["weight_decay"], int(state["step"])
        self.m, self.v = m, v


# --8<-- [start:clip_grad_norm]
def clip_grad_norm_(params, max_norm: float) -> float:
    """Scale all gradients so their joint L2 norm is at most ``max_norm``; return the norm before."""
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return 0.0
    total = math.sqrt(sum(float(np.dot(g.ravel(), g.ravel())) for g in grads))
    coef = max_norm / (total + 1e-6)
    if coef < 1.0:
        for g in grads:
            g *= coef
    return total
# --8<-- [end:clip_grad_norm]
