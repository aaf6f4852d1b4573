"""Configuration dataclasses: ``GPTConfig`` (the model both GPTs are built from) and ``TrainConfig``
(a whole training run: model shape, optimisation, where to run). No torch here: the CLI reads them fast."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields


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
            raise ValueError(
                f"n_embd={self.n_embd} is not divisible by n_head={self.n_head}: "
                f"each head needs an equal share of the width"
            )
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
DTYPES = ("auto", "float32", "bfloat16")
CORPORA = ("shakespeare", "poems")


@dataclass
class TrainConfig:
    # data
    corpus: str = "shakespeare"  # "shakespeare" or "poems"; the vocabulary (vocab_size) comes from it
    # model shape (GPTConfig without vocab_size)
    n_layer: int = 4  # Transformer blocks
    n_head: int = 4  # attention heads per block
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
    lr_decay_steps: int | None = None  # the cosine reaches min_lr at this step; None means max_steps
    weight_decay: float = 0.1  # AdamW decay, applied to matrices and embeddings only
    beta1: float = 0.9  # AdamW first-moment decay
    beta2: float = 0.99  # AdamW second-moment decay
    grad_clip: float = 1.0  # clip the global gradient norm to this; 0 turns clipping off
    # evaluation, logging, checkpoints
    eval_interval: int = 250  # evaluate, log and checkpoint every this many steps (and at the end)
    eval_iters: int = 20  # fixed batches per split in each evaluation
    seed: int = 1337  # seeds the initial weights, the batch order and dropout
    out_dir: str = "runs/shakespeare-cpu"  # where ckpt.pt, log.csv and loss.png go
    # where to run
    engine: str = "torch"  # "torch" or "numpy"
    device: str = "auto"  # "auto" (CUDA, then Apple MPS, then CPU), "cpu", "cuda" or "mps"; torch only
    threads: int | None = None  # torch CPU threads; None keeps torch's default
    dtype: str = "auto"  # matmul precision (torch): "bfloat16" mixed precision, "float32", or "auto" (bf16 where fast)

    def __post_init__(self) -> None:
        for name in ("n_layer", "n_head", "n_embd", "block_size", "batch_size", "max_steps", "eval_interval",
                     "eval_iters"):
            _check_int(name, getattr(self, name), 1)
        _check_int("warmup_steps", self.warmup_steps, 0)
        if self.lr_decay_steps is not None:
            _check_int("lr_decay_steps", self.lr_decay_steps, 1)
        if self.threads is not None:
            _check_int("threads", self.threads, 1)
        _check_int("seed", self.seed, 0)
        for name in ("lr", "min_lr", "weight_decay", "grad_clip"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise ValueError(f"TrainConfig.{name} must be a number >= 0, got {value!r}")
        if self.lr == 0:
            raise ValueError("TrainConfig.lr must be > 0")
        if self.min_lr > self.lr:
            raise ValueError(f"TrainConfig.min_lr={self.min_lr} must not exceed lr={self.lr}")
        for name in ("beta1", "beta2"):
            if not 0 <= getattr(self, name) < 1:
                raise ValueError(f"TrainConfig.{name} must be in [0, 1), got {getattr(self, name)!r}")
        if self.corpus not in CORPORA:
            raise ValueError(f"TrainConfig.corpus must be one of {', '.join(CORPORA)}; got {self.corpus!r}")
        if self.engine not in ENGINES:
            raise ValueError(f"TrainConfig.engine must be one of {', '.join(ENGINES)}; got {self.engine!r}")
        if self.device not in DEVICES:
            raise ValueError(f"TrainConfig.device must be one of {', '.join(DEVICES)}; got {self.device!r}")
        if self.dtype not in DTYPES:
            raise ValueError(f"TrainConfig.dtype must be one of {', '.join(DTYPES)}; got {self.dtype!r}")
        if self.engine == "numpy" and self.device not in ("auto", "cpu"):
            raise ValueError(f"the numpy engine runs on the CPU only; got device={self.device!r}")
        self.gpt_config(vocab_size=4)  # n_embd % n_head, dropout range: GPTConfig checks them

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


def _check_int(name: str, value, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"TrainConfig.{name} must be an integer >= {minimum}, got {value!r}")
