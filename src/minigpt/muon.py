"""Muon: momentum, then each weight matrix's update made orthogonal (Keller Jordan et al., 2024).

AdamW scales every number of a gradient on its own. Muon treats a weight matrix as a matrix: it keeps a
momentum of the gradients, as SGD does, and replaces that (m, n) matrix U S V^T by U V^T, the orthogonal
matrix nearest to it, so that every direction the matrix maps gets a step of the same size, not only the
few directions that dominate the gradient. Five Newton-Schulz iterations (matrix products only) come close
enough to U V^T. It is meant for the matrices inside the blocks; embeddings, gains and biases stay with AdamW
(``TrainConfig.optimizer = "muon"`` splits them so: ``hidden_matrices``).

    >>> import torch
    >>> g = torch.randn(8, 3, generator=torch.Generator().manual_seed(0))
    >>> s = torch.linalg.svdvals(orthogonalize(g))
    >>> bool(((s > 0.6) & (s < 1.2)).all())  # every singular value near 1, none exactly
    True
"""

from __future__ import annotations

import torch

NS_COEFFS = (3.4445, -4.7750, 2.0315)  # the quintic's a, b, c: fast growth of small singular values, not exact


# --8<-- [start:orthogonalize]
def orthogonalize(g: torch.Tensor, steps: int = 5) -> torch.Tensor:
    """(..., m, n) -> the same shape with every singular value moved towards 1 (roughly 0.7 to 1.2).

    Newton-Schulz on X = G / |G|: X <- a X + (b A + c A^2) X with A = X X^T, which maps each singular value s
    to a s + b s^3 + c s^5 and leaves the singular vectors alone. Works on a stack of matrices at once."""
    a, b, c = NS_COEFFS
    wide = g.size(-2) <= g.size(-1)
    x = g if wide else g.mT  # A = X X^T is the smaller of the two products
    x = x / (torch.linalg.matrix_norm(x, keepdim=True) + 1e-7)  # all singular values <= 1
    for _ in range(steps):
        gram = x @ x.mT  # (m, m)
        x = a * x + (b * gram + c * gram @ gram) @ x
    return x if wide else x.mT
# --8<-- [end:orthogonalize]


class Muon(torch.optim.Optimizer):
    """Muon for 2-D parameters. Each step, per matrix W with gradient G:

        M <- momentum * M + (1 - momentum) * G
        U <- orthogonalize(G + momentum * (M - G))       (Nesterov: a look ahead along M)
        W <- W * (1 - lr * scale * weight_decay) - lr * scale * sqrt(max(1, rows / cols)) * U

    ``scale`` lets one learning-rate schedule drive AdamW and Muon together: a trainer sets every group's
    ``lr`` to the schedule's value, and Muon's step is that times ``scale`` (``muon_lr / lr``).
    Matrices of the same shape are orthogonalized as one stack, in ``ns_dtype`` (bfloat16 halves its time on a
    CPU with bf16 in hardware; the result only needs to be roughly orthogonal)."""

    def __init__(self, params, lr: float = 0.02, momentum: float = 0.95, weight_decay: float = 0.0,
                 scale: float = 1.0, ns_steps: int = 5, ns_dtype: torch.dtype = torch.float32):
        if not 0.0 <= momentum < 1.0:
            raise ValueError(f"Muon momentum must be in [0, 1), got {momentum!r}")
        super().__init__(params, dict(lr=lr, momentum=momentum, weight_decay=weight_decay, scale=scale,
                                      ns_steps=ns_steps))
        self.ns_dtype = ns_dtype
        for group in self.param_groups:
            for p in group["params"]:
                if p.dim() != 2:
                    raise ValueError(f"Muon updates matrices only; got a parameter of shape {tuple(p.shape)}")

    @torch.no_grad()
    def step(self, closure=None):
        loss = None if closure is None else closure()
        for group in self.param_groups:
            by_shape: dict[tuple[int, int], list[torch.Tensor]] = {}
            for p in group["params"]:
                if p.grad is not None:
                    by_shape.setdefault(tuple(p.shape), []).append(p)
            mom, step = group["momentum"], group["lr"] * group["scale"]
            for (rows, cols), ps in by_shape.items():
                grads = []
                for p in ps:
                    buf = self.state[p].setdefault("momentum_buffer", torch.zeros_like(p))
                    buf.lerp_(p.grad, 1 - mom)
                    grads.append(p.grad.lerp(buf, mom))
                updates = orthogonalize(torch.stack(grads).to(self.ns_dtype), group["ns_steps"])  # (n, rows, cols)
                for p, u in zip(ps, updates):
                    p.mul_(1 - step * group["weight_decay"])
                    p.add_(u.to(p.dtype), alpha=-step * max(1.0, rows / cols) ** 0.5)
        return loss


class Optimizers:
    """Several torch optimizers stepped as one: ``param_groups`` lists all their groups, and ``step``,
    ``zero_grad`` and the state dict cover each."""

    def __init__(self, *optimizers: torch.optim.Optimizer):
        self.optimizers = optimizers

    @property
    def param_groups(self) -> list[dict]:
        return [g for opt in self.optimizers for g in opt.param_groups]

    def step(self) -> None:
        for opt in self.optimizers:
            opt.step()

    def zero_grad(self, set_to_none: bool = True) -> None:
        for opt in self.optimizers:
            opt.zero_grad(set_to_none=set_to_none)

    def state_dict(self) -> dict:
        return {"optimizers": [opt.state_dict() for opt in self.optimizers]}

    def load_state_dict(self, state: dict) -> None:
        states = state.get("optimizers") if isinstance(state, dict) else None
        if not isinstance(states, list) or len(states) != len(self.optimizers):
            raise ValueError("the checkpoint's optimizer state is not this run's: it was saved by another "
                             "--optimizer")
        for opt, s in zip(self.optimizers, states):
            opt.load_state_dict(s)


def hidden_matrices(model: torch.nn.Module) -> list[torch.nn.Parameter]:
    """The parameters Muon takes: the blocks' 2-D weights. The token and position embeddings (wte is also the
    output layer), biases and LayerNorm gains stay with AdamW."""
    return [p for name, p in model.named_parameters() if name.startswith("blocks.") and p.dim() == 2]
