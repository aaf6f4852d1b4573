"""State dicts across the two engines: numpy arrays <-> torch tensors, one helper each way.

    torch_gpt.load_state_dict(to_torch(numpy_gpt.state_dict()))
    numpy_gpt.load_state_dict(to_numpy(torch_gpt.state_dict()))

Both walk dicts, lists and tuples, so a whole checkpoint (weights, optimizer state) converts too.
``to_numpy`` recognises torch tensors by their ``detach`` method: the numpy engine never imports torch.
"""

from __future__ import annotations

from typing import Any

import numpy as np


# --8<-- [start:to_numpy]
def to_numpy(obj: Any) -> Any:
    """A copy of ``obj`` with every torch tensor turned into a numpy array."""
    if hasattr(obj, "detach") and hasattr(obj, "cpu"):  # a torch.Tensor
        return obj.detach().cpu().numpy().copy()
    if isinstance(obj, dict):
        return {k: to_numpy(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_numpy(v) for v in obj)
    return obj
# --8<-- [end:to_numpy]


# --8<-- [start:to_torch]
def to_torch(obj: Any) -> Any:
    """A copy of ``obj`` with every numpy array turned into a torch tensor (numpy scalars into numbers)."""
    import torch

    if isinstance(obj, np.ndarray):
        return torch.from_numpy(np.ascontiguousarray(obj)).clone()
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, dict):
        return {k: to_torch(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_torch(v) for v in obj)
    return obj
# --8<-- [end:to_torch]
