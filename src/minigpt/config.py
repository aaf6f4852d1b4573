"""Configuration dataclasses: ``GPTConfig`` (the model both GPTs are built from) and ``TrainConfig``
(a whole training run: model shape, optimisation, where to run). No torch here: the CLI reads them fast.

Each field's comment is its help text: ``minigpt train`` makes one flag per ``TrainConfig`` field, with
the comment (``field_help``), the choices (``CHOICES``) and the field's own check (``check_field``).
"""

from __future__ import annotations

import ast
from dataclasses import asdict, dataclass, fields
from pathlib import Path


@dataclass
class GPTConfig:
    vocab_size: int = 64  # number of distinct tokens (characters plus special tokens)
    block_size: int = 32  # longest context the model sees, in tokens
    n_layer: int = 2  # number of Transformer blocks stacked on top of each other
    n_head: int = 4  # attention heads per block; n_embd is split evenly among them
    n_embd: int = 64  # width of every token's vector (the residual stream)
    dropout: float = 0.0  # dropout probability during training; 0 turns it off
    bias: bool = True  # whether Linear and LayerNorm layers carry a bias

    def __post_init__(self) -> None:
        for name in ("vocab_size", "block_size", "n_layer", "n_head", "n_embd"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"GPTConfig.{name} must be a positive integer, got {value!r}")
        if self.n_embd % self.n_head != 0:
            heads = [str(h) for h in range(1, self.n_embd + 1) if self.n_embd % h == 0]
            can = f"{', '.join(heads[:-1])} or {heads[-1]}" if len(heads) > 1 else heads[0]
            raise ValueError(f"n_embd={self.n_embd} is not divisible by n_head={self.n_head}: "
                             f"each head needs an equal share of the width; n_head can be {can}")
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"GPTConfig.dropout must be in [0, 1), got {self.dropout!r}")

    @property
    def head_size(self) -> int:
        """Width of one head: n_embd // n_head."""
        return self.n_embd // self.n_head

    def to_dict(self) -> dict:
        return asdict(self)


ENGINES = ("torch", "numpy")
DEVICES = ("auto", "cpu", "cuda", "mps")
DTYPES = ("auto", "float32", "bfloat16", "float64")
OPTIMIZERS = ("adamw", "muon")
CORPORA = ("shakespeare", "poems", "poems+song")
POEM_CORPORA = ("poems", "poems+song")  # corpora of poems: a model trained on one takes a form and keywords


@dataclass
class TrainConfig:
    # data
    corpus: str = "shakespeare"  # what to train on (CORPORA; poems+song: `data download --song`); sets vocab_size
    # model shape (GPTConfig without vocab_size)
    n_layer: int = 4  # Transformer blocks
    n_head: int = 4  # attention heads per block; must divide n_embd
    n_embd: int = 128  # width of the residual stream
    block_size: int = 64  # context length in tokens
    dropout: float = 0.0  # dropout probability while training
    bias: bool = True  # biases in Linear and LayerNorm
    # optimisation
    batch_size: int = 12  # sequences per step; a step sees batch_size * block_size tokens
    max_steps: int = 2000  # optimizer steps in all (a resumed run continues up to here)
    lr: float = 1e-3  # peak learning rate, reached after the warmup
    min_lr: float = 1e-4  # the cosine ends here
    warmup_steps: int = 100  # linear warmup from 0 to lr
    lr_decay_steps: int | None = None  # the cosine reaches min_lr at this step (None: at max_steps)
    weight_decay: float = 0.1  # AdamW decay, applied to matrices and embeddings only
    optimizer: str = "adamw"  # OPTIMIZERS: AdamW for all, or Muon for the blocks' matrices and AdamW for the rest
    muon_lr: float = 0.02  # Muon's peak learning rate (optimizer muon); the schedule scales it as it scales lr
    beta1: float = 0.9  # AdamW first-moment decay
    beta2: float = 0.99  # AdamW second-moment decay
    grad_clip: float = 1.0  # clip the global gradient norm to this; 0 turns clipping off
    # evaluation, logging, checkpoints
    eval_interval: int = 250  # evaluate, log and checkpoint every this many steps (and at the end)
    eval_iters: int = 20  # fixed batches per split in each evaluation
    seed: int = 1337  # seeds the initial weights, the batch order and dropout
    out_dir: str = "runs/shakespeare-cpu"  # where ckpt.pt, log.csv and loss.png go
    # where to run
    engine: str = "torch"  # which GPT to train: PyTorch's or the numpy engine's (ENGINES)
    device: str = "auto"  # torch only (DEVICES): auto picks CUDA, then Apple MPS, then the CPU
    threads: int | None = None  # torch CPU threads (None: torch's default)
    dtype: str = "auto"  # precision (DTYPES): bf16 mixed precision, float32, auto (bf16 where fast), or float64
    # (far less CPU-dependent than float32: the pages' small trainings use it; numpy takes float32 or float64)

    def __post_init__(self) -> None:
        for f in fields(self):
            check_field(f.name, getattr(self, f.name))
        if self.min_lr > self.lr:
            raise ValueError(f"TrainConfig.min_lr={self.min_lr} must not exceed lr={self.lr}")
        if self.engine == "numpy" and self.device not in ("auto", "cpu"):
            raise ValueError(f"the numpy engine runs on the CPU only; got device={self.device!r}")
        if self.engine == "numpy" and self.dtype == "bfloat16":
            raise ValueError("the numpy engine computes in float32 or float64; got dtype='bfloat16'")
        if self.engine == "numpy" and self.optimizer != "adamw":
            raise ValueError(f"the numpy engine trains with AdamW only; got optimizer={self.optimizer!r}")
        self.gpt_config(vocab_size=4)  # n_embd % n_head: GPTConfig checks it

    def gpt_config(self, vocab_size: int) -> GPTConfig:
        """The model this config trains, for a vocabulary of ``vocab_size`` tokens."""
        return GPTConfig(vocab_size=vocab_size, block_size=self.block_size, n_layer=self.n_layer,
                         n_head=self.n_head, n_embd=self.n_embd, dropout=self.dropout, bias=self.bias)

    @property
    def tokens_per_step(self) -> int:
        return self.batch_size * self.block_size

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> TrainConfig:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})


