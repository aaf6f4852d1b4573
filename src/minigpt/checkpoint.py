"""Checkpoints: one file that holds everything needed to resume training or to generate.

A checkpoint is a plain dict of tensors, numbers, strings, lists and dicts, so it loads with
``torch.load(weights_only=True)`` (no arbitrary code runs while loading). Both engines use the
same file: the numpy engine's arrays are stored as torch tensors.

Writing is atomic: the bytes go to a temporary file in the same folder, are flushed to disk
(``fsync``), and only then replace the old file (``os.replace``). A crash mid-write leaves the
previous checkpoint as it was.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import torch

FORMAT = "minigpt-checkpoint"
VERSION = 1
FILENAME = "ckpt.pt"  # the file name inside a run's folder
REQUIRED_KEYS = ("format", "version", "engine", "model_config", "train_config", "tokenizer", "model", "step")


class CheckpointError(ValueError):
    """A checkpoint is missing, damaged, or does not fit; the message is one line a reader can act on."""


def resolve(path: str | os.PathLike) -> Path:
    """A checkpoint file from either the file itself or the run folder that holds ``ckpt.pt``."""
    path = Path(path).expanduser()
    return path / FILENAME if path.is_dir() else path


def to_torch(obj: Any) -> Any:
    """Copy of ``obj`` with every numpy array (and numpy scalar) turned into a torch tensor / number."""
    if isinstance(obj, np.ndarray):
        return torch.from_numpy(np.ascontiguousarray(obj)).clone()
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, dict):
        return {k: to_torch(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_torch(v) for v in obj)
    return obj


def to_numpy(obj: Any) -> Any:
    """Copy of ``obj`` with every torch tensor turned into a numpy array (the inverse of ``to_torch``)."""
    if isinstance(obj, torch.Tensor):
        return obj.detach().cpu().numpy().copy()
    if isinstance(obj, dict):
        return {k: to_numpy(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_numpy(v) for v in obj)
    return obj


def save_checkpoint(path: str | os.PathLike, ckpt: dict) -> Path:
    """Write ``ckpt`` to ``path`` atomically (temporary file, fsync, rename). Returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"format": FORMAT, "version": VERSION, **to_torch(ckpt)}
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            torch.save(payload, f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # mkstemp made it private; a checkpoint is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)  # make the rename itself durable
    return path


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # Windows cannot open folders; the rename is still atomic there
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def load_checkpoint(path: str | os.PathLike) -> dict:
    """Read a checkpoint (file or run folder) onto the CPU; problems raise ``CheckpointError``."""
    file = resolve(path)
    if not file.is_file():
        raise CheckpointError(f"no checkpoint at {file} (train one with `minigpt train --out DIR`)")
    try:
        with warnings.catch_warnings():  # a foreign pickle makes torch warn before it fails
            warnings.simplefilter("ignore")
            ckpt = torch.load(file, map_location="cpu", weights_only=True)
    except Exception as e:  # truncated zip, bad pickle, foreign objects...
        reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        if "zip archive" in reason or "central directory" in reason:
            reason = "the file is truncated or not a torch zip archive"
        reason = reason.split(". ")[0][:120]
        raise CheckpointError(f"checkpoint {file} is damaged or not a minigpt checkpoint ({reason})") from None
    if not isinstance(ckpt, dict) or ckpt.get("format") != FORMAT:
        raise CheckpointError(f"{file} is not a minigpt checkpoint")
    if ckpt.get("version") != VERSION:
        raise CheckpointError(f"checkpoint {file} has format version {ckpt.get('version')!r}, expected {VERSION}")
    missing = [k for k in REQUIRED_KEYS if k not in ckpt]
    if missing:
        raise CheckpointError(f"checkpoint {file} lacks {', '.join(missing)}")
    ckpt["path"] = str(file)
    return ckpt


def check_compatible(ckpt: dict, model_config: dict, what: str = "the config") -> None:
    """Raise ``CheckpointError`` naming the first model field where checkpoint and config differ."""
    saved = ckpt["model_config"]
    diffs = [f"{k}={saved.get(k)!r} vs {model_config[k]!r}" for k in model_config if saved.get(k) != model_config[k]]
    if diffs:
        raise CheckpointError(
            f"checkpoint {ckpt.get('path', '')} was trained with another model shape than {what}: "
            + ", ".join(diffs) + " (checkpoint vs config)"
        )


def load_state(model, state: dict, path: str = "") -> None:
    """``model.load_state_dict(state)`` with shape/key errors turned into one-line ``CheckpointError``s."""
    try:
        model.load_state_dict(state)
    except (RuntimeError, ValueError, KeyError) as e:
        first = " ".join(str(e).split())
        raise CheckpointError(f"checkpoint {path} does not fit the model: {first[:300]}") from None
