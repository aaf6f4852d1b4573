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
# Tang poems on two CPU cores, in under 10 minutes (issue 21). The blocks' matrices train with Muon
# (minigpt.muon, lesson 16), the embeddings, biases and gains with AdamW. Validation loss, seed 1337, on a quiet
# 2-core AMD EPYC with avx512_bf16 (dtype auto = bfloat16), each run alone, the whole command under /usr/bin/time:
#                                            step 1,000  step 2,000  at the end     tokens/s  command   form
#   AdamW alone, 3,000 steps (until now)          4.622           -  4.173 (3,000)     9,300        -      -
#   Muon, 3,000 steps, float32 Newton-Schulz      4.303       4.024  3.919 (3,000)     8,300        -      -
#   Muon, 2,200 steps                             4.279       3.961  3.938 (2,200)     8,548    552 s  96.5%
#   Muon, 2,500 steps (this preset)               4.283       3.943  3.888 (2,500)     9,043    589 s  98.5%
# form: free-sampled poems in the asked form, 200 samples (minigpt bench poems; real poems 100%); the goal is
# 97%, which 2,200 steps miss. bench poems scores the 2,500-step checkpoint at 3.8673 over the whole validation
# split. One seed each, but AdamW's other seeds at step 1,000 lay between 4.506 and 4.557 (below): Muon's lead is
# several times that spread. muon_lr 0.03 was worse at step 1,000 (4.359 against 4.279, 2,200 steps).
# On a CPU without bf16 a float32 step is slower, so there the run should take longer (not measured).
POEMS_CPU = TrainConfig(
    corpus="poems", n_layer=4, n_head=4, n_embd=128, block_size=256, dropout=0.0,
    batch_size=8, max_steps=2500, lr=3e-3, min_lr=3e-4, warmup_steps=100, weight_decay=0.1,
    optimizer="muon", muon_lr=0.02,
    beta2=0.99, grad_clip=1.0, eval_interval=500, eval_iters=20, out_dir="runs/poems-cpu",
)
# --8<-- [end:poems_cpu]
# Before Muon (AdamW alone, 3,000 steps). A conditioned 七言律诗 is about 80 tokens
# (<bos> form <sep> keywords <sep> 64 characters <eos>). The context is 256, not 128: on this
# shape a step costs about the same either way (most of the compute is the 6,800-way output layer,
# not attention), and 256 lets the KV cache serve a whole 256-token generation without rebuilding.
# 3,000 steps of 8 x 256 tokens is about 6 million tokens, three passes over the training poems;
# with bfloat16 matmuls (dtype "auto") that is 450 s on a 2-core machine. Measured there: lr 2e-3
# and 2,000 steps gave validation loss 4.25 and 80.5% of 200 samples in the requested form;
# lr 3e-3 and 3,000 steps gave 4.05 and 97%. On a 2-core CPU without bf16 (float32, one thread,
# the machine busy with other work) the same run took 4,181 s, validation loss 4.11; 79.5% of 200
# samples had the form without --strict, 100% with it (minigpt bench poems).
# A 2-core Intel Xeon without bf16 hardware, where dtype "auto" measures bf16 as slower and picks float32
# (two threads, quiet machine):
# 728 s, validation loss 4.111, 8,700 tokens/s.
# The "regression" of issue 21 on a 2-core AMD EPYC with avx512_bf16 (dtype auto = bfloat16 there), validation
# loss at step 1,000 / 1,500 (2026-12-04): 6b7bb51 4.527 / 4.361 and the code then 4.622 / 4.429 (seed 1337, as
# the issue measured). Float32 attention, which 2e55ca6 removed, gave 4.608 / 4.421: within the seeds' noise,
# and a step took 233-250 ms against 220, so it stays out. The rest is the initial weights' draw. At step
# 1,000, with seed 1337 and the weights drawn by torch (as 6b7bb51 drew them): 4.513; by numpy from a stream
# of their own, default_rng([seed, 1]): 4.516. Sharing the numpy stream with the batch generator (both are
# default_rng(seed)) is not worse on average: seeds 3, 4 and 7 gave 4.542, 4.524 and 4.522 sharing it, and
# seeds 3 and 4 gave 4.557 and 4.506 with a stream of their own. So no change of the code made training
# worse: seed 1337 is an unlucky draw, 0.05 above every other run's 4.506-4.557 (the seed 2 was too,
# at step 1,500). The preset keeps it, so the runs the pages and records quote stay comparable.