CHOICES = {"corpus": CORPORA, "engine": ENGINES, "device": DEVICES, "dtype": DTYPES, "optimizer": OPTIMIZERS}
INT_MIN = {"n_layer": 1, "n_head": 1, "n_embd": 1, "block_size": 1, "batch_size": 1, "max_steps": 1,  # least values
           "warmup_steps": 0, "lr_decay_steps": 1, "eval_interval": 1, "eval_iters": 1, "seed": 0, "threads": 1}
OPTIONAL = ("lr_decay_steps", "threads")  # None allowed: it means max_steps, torch's default
NONNEGATIVE = ("min_lr", "weight_decay", "grad_clip")
FRACTIONS = ("dropout", "beta1", "beta2")  # in [0, 1)


def check_field(name: str, value) -> None:
    """One ``TrainConfig`` field's own rule, as a ValueError ``TrainConfig.<name> must ..., got <value>``
    (the rules between fields are in ``TrainConfig.__post_init__``)."""
    number = not isinstance(value, bool) and isinstance(value, (int, float))
    if name in INT_MIN:
        if value is None and name in OPTIONAL:
            return
        if isinstance(value, bool) or not isinstance(value, int) or value < INT_MIN[name]:
            raise ValueError(f"TrainConfig.{name} must be an integer >= {INT_MIN[name]}, got {value!r}")
    elif name in ("lr", "muon_lr"):
        if not (number and value > 0):
            raise ValueError(f"TrainConfig.{name} must be a number > 0, got {value!r}")
    elif name in NONNEGATIVE:
        if not (number and value >= 0):
            raise ValueError(f"TrainConfig.{name} must be a number >= 0, got {value!r}")
    elif name in FRACTIONS:
        if not (number and 0 <= value < 1):
            raise ValueError(f"TrainConfig.{name} must be in [0, 1), got {value!r}")
    elif name in CHOICES:
        if value not in CHOICES[name]:
            raise ValueError(f"TrainConfig.{name} must be one of {', '.join(CHOICES[name])}; got {value!r}")
    elif name == "bias":
        if not isinstance(value, bool):
            raise ValueError(f"TrainConfig.bias must be True or False, got {value!r}")
    elif name == "out_dir":
        if not isinstance(value, str) or not value:
            raise ValueError(f"TrainConfig.out_dir must be a folder name, got {value!r}")


def field_help(cls=None) -> dict[str, str]:
    """Each field of ``cls`` (default ``TrainConfig``) -> the comment after it in this file."""
    name = (cls or TrainConfig).__name__
    source = Path(__file__).read_text(encoding="utf-8")
    lines = source.splitlines()
    body = next(n.body for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == name)
    return {node.target.id: lines[node.end_lineno - 1][node.end_col_offset:].strip().lstrip("#").strip()
            for node in body if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}
