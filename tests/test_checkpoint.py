"""Checkpoints: safe loading (weights_only), atomic writes, one-line errors for every fault."""

from __future__ import annotations

import io
import pickle

import numpy as np
import pytest
import torch

from minigpt import checkpoint
from minigpt.checkpoint import CheckpointError, load_checkpoint, resolve, save_checkpoint
from minigpt.config import GPTConfig
from minigpt.convert import to_numpy
from minigpt.gpt_torch import GPT


def payload(step: int = 3, n_embd: int = 16) -> dict:
    config = GPTConfig(vocab_size=10, block_size=8, n_layer=1, n_head=2, n_embd=n_embd)
    torch.manual_seed(step)
    return {
        "engine": "torch", "model_config": config.to_dict(), "train_config": {"corpus": "poems", "max_steps": 9},
        "tokenizer": {"type": "char", "specials": ["<pad>", "<bos>", "<eos>", "<sep>"], "chars": "abcdef"},
        "model": GPT(config).state_dict(), "step": step,
        "batch_rng": np.random.default_rng(step).bit_generator.state,
        "optimizer": {"exp_avg": [np.arange(3.0)], "step": np.int64(step)},  # numpy values become torch / int
    }


def test_round_trip_is_weights_only_safe(tmp_path):
    path = save_checkpoint(tmp_path / "ckpt.pt", payload())
    torch.load(path, weights_only=True)  # no custom classes inside
    ckpt = load_checkpoint(tmp_path)  # the run folder works too
    assert ckpt["step"] == 3 and ckpt["path"] == str(path)
    assert ckpt["batch_rng"] == np.random.default_rng(3).bit_generator.state
    assert torch.equal(ckpt["optimizer"]["exp_avg"][0], torch.arange(3.0, dtype=torch.float64))
    assert ckpt["optimizer"]["step"] == 3 and type(ckpt["optimizer"]["step"]) is int
    assert to_numpy(ckpt["optimizer"])["exp_avg"][0].tolist() == [0.0, 1.0, 2.0]
    assert oct(path.stat().st_mode & 0o777) == oct(0o644)
    assert resolve(tmp_path) == path


def test_crash_mid_write_keeps_the_previous_checkpoint(tmp_path, monkeypatch):
    path = save_checkpoint(tmp_path / "ckpt.pt", payload(step=1))
    before = path.read_bytes()
    real_save = torch.save

    def dies_half_way(obj, f, *args, **kwargs):  # the process "is killed" after writing part of the file
        buf = io.BytesIO()
        real_save(obj, buf)
        f.write(buf.getvalue()[: len(buf.getvalue()) // 2])
        raise KeyboardInterrupt

    monkeypatch.setattr(torch, "save", dies_half_way)
    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(path, payload(step=2))
    assert path.read_bytes() == before
    assert load_checkpoint(path)["step"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt.pt"]  # no temporary file left behind


def one_line(e: pytest.ExceptionInfo) -> str:
    message = str(e.value)
    assert "\n" not in message and len(message) < 400
    return message


def test_truncated_or_corrupted_files_give_one_line(tmp_path):
    good = save_checkpoint(tmp_path / "good.pt", payload()).read_bytes()
    for name, data in [("truncated.pt", good[: len(good) // 3]), ("empty.pt", b""),
                       ("noise.pt", np.random.default_rng(0).bytes(5000)),
                       ("flipped.pt", good[:200] + bytes(b ^ 0xFF for b in good[200:400]) + good[400:])]:
        (tmp_path / name).write_bytes(data)
        with pytest.raises(CheckpointError) as e:
            load_checkpoint(tmp_path / name)
        assert name in one_line(e)


def test_foreign_files_are_refused(tmp_path):
    torch.save({"weights": torch.zeros(2)}, tmp_path / "other.pt")
    with pytest.raises(CheckpointError, match="not a minigpt checkpoint"):
        load_checkpoint(tmp_path / "other.pt")
    (tmp_path / "evil.pt").write_bytes(pickle.dumps(print))  # arbitrary objects never load
    with pytest.raises(CheckpointError, match="damaged or not a minigpt checkpoint"):
        load_checkpoint(tmp_path / "evil.pt")
    broken = payload()
    del broken["model"]
    save_checkpoint(tmp_path / "partial.pt", broken)
    with pytest.raises(CheckpointError, match="lacks model"):
        load_checkpoint(tmp_path / "partial.pt")
    with pytest.raises(CheckpointError, match="no checkpoint at"):
        load_checkpoint(tmp_path / "missing")


def test_checkpoint_from_another_config_is_a_clear_error(tmp_path):
    from minigpt.generate import load_model

    save_checkpoint(tmp_path / "ckpt.pt", payload(n_embd=16))
    model, tok, ckpt = load_model(tmp_path)
    assert model.config.n_embd == 16 and tok.vocab_size == 10
    ckpt = load_checkpoint(tmp_path)
    with pytest.raises(CheckpointError) as e:
        checkpoint.check_compatible(ckpt, {**ckpt["model_config"], "n_embd": 32})
    assert "n_embd=16 vs 32" in one_line(e)
    bigger = GPT(GPTConfig(vocab_size=10, block_size=8, n_layer=1, n_head=2, n_embd=32))
    with pytest.raises(CheckpointError) as e:
        checkpoint.load_state(bigger, ckpt["model"], ckpt["path"])
    assert "wpe.weight has shape (8, 16), the model (8, 32)" in one_line(e) and "does not fit" in str(e.value)
    # a checkpoint whose stored config lies about its weights
    lying = payload(n_embd=16)
    lying["model_config"]["n_embd"] = 32
    save_checkpoint(tmp_path / "lying.pt", lying)
    with pytest.raises(CheckpointError, match="does not fit"):
        load_model(tmp_path / "lying.pt")


def test_checkpoint_error_is_a_value_error():
    assert issubclass(CheckpointError, ValueError)