PRESETS: dict[str, TrainConfig] = {
    # nanoGPT's laptop run of shakespeare_char (4 layers, 4 heads, 128 wide, context 64, batch 12, 2000 steps,
    # no dropout, warmup 100, beta2 0.99, clip 1.0), made shallower and longer: 2 layers for 2600 steps.
    # The learning rate is 5e-3, not nanoGPT's 1e-3: with no dropout this small model is far from
    # overfitting, so a larger rate helps. With nanoGPT's 4 layers and 2000 steps, validation loss after
    # 2000 steps (seed 1337, 2-core machine): lr 1e-3 (nanoGPT's) 1.908, 2e-3 1.829, 3e-3 1.778,
    # 5e-3 1.763 (seed 1: 1.760).
    # Why 2 x 2600 (issue 21: wall <= 0.85x nanoGPT's): measured on a quiet 2-core Intel Xeon (AVX-512, no AMX,
    # no bf16 hardware, so dtype "auto" picks float32), two torch threads, one run after another, whole
    # command under /usr/bin/time. nanoGPT's own train.py in that laptop config (fp32, lr 1e-3, eval_iters 20,
    # no compile): val 1.8857, 65.7 s, peak RSS 370 MiB. Ours, seed 1337 unless said:
    #   4 layers, 2000 steps: 1.7610, 68.0 s (1.04x), 401 MiB; the matmuls already run near this CPU's peak,
    #     so only less compute per step gets under 0.85x;
    #   4 layers, 1600 steps: 1.828 (lr 5e-3) / 1.830 (lr 7e-3), 56.7 s;
    #   3 layers, 2000 steps: 1.7609 / 1.7507 (seed 1), 54.1 / 50.9 s;
    #   2 layers, 2000 steps: 1.7821, 37.2 s;  2 layers x 160 wide (5 heads), 2000 steps: 1.7588, 47.3 s;
    #   2 layers, 2600 steps: 1.7371, 44.3 s (0.67x), 387 MiB; seed 1: 1.7357, 43.1 s.
    # On two cores, for the same time, a shallower model trained for more steps learns more.
    "shakespeare-cpu": TrainConfig(
        corpus="shakespeare", n_layer=2, n_head=4, n_embd=128, block_size=64, dropout=0.0,
        batch_size=12, max_steps=2600, lr=5e-3, min_lr=5e-4, warmup_steps=100, weight_decay=0.1,
        beta2=0.99, grad_clip=1.0, eval_interval=250, eval_iters=20, out_dir="runs/shakespeare-cpu",
    ),
    "poems-cpu": POEMS_CPU,  # defined above PRESETS: what it measured, and how it got there
    # The showcase (issue 22): the poems of the third and fourth blind readings and the README's GPU example.
    # nanoGPT's GPU recipe for shakespeare_char (6 layers, 6 heads, 384 wide, dropout 0.2, batch 64, lr 1e-3) on
    # the poems, 2,500 steps:
    # 41 million tokens, 20 passes over the training poems; dropout keeps that from over-fitting.
    # Measured on one NVIDIA H200 (dtype auto = bfloat16, 2026-12-04): 64 s, 816,000 tokens/s, validation loss
    # 3.554 (poems-cpu: 4.111). The same recipe for 5,000 steps reached 3.594 at step 2,500 and then over-fitted
    # to 3.659; 8 layers x 512 wide (dropout 0.3) for 2,500 steps gave 3.559 in 84 s.
    # Not a laptop run: on the 2-core Intel Xeon of poems-cpu (float32, quiet machine) this shape trains at
    # 1,400 tokens/s (12 steps measured), so 2,500 steps would take about 8 hours. minigpt bench poems on the
    # H200 checkpoint: validation loss 3.5543 over the whole split; free sampling 100% in the asked form, rhyme
    # 84% (real poems 85%); --strict repeats 1.2% of characters (real 2.5%), no rhyme character twice.
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
