"""Where a torch model runs: the device and the matmul precision a config names ("auto", "cpu", ...).

Training and generation both use it; it knows nothing of either.
"""

from __future__ import annotations

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
    """'auto' trains in bfloat16 mixed precision where the hardware does bf16 matmuls natively
    (CUDA with bf16, or a CPU with AVX-512 BF16 / AMX through oneDNN), else in float32."""
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(DTYPES)}; got {dtype!r}")
    if dtype != "auto":
        return getattr(torch, dtype)
    if device.type == "cuda":
        return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float32
    if device.type == "cpu" and torch.backends.mkldnn.is_available():
        return torch.bfloat16 if torch.ops.mkldnn._is_mkldnn_bf16_supported() else torch.float32
    return torch.float32
