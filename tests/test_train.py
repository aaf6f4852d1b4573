"""train(): the loss drops, files appear, resuming gives exactly the losses of an unbroken run."""

from __future__ import annotations

import csv
import math
from dataclasses import replace

import numpy as np
import pytest
import torch

from minigpt.checkpoint import CheckpointError, load_checkpoint
from minigpt.data import Corpus
from minigpt.device import resolve_device, resolve_dtype
from minigpt.presets import get_preset
from minigpt.tokenizer import CharTokenizer
from minigpt.train import LOG_FIELDS, TrainConfig, lr_at, train

WORDS = ("the king is dead long live the king what light through yonder window breaks "
         "to be or not to be that is the question shall i compare thee to a summer day").split()


def text_corpus(n_words: int = 6000, seed: int = 0) -> Corpus:
    """A small character corpus: random words from a short list, so there is something to learn."""
    rng = np.random.default_rng(seed)
    text = " ".join(rng.choice(WORDS, size=n_words)) + "\n"
    tok = CharTokenizer.from_text(text)
    ids = np.array(tok.encode(text), dtype=np.int64)
    n = int(0.9 * len(ids))
    return Corpus(ids[:n], ids[n:], tok, "words")


def tiny(tmp_path, **overrides) -> TrainConfig:
    # one thread: tiny matrices gain nothing from two, and the suite stays fast on a busy machine
    fields = dict(max_steps=30, eval_interval=10, eval_iters=2, out_dir=str(tmp_path), device="cpu", threads=1)
    fields.update(overrides)
    return get_preset("tiny", **fields)


