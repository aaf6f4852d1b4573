"""How a training run looks from inside (lesson 15): activations, saturation, and the size of each step.

``activations(model, idx)`` runs the PyTorch GPT on a batch and keeps, per block, the MLP's GELU inputs and
each attention row's largest weight. ``Ratios(model, optimizer)`` records, at every optimizer step and for
every weight matrix, log10 std(gradient) / std(weight) and log10 std(update) / std(weight), the update being
the weight after the step minus the weight before (whatever the optimizer: AdamW, Muon, both). ``Watch`` is
what ``minigpt train --diagnostics`` prints under each evaluation line.

    >>> from minigpt.config import GPTConfig
    >>> from minigpt.gpt_torch import GPT
    >>> seen = activations(GPT(GPTConfig(vocab_size=10)), [[1, 2, 3, 4]])
    >>> len(seen), dead_share(seen[0]["gelu_in"]), saturated_share(seen[0]["attn_max"])
    (2, 0.0, 0.0)
"""

from __future__ import annotations

import math
import statistics

import torch

from minigpt.attention_maps import causal_weights

DEAD = -3.0  # a GELU input below this gives an output and a gradient of almost 0 (|GELU'| < 0.012): dead
SATURATED = 0.99  # an attention row whose largest weight is above this looks at one token only


# --8<-- [start:activations]
@torch.no_grad()
def activations(model, idx) -> list[dict[str, torch.Tensor]]:
    """Per block of ``model`` (a minigpt.gpt_torch.GPT) run on idx (B, T): "gelu_in", the MLP's GELU inputs
    (B*T*4C numbers), and "attn_max", each attention row's largest weight (B*nh*(T-1) numbers; row 0 has
    only itself to look at)."""
    seen = [{} for _ in model.blocks]
    hooks = []
    for i, block in enumerate(model.blocks):
        hooks.append(block.mlp.c_fc.register_forward_hook(
            lambda module, args, out, i=i: seen[i].update(gelu_in=out.flatten())))
        hooks.append(block.attn.register_forward_pre_hook(
            lambda module, args, i=i: seen[i].update(attn_max=attention_max(module, args[0]))))
    try:
        model(idx)
    finally:
        for hook in hooks:
            hook.remove()
    return seen


def attention_max(attn, x: torch.Tensor) -> torch.Tensor:
    """The largest causal attention weight of every row but the first: x (B, T, C) -> (B * nh * (T-1),)."""
    weights = causal_weights(attn, x)  # softmax(q k^T / sqrt(hs)) under the causal mask: (B, nh, T, T)
    return weights.amax(dim=-1)[:, :, 1:].flatten()
# --8<-- [end:activations]


def dead_share(gelu_in: torch.Tensor) -> float:
    """The share of GELU inputs below DEAD."""
    return float((gelu_in < DEAD).double().mean())


def saturated_share(attn_max: torch.Tensor) -> float:
    """The share of attention rows whose largest weight is above SATURATED."""
    return float((attn_max > SATURATED).double().mean())


class Ratios:
    """log10 std(grad)/std(weight) and log10 std(update)/std(weight) of every weight matrix at every step.

    ``grad[name]`` and ``update[name]`` are lists with one number per optimizer step since the Ratios were made.
    The gradient is the one the optimizer steps with (after clipping). ``close()`` removes the hooks."""

    def __init__(self, model: torch.nn.Module, optimizer):
        self.names = {p: name for name, p in model.named_parameters() if p.dim() == 2}
        self.grad = {name: [] for name in self.names.values()}
        self.update = {name: [] for name in self.names.values()}
        self._before: dict[torch.nn.Parameter, tuple[torch.Tensor, float]] = {}  # the weight before, its std
        self._hooks = []
        for opt in getattr(optimizer, "optimizers", (optimizer,)):  # minigpt.muon.Optimizers holds several
            self._hooks.append(opt.register_step_pre_hook(self._pre))
            self._hooks.append(opt.register_step_post_hook(self._post))

    def _matrices(self, opt):
        return [p for group in opt.param_groups for p in group["params"] if p in self.names and p.grad is not None]

    @torch.no_grad()
    def _pre(self, opt, args, kwargs):
        for p in self._matrices(opt):
            std = p.std().item()
            self.grad[self.names[p]].append(math.log10(p.grad.std().item() / std))
            self._before[p] = (p.detach().clone(), std)

    @torch.no_grad()
    def _post(self, opt, args, kwargs):
        for p in self._matrices(opt):
            before, std = self._before.pop(p)
            self.update[self.names[p]].append(math.log10((p - before).std().item() / std))

    def close(self) -> None:
        for hook in self._hooks:
            hook.remove()
        self._hooks = []


class Watch:
    """The line ``minigpt train --diagnostics`` prints under each evaluation: per block, the share of dead GELU
    inputs and of saturated attention rows on one fixed batch ``x``, then the median over the weight matrices
    of log10 update/weight at the last step (none before the first step)."""

    def __init__(self, model: torch.nn.Module, optimizer, x):
        self.model, self.x = model, x
        self.ratios = Ratios(model, optimizer)

    def line(self) -> str:
        training = self.model.training
        self.model.eval()  # no dropout
        try:
            blocks = activations(self.model, self.x)
        finally:
            self.model.train(training)
        dead = " ".join(f"{dead_share(b['gelu_in']):.0%}" for b in blocks)
        saturated = " ".join(f"{saturated_share(b['attn_max']):.0%}" for b in blocks)
        last = [steps[-1] for steps in self.ratios.update.values() if steps]
        update = f"{statistics.median(last):.1f}" if last else "-"
        return (f"  inside: GELU inputs < {DEAD:g} {dead}; attention rows max > {SATURATED} {saturated}; "
                f"log10 update/weight {update}")
