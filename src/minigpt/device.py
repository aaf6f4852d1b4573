"""Where a torch model runs: the device and the matmul precision a config names ("auto", "cpu", ...).

Training and generation both use it; it knows nothing of either.
"""

from __future__ import annotations

import functools
import math
import time

import torch

from minigpt.config import DEVICES, DTYPES


def resolve_device(device: str = "auto") -> torch.device:
    """'auto' picks CUDA, then Apple MPS, then the CPU; asking for a missing one is an error."""
    mps = getattr(torch.backends, "mps", None)
    has_mps = bool(mps is not None and mps.is_available())
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "mps" if has_mps else "cpu")
    if device == "cuda" and not torch.cuda.is_available():
        raise ValueError("device='cuda' but this torch has no CUDA device; use --device cpu or auto")
    if device == "mps" and not has_mps:
        raise ValueError("device='mps' but Apple MPS is not available here; use --device cpu or auto")
    if device not in DEVICES:
        raise ValueError(f"device must be one of {', '.join(DEVICES)}; got {device!r}")
    return torch.device(device)


def resolve_dtype(dtype: str, device: torch.device) -> torch.dtype:
    """'auto' trains in bfloat16 mixed precision where that is faster: CUDA with bf16, or a CPU where
    bf16 matmuls measure faster than float32 (``cpu_bf16_is_faster``); else in float32."""
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(DTYPES)}; got {dtype!r}")
    if dtype == "float64" and device.type == "mps":
        raise ValueError("dtype='float64': Apple MPS has no float64; use --device cpu, or --dtype float32")
    if dtype != "auto":
        return getattr(torch, dtype)
    if device.type == "cuda":
        return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float32
    if device.type == "cpu":
        return torch.bfloat16 if cpu_bf16_is_faster() else torch.float32
    return torch.float32


BF16_MIN_SPEEDUP = 1.25  # "auto" trains a CPU in bfloat16 only if it measures at least this much faster


@functools.cache
def cpu_bf16_is_faster() -> bool:
    """Whether a matmul of a training step's shape, forward and backward, runs at least 1.25 times
    faster under bfloat16 autocast than in float32 on this CPU, measured (about 0.2 s, once per process).

    CPU flags are not enough: oneDNN reports bf16 support on any AVX-512 CPU, but without AVX512_BF16 or
    AMX it emulates it, and there bf16 measured 2-3 times slower than float32 (2-core Intel Xeon)."""
    if not (torch.backends.mkldnn.is_available() and torch.ops.mkldnn._is_mkldnn_bf16_supported()):
        return False
    g = torch.Generator().manual_seed(0)
    x = torch.randn(1024, 128, generator=g, requires_grad=True)  # B*T rows of a C = 128 model
    w = torch.randn(1024, 128, generator=g, requires_grad=True)

    def step(bf16: bool) -> float:
        t0 = time.perf_counter()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            y = x @ w.T  # (1024, 1024)
        y.float().sum().backward()
        return time.perf_counter() - t0

    best = {False: math.inf, True: math.inf}
    for _ in range(4):  # the first round warms up; alternate, so a busy moment hits both
        for bf16 in (False, True):
            best[bf16] = min(best[bf16], step(bf16))
    return best[True] * BF16_MIN_SPEEDUP < best[False]
