"""The small poem model every script of this lesson samples from: the tiny preset trained on the Tang
poems for 400 steps (about a minute on one core), in float64 on one thread: the same weights on every run,
and far closer across CPUs than float32 (another CPU's kernels still move the last digits, and so some
sampled characters). The first script to call ``tiny_poet()`` trains it
and keeps the weights in the system's temporary folder; the others load them (same settings, same code:
same file)."""

import hashlib
import os
import tempfile
from pathlib import Path

try:
    import fcntl  # POSIX; on Windows two scripts at once may both train the model
except ImportError:
    fcntl = None

import torch

import minigpt
from minigpt.data import format_prompt, poem_corpus
from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset
from minigpt.train import train

SETTINGS = dict(corpus="poems", block_size=96, max_steps=400, lr=1e-2, min_lr=1e-3, warmup_steps=20,
                eval_interval=400, eval_iters=4, dtype="float64", threads=1)


def tiny_poet():
    """(the torch GPT in eval mode, its tokenizer, its last validation loss)."""
    torch.set_num_threads(1)
    corpus = poem_corpus()
    config = get_preset("tiny", **SETTINGS)
    code = b"".join((Path(minigpt.__file__).parent / f).read_bytes() for f in ("train.py", "gpt_torch.py"))
    key = hashlib.sha256(repr(SETTINGS).encode() + code + torch.__version__.encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"minigpt-sampling-poet-{key}.pt"
    with open(path.with_suffix(".lock"), "w") as lock:
        if fcntl:  # two scripts at once: the second waits for the first one's model instead of training its own
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            with tempfile.TemporaryDirectory() as out:
                result = train(get_preset("tiny", **SETTINGS, out_dir=out), corpus=corpus, progress=False, plot=False)
            part = path.with_suffix(f".{os.getpid()}.part")
            torch.save({"model": result.model.state_dict(), "val_loss": result.history[-1]["val_loss"]}, part)
            os.replace(part, path)  # whole or not at all
    saved = torch.load(path, weights_only=True)
    model = GPT(config.gpt_config(corpus.tokenizer.vocab_size)).double()
    model.load_state_dict(saved["model"])
    return model.eval(), corpus.tokenizer, saved["val_loss"]


def prompt(tokenizer, form="五言绝句", keywords="月,江"):
    """``<bos> form <sep> keywords <sep>`` as a (1, T) tensor of ids."""
    return torch.tensor([format_prompt(tokenizer, form, keywords)])


class Recorder:
    """Wraps a ``PoemConstraint``: at every step keeps the model's logits, the masked logits and the row's
    state (characters written, open tone patterns, rhyme groups, keywords offered) as the rule left it."""

    def __init__(self, rule):
        self.rule, self.steps = rule, []

    def __call__(self, idx, logits):
        out = self.rule(idx, logits)  # (B, V) with -inf where a rule says no
        row = self.rule.rows[0]
        self.steps.append(dict(logits=logits[0].astype("float64"), masked=out[0], n=row.n,
                               patterns=row.patterns, rhyme=row.rhyme, used=set(row.used), last=row.last,
                               double=row.double, starts=dict(row.starts), missing=row.missing))
        return out


def write_strict(model, tok, form="五言绝句", keywords="月,江", seed=0, **rule_args):
    """One poem written under ``PoemConstraint`` at temperature 0.8: (its text, the Recorder's steps)."""
    import numpy as np

    from minigpt.constrain import PoemConstraint
    from minigpt.generate import decode_rows

    x = prompt(tok, form, keywords)
    rec = Recorder(PoemConstraint(tok, form, keywords, **rule_args))
    out = model.generate(x, 96 - x.shape[1], temperature=0.8, stop=tok.eos_id,
                         rng=np.random.default_rng(seed), constraint=rec)
    steps = rec.steps
    for step, t in zip(steps, out[0, x.shape[1]:].tolist()):
        step["picked"] = t
    return decode_rows(tok, out[:, x.shape[1]:].tolist())[0], steps, rec.rule