def test_loss_drops_and_files_are_written(tmp_path):
    result = train(tiny(tmp_path, max_steps=40), corpus=text_corpus(), progress=False)
    first = np.mean([result.losses[s] for s in range(1, 4)])
    last = np.mean([result.losses[s] for s in range(38, 41)])
    assert first > math.log(20)  # about ln(vocab) at the start
    assert last < first - 1.0, (first, last)
    assert result.step == 40 and sorted(result.losses) == list(range(1, 41))
    assert result.val_loss < result.history[0]["val_loss"] - 1.0
    for name in ("ckpt.pt", "log.csv", "loss.png"):
        assert (tmp_path / name).stat().st_size > 0
    assert (tmp_path / "loss.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with open(tmp_path / "log.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == LOG_FIELDS
    assert [int(r["step"]) for r in rows] == [0, 10, 20, 30, 40]
    assert result.tokens_per_s > 0 and result.ms_per_step > 0


def test_same_seed_same_losses_other_seed_other_losses(tmp_path):
    corpus = text_corpus()
    a = train(tiny(tmp_path / "a", max_steps=8), corpus=corpus, progress=False)
    b = train(tiny(tmp_path / "b", max_steps=8), corpus=corpus, progress=False)
    c = train(tiny(tmp_path / "c", max_steps=8, seed=7), corpus=corpus, progress=False)
    assert a.losses == b.losses
    assert a.losses != c.losses


@pytest.mark.parametrize("engine, steps", [("torch", 20), ("numpy", 12)])
def test_resume_continues_exactly(tmp_path, engine, steps):
    corpus = text_corpus()
    # dropout on, so the engine's random state must be restored too
    config = tiny(tmp_path / "whole", engine=engine, max_steps=steps, eval_interval=steps // 4, dropout=0.1)
    whole = train(config, corpus=corpus, progress=False)

    half = steps // 2
    split = replace(config, out_dir=str(tmp_path / "split"))
    first = train(replace(split, max_steps=half, lr_decay_steps=steps), corpus=corpus, progress=False)
    second = train(split, corpus=corpus, progress=False, resume=True)

    assert first.step == half and second.step == steps
    assert sorted(second.losses) == list(range(half + 1, steps + 1))
    assert {**first.losses, **second.losses} == whole.losses  # bit for bit
    assert [r["step"] for r in second.history] == [r["step"] for r in whole.history]
    for mine, theirs in zip(second.history, whole.history):
        if mine["step"] > half:  # evaluated in this call: exact (older rows come back rounded from log.csv)
            assert mine["val_loss"] == theirs["val_loss"] and mine["train_loss"] == theirs["train_loss"]
        else:
            assert mine["val_loss"] == pytest.approx(theirs["val_loss"], abs=1e-5)
    assert whole.losses[steps] < whole.losses[1]


def test_resume_refuses_another_shape_or_engine(tmp_path):
    corpus = text_corpus()
    train(tiny(tmp_path, max_steps=4), corpus=corpus, progress=False)
    with pytest.raises(CheckpointError, match="n_embd=64 vs 32"):
        train(tiny(tmp_path, max_steps=8, n_embd=32), corpus=corpus, progress=False, resume=True)
    with pytest.raises(CheckpointError, match="--engine torch"):
        train(tiny(tmp_path, max_steps=8, engine="numpy"), corpus=corpus, progress=False, resume=True)
    with pytest.raises(CheckpointError, match="no checkpoint"):
        train(tiny(tmp_path / "empty", max_steps=8), corpus=corpus, progress=False, resume=True)


def test_numpy_checkpoint_loads_into_torch_model(tmp_path):
    from minigpt.generate import load_model

    corpus = text_corpus()
    result = train(tiny(tmp_path, engine="numpy", max_steps=3, eval_interval=3), corpus=corpus, progress=False)
    model, tokenizer, ckpt = load_model(tmp_path)
    assert ckpt["engine"] == "numpy" and tokenizer == corpus.tokenizer
    x, y = corpus.get_batch("val", 4, 32, np.random.default_rng(0))
    with torch.no_grad():
        _, loss = model(torch.from_numpy(x), torch.from_numpy(y))
    from minigpt.tensor import no_grad

    result.model.eval()
    with no_grad():
        _, np_loss = result.model(x, y)
    assert abs(loss.item() - float(np_loss.data)) < 1e-4


def test_lr_schedule_warms_up_then_follows_the_cosine():
    config = TrainConfig(lr=1e-3, min_lr=1e-4, warmup_steps=10, max_steps=110)
    lrs = [lr_at(s, config) for s in range(120)]
    assert all(a < b for a, b in zip(lrs[:10], lrs[1:11]))  # warmup rises
    assert lrs[10] == pytest.approx(1e-3)
    assert all(a >= b for a, b in zip(lrs[10:], lrs[11:]))  # then never rises
    assert lrs[60] == pytest.approx(5.5e-4)  # half way down the cosine
    assert lrs[110] == lrs[119] == pytest.approx(1e-4)


def test_config_errors_name_the_field():
    with pytest.raises(ValueError, match="batch_size"):
        TrainConfig(batch_size=0)
    with pytest.raises(ValueError, match="engine"):
        TrainConfig(engine="jax")
    with pytest.raises(ValueError, match="numpy engine runs on the CPU"):
        TrainConfig(engine="numpy", device="cuda")
    with pytest.raises(ValueError, match="min_lr"):
        TrainConfig(lr=1e-3, min_lr=1e-2)
    with pytest.raises(ValueError, match="divisible"):
        TrainConfig(n_embd=100, n_head=3)
    with pytest.raises(TypeError, match="TrainConfig"):
        train({"max_steps": 3})


def test_device_auto_and_missing_devices():
    expected = "cuda" if torch.cuda.is_available() else None
    assert resolve_device("cpu").type == "cpu"
    if expected is None:
        assert resolve_device("auto").type in ("cpu", "mps")
        with pytest.raises(ValueError, match="CUDA"):
            resolve_device("cuda")
    else:
        assert resolve_device("auto").type == "cuda"


def test_diverging_run_stops_with_a_clear_error(tmp_path):
    with pytest.raises(FloatingPointError, match="diverged"):
        train(tiny(tmp_path, max_steps=30, lr=1e6, min_lr=1e6, warmup_steps=0, grad_clip=0.0),
              corpus=text_corpus(), progress=False)


def test_checkpoint_holds_what_resume_needs(tmp_path):
    train(tiny(tmp_path, max_steps=5, eval_interval=5), corpus=text_corpus(), progress=False)
    ckpt = load_checkpoint(tmp_path)
    assert ckpt["step"] == 5 and ckpt["engine"] == "torch"
    assert ckpt["train_config"]["max_steps"] == 5
    assert set(ckpt["batch_rng"]) >= {"bit_generator", "state"}
    assert isinstance(ckpt["engine_rng"]["torch"], torch.Tensor)
    assert ckpt["model"]["wte.weight"].shape == (ckpt["model_config"]["vocab_size"], 64)


def test_dtype_is_checked_and_resolved():
    with pytest.raises(ValueError, match="dtype"):
        TrainConfig(dtype="float16")
    cpu = torch.device("cpu")
    assert resolve_dtype("float32", cpu) == torch.float32
    assert resolve_dtype("bfloat16", cpu) == torch.bfloat16
    assert resolve_dtype("auto", cpu) in (torch.float32, torch.bfloat16)


def test_auto_dtype_follows_the_measurement_not_the_flags(monkeypatch):
    from minigpt import device

    assert isinstance(device.cpu_bf16_is_faster(), bool)
    cpu = torch.device("cpu")
    for faster, expected in ((True, torch.bfloat16), (False, torch.float32)):
        monkeypatch.setattr(device, "cpu_bf16_is_faster", lambda faster=faster: faster)
        assert device.resolve_dtype("auto", cpu) == expected


def test_bfloat16_mixed_precision_stays_close_to_float32():
    from minigpt.config import GPTConfig
    from minigpt.gpt_torch import GPT

    torch.manual_seed(0)
    model = GPT(GPTConfig(vocab_size=50))
    with torch.no_grad():  # larger weights than at init, so attention is far from uniform
        for p in model.parameters():
            if p.dim() == 2:
                p.normal_(0, 0.2)
    idx = torch.randint(0, 50, (4, 32))
    _, loss32 = model(idx, idx)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits16, loss16 = model(idx, idx)
    assert logits16.dtype == torch.bfloat16
    assert abs(loss16.item() - loss32.item()) < 0.05 * loss32.item()
    loss16.backward()  # the whole model has a backward under autocast
    assert all(p.grad is not None and torch.isfinite(p.grad).all() for p in model.parameters())


@pytest.mark.parametrize("engine", ["torch", "numpy"])
def test_float64_trains_float64_weights_that_both_engines_agree_on(tmp_path, engine):
    """dtype="float64" (the pages' small trainings: every CPU prints the same digits) keeps weights, optimizer
    state and losses in float64 on either engine; the two engines then agree far past float32's digits,
    and a float64 checkpoint samples in float64."""
    from minigpt.generate import load_model

    corpus = text_corpus()
    config = tiny(tmp_path / engine, engine=engine, dtype="float64", max_steps=6, eval_interval=6)
    result = train(config, corpus=corpus, progress=False)
    weights = [p.data for p in result.model.parameters()]
    assert all(str(w.dtype) in ("float64", "torch.float64") for w in weights)
    other = "numpy" if engine == "torch" else "torch"
    twin = train(replace(config, engine=other, out_dir=str(tmp_path / other)), corpus=corpus, progress=False)
    assert abs(result.val_loss - twin.val_loss) < 1e-9, (result.val_loss, twin.val_loss)
    model, _, _ = load_model(tmp_path / engine)
    assert model.wte.weight.dtype == torch.float64


def test_float64_is_refused_where_it_cannot_run():
    with pytest.raises(ValueError, match="numpy engine computes in float32 or float64"):
        TrainConfig(engine="numpy", dtype="bfloat16")
    assert resolve_dtype("float64", torch.device("cpu")) == torch.float64
    with pytest.raises(ValueError, match="MPS has no float64"):
        resolve_dtype("float64", torch.device("mps"))
