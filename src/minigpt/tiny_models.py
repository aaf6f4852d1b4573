"""Two small models, each trained once per machine and cached, for examples that sample from a trained model:
``tiny_poet`` (the tiny preset on the Tang poems, 400 steps, about a minute on one core) and ``tiny_bard`` (the
tiny preset with a context of 64 on tiny Shakespeare, 600 steps, about twenty seconds), both in float64 on one
thread. The same weights on every run, and far closer across CPUs than float32 (another CPU's kernels still move
the last digits, and so, rarely, a sampled character). The first call trains a model and keeps its weights in the
system's temporary folder; later calls, in this process or another, load them (same settings, same code: same
file)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

try:
    import fcntl  # POSIX; on Windows two processes at once may both train the model
except ImportError:
    fcntl = None

import torch

from minigpt.data import poem_corpus, shakespeare_corpus
from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset
from minigpt.train import train

SETTINGS = dict(corpus="poems", block_size=96, max_steps=400, lr=1e-2, min_lr=1e-3, warmup_steps=20,
                eval_interval=400, eval_iters=4, dtype="float64", threads=1)
# lr 5e-3, not 1e-2: at 1e-2 a run under AVX2-only kernels parts from an AVX-512 one by step 200 (weights 0.34
# apart at step 600, other samples); at 5e-3 the two agree to 1e-14 and validate lower (2.098 against 2.151)
BARD_SETTINGS = dict(corpus="shakespeare", block_size=64, batch_size=16, max_steps=600, lr=5e-3, min_lr=5e-4,
                     warmup_steps=20, eval_interval=600, eval_iters=4, dtype="float64", threads=1)


def tiny_poet():
    """The small poem model: (the torch GPT in eval mode, its tokenizer, its last validation loss)."""
    return _trained_once("tiny-poet", SETTINGS, poem_corpus())


def tiny_bard():
    """The small Shakespeare model, whose samples an English reader can read: (model, tokenizer, val loss)."""
    return _trained_once("tiny-bard", BARD_SETTINGS, shakespeare_corpus())


def _trained_once(name: str, settings: dict, corpus):
    torch.set_num_threads(1)
    config = get_preset("tiny", **settings)
    code = b"".join((Path(__file__).parent / f).read_bytes() for f in ("train.py", "gpt_torch.py"))
    key = hashlib.sha256(repr(settings).encode() + code + torch.__version__.encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"minigpt-{name}-{key}.pt"
    with open(path.with_suffix(".lock"), "w") as lock:
        if fcntl:  # two scripts at once: the second waits for the first one's model instead of training its own
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            with tempfile.TemporaryDirectory() as out:
                result = train(get_preset("tiny", **settings, out_dir=out), corpus=corpus, progress=False, plot=False)
            part = path.with_suffix(f".{os.getpid()}.part")
            torch.save({"model": result.model.state_dict(), "val_loss": result.history[-1]["val_loss"]}, part)
            os.replace(part, path)  # whole or not at all
    saved = torch.load(path, weights_only=True)
    model = GPT(config.gpt_config(corpus.tokenizer.vocab_size)).double()
    model.load_state_dict(saved["model"])
    return model.eval(), corpus.tokenizer, saved["val_loss"]
