"""Named training setups: each preset is a ``TrainConfig`` (model shape + optimisation + where to run).

    >>> from minigpt.presets import get_preset
    >>> get_preset("tiny", max_steps=50).max_steps
    50

Presets are plain dataclass instances, never executed config files; ``minigpt train --preset NAME``
starts from one and command-line flags override single fields.
"""

from __future__ import annotations

from dataclasses import replace

from minigpt.config import TrainConfig

# --8<-- [start:poems_cpu]
# Tang poems on two CPU cores in under 10 minutes: Muon for the blocks' matrices, 2,500 steps, to validation
# loss 3.888 in 589 s (benchmarks/records/2026-12-04-poems-cpu-muon/README.md).
POEMS_CPU = TrainConfig(
    corpus="poems", n_layer=4, n_head=4, n_embd=128, block_size=256, dropout=0.0,
    batch_size=8, max_steps=2500, lr=3e-3, min_lr=3e-4, warmup_steps=100, weight_decay=0.1,
    optimizer="muon", muon_lr=0.02,
    beta2=0.99, grad_clip=1.0, eval_interval=500, eval_iters=20, out_dir="runs/poems-cpu",
)
# --8<-- [end:poems_cpu]

PRESETS: dict[str, TrainConfig] = {
    # nanoGPT's laptop run of shakespeare_char made shallower and longer, at lr 5e-3: 0.67x its wall time
    # and 0.149 lower (benchmarks/records/2026-12-04-nanogpt/README.md).
    "shakespeare-cpu": TrainConfig(
        corpus="shakespeare", n_layer=2, n_head=4, n_embd=128, block_size=64, dropout=0.0,
        batch_size=12, max_steps=2600, lr=5e-3, min_lr=5e-4, warmup_steps=100, weight_decay=0.1,
        beta2=0.99, grad_clip=1.0, eval_interval=250, eval_iters=20, out_dir="runs/shakespeare-cpu",
    ),
    "poems-cpu": POEMS_CPU,  # defined above PRESETS, a section the appendix "Benchmarks and readings" shows
    # nanoGPT's GPU recipe for shakespeare_char on the poems: 64 s on one H200, validation loss 3.554, about
    # 8 hours on two CPU cores (benchmarks/records/2026-12-04-poems-large/README.md).
    "poems-large": TrainConfig(
        corpus="poems", n_layer=6, n_head=6, n_embd=384, block_size=256, dropout=0.2,
        batch_size=64, max_steps=2500, lr=1e-3, min_lr=1e-4, warmup_steps=100, weight_decay=0.1,
        beta2=0.99, grad_clip=1.0, eval_interval=250, eval_iters=20, out_dir="runs/poems-large",
    ),
    # Seconds on a laptop: the default GPTConfig() shape (2 layers, 4 heads, 64 wide, context 32), for tests and pages.
    "tiny": TrainConfig(
        corpus="shakespeare", n_layer=2, n_head=4, n_embd=64, block_size=32, dropout=0.0,
        batch_size=8, max_steps=200, lr=3e-3, min_lr=3e-4, warmup_steps=20, weight_decay=0.1,
        beta2=0.99, grad_clip=1.0, eval_interval=50, eval_iters=10, out_dir="runs/tiny",
    ),
}


def get_preset(name: str, **overrides) -> TrainConfig:
    """A fresh copy of preset ``name`` with ``overrides`` applied (and validated)."""
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; known presets: {', '.join(PRESETS)}")
    return replace(PRESETS[name], **overrides)
