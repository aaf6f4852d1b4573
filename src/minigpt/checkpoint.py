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
import warnings
from pathlib import Path

import torch

from minigpt.convert import to_torch
from minigpt.files import atomic_write

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


def save_checkpoint(path: str | os.PathLike, ckpt: dict) -> Path:
    """Write ``ckpt`` to ``path`` atomically (temporary file, fsync, rename). Returns the path."""
    path = Path(path)
    with atomic_write(path) as f:
        torch.save({"format": FORMAT, "version": VERSION, **to_torch(ckpt)}, f)
    return path


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
    """``model.load_state_dict(state)`` for either engine, after checking names and shapes: a mismatch is one
    line naming the first keys that differ (nothing is loaded then)."""
    own = {k: tuple(v.shape) for k, v in model.state_dict().items()}
    problems = [f"missing {k}" for k in own if k not in state]
    problems += [f"unexpected {k}" for k in state if k not in own]
    problems += [f"{k} has shape {tuple(state[k].shape)}, the model {own[k]}"
                 for k in own if k in state and tuple(state[k].shape) != own[k]]
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise CheckpointError(f"checkpoint {path} does not fit the model: {'; '.join(problems[:3])}{more}")
    model.load_state_dict(state)
