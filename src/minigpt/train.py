"""Training: one function, ``train(config)``, for either engine (numpy or PyTorch).

The loop is nanoGPT's: sample a random batch, forward, backward, clip the gradient, AdamW step,
with a learning rate that warms up linearly and then follows a cosine down to ``min_lr``.
Every ``eval_interval`` steps it measures the loss on fixed batches of both splits, appends a row
to ``log.csv`` and writes ``ckpt.pt`` (atomically). ``resume=True`` continues from that
checkpoint and produces exactly the losses an uninterrupted run would have produced.
"""

from __future__ import annotations

import csv
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from minigpt import data, distributed, gpt, gpt_torch, muon, optim
from minigpt.checkpoint import CheckpointError, check_compatible, load_checkpoint, load_state, save_checkpoint
from minigpt.checkpoint import FILENAME as CKPT_NAME
from minigpt.config import CORPORA, GPTConfig, TrainConfig
from minigpt.convert import to_numpy
from minigpt.device import resolve_device, resolve_dtype
from minigpt.diagnostics import Watch
from minigpt.files import atomic_write
from minigpt.tensor import no_grad

EVAL_SEED = 20240601  # the evaluation batches never depend on the training seed: runs stay comparable
LOG_NAME = "log.csv"
PLOT_NAME = "loss.png"
LOG_FIELDS = ("step", "lr", "train_loss", "val_loss", "tokens_per_s", "elapsed")


# --8<-- [start:lr_at]
def lr_at(step: int, config: TrainConfig) -> float:
    """Learning rate for optimizer step ``step`` (0-based): linear warmup, then cosine to min_lr."""
    decay_steps = config.lr_decay_steps or config.max_steps
    if step < config.warmup_steps:
        return config.lr * (step + 1) / (config.warmup_steps + 1)
    if step >= decay_steps:
        return config.min_lr
    progress = (step - config.warmup_steps) / max(1, decay_steps - config.warmup_steps)  # 0 -> 1
    coeff = 0.5 * (1.0 + math.cos(math.pi * progress))  # 1 -> 0
    return config.min_lr + coeff * (config.lr - config.min_lr)
# --8<-- [end:lr_at]


def precision(config: TrainConfig) -> str:
    """What a run of ``config`` computes in: "bfloat16" (mixed precision: the matmuls), "float32" or "float64";
    ``dtype="auto"`` resolved as the torch engine resolves it (bfloat16 where this machine does it fast)."""
    if config.engine == "numpy":
        return "float64" if config.dtype == "float64" else "float32"
    return str(resolve_dtype(config.dtype, resolve_device(config.device))).removeprefix("torch.")


def load_corpus(name: str):
    """The corpus a config names, built by ``minigpt.data``."""
    if name == "shakespeare":
        return data.shakespeare_corpus()
    if name == "poems":
        return data.poem_corpus()
    if name == "poems+song":  # Tang and Song poems to train on, the Tang validation poems of "poems"
        return data.poem_corpus(song=True)
    raise ValueError(f"corpus must be one of {', '.join(CORPORA)}; got {name!r}")


# ---- the two engines behind one small interface ------------------------------------------------
class TorchEngine:
    """The PyTorch GPT (minigpt.gpt_torch) with torch's AdamW (fused where available)."""

    name = "torch"

    def __init__(self, config: TrainConfig, model_config: GPTConfig):
        self.device = resolve_device(config.device)
        torch.manual_seed(config.seed)  # dropout draws from torch's global generator
        self.dtype = resolve_dtype(config.dtype, self.device)
        weights = torch.float64 if self.dtype == torch.float64 else torch.float32  # bf16 is only the matmuls'
        self.model = gpt_torch.GPT(model_config, seed=config.seed).to(self.device, weights)
        # --8<-- [start:param_groups]
        decay = [p for p in self.model.parameters() if p.dim() >= 2]  # matrices and embeddings
        no_decay = [p for p in self.model.parameters() if p.dim() < 2]  # biases and LayerNorm gains
        groups = [{"params": decay, "weight_decay": config.weight_decay},
                  {"params": no_decay, "weight_decay": 0.0}]
        self.optimizer = make_adamw(groups, config, self.device)
        # --8<-- [end:param_groups]
        self.grad_clip = config.grad_clip
        # Mixed precision: matmuls in bfloat16, weights, optimizer state and the loss in float32.
        if config.optimizer == "muon":  # the blocks' matrices move from AdamW to Muon; the schedule drives both
            hidden = muon.hidden_matrices(self.model)
            moved = {id(p) for p in hidden}
            groups[0]["params"] = [p for p in decay if id(p) not in moved]  # the embeddings stay
            self.optimizer = muon.Optimizers(make_adamw(groups, config, self.device),
                                             muon.Muon(hidden, lr=config.lr, scale=config.muon_lr / config.lr,
                                                       ns_dtype=self.dtype))

    def autocast(self):
        return torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=self.dtype == torch.bfloat16)

    # --8<-- [start:torch_train_step]
    def train_step(self, x: np.ndarray, y: np.ndarray, lr: float) -> float:
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        x = torch.from_numpy(x).to(self.device, non_blocking=True)
        y = torch.from_numpy(y).to(self.device, non_blocking=True)
        with self.autocast():
            _, loss = self.model(x, y)
        loss.backward()
        if self.grad_clip > 0:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_clip)
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        return loss.item()
    # --8<-- [end:torch_train_step]

    @torch.no_grad()
    def eval_loss(self, batches: list[tuple[np.ndarray, np.ndarray]]) -> float:
        self.model.eval()
        with self.autocast():
            losses = [self.model(torch.from_numpy(x).to(self.device), torch.from_numpy(y).to(self.device))[1].item()
                      for x, y in batches]
        self.model.train()
        return float(np.mean(losses))

    def state(self) -> dict:
        rng = {"torch": torch.get_rng_state()}
        if self.device.type == "cuda":
            rng["cuda"] = torch.cuda.get_rng_state(self.device)
        return {"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(), "engine_rng": rng}

    def load(self, ckpt: dict) -> None:
        load_state(self.model, ckpt["model"], ckpt.get("path", ""))
        self.optimizer.load_state_dict(ckpt["optimizer"])
        rng = ckpt.get("engine_rng") or {}
        if "torch" in rng:
            torch.set_rng_state(rng["torch"])
        if "cuda" in rng and self.device.type == "cuda":
            torch.cuda.set_rng_state(rng["cuda"], self.device)


def make_adamw(groups, config: TrainConfig, device: torch.device) -> torch.optim.AdamW:
    """torch AdamW, fused (one kernel for all parameters) where this torch supports it, else foreach."""
    kwargs = dict(lr=config.lr, betas=(config.beta1, config.beta2), eps=1e-8)
    try:
        return torch.optim.AdamW(groups, fused=True, **kwargs)
    except (RuntimeError, TypeError, ValueError):
        return torch.optim.AdamW(groups, foreach=device.type != "mps", **kwargs)


class NumpyEngine:
    """The numpy GPT (minigpt.gpt) with minigpt.optim.AdamW."""

    name = "numpy"

    def __init__(self, config: TrainConfig, model_config: GPTConfig):
        self.model = gpt.GPT(model_config, seed=config.seed)
        if config.dtype == "float64":
            self.model.to(np.float64)
        params = list(self.model.parameters())
        decay = [p for p in params if p.data.ndim >= 2]
        no_decay = [p for p in params if p.data.ndim < 2]
        kw = dict(lr=config.lr, betas=(config.beta1, config.beta2), eps=1e-8)
        self.optimizers = [optim.AdamW(decay, weight_decay=config.weight_decay, **kw),
                           optim.AdamW(no_decay, weight_decay=0.0, **kw)]
        self.params = params
        self.grad_clip = config.grad_clip

    def train_step(self, x: np.ndarray, y: np.ndarray, lr: float) -> float:
        for opt in self.optimizers:
            opt.lr = lr
        _, loss = self.model(x, y)
        loss.backward()
        if self.grad_clip > 0:
            optim.clip_grad_norm_(self.params, self.grad_clip)
        for opt in self.optimizers:
            opt.step()
            opt.zero_grad()
        return float(loss.data)

    def eval_loss(self, batches: list[tuple[np.ndarray, np.ndarray]]) -> float:
        self.model.eval()
        with no_grad():
            losses = [float(self.model(x, y)[1].data) for x, y in batches]
        self.model.train()
        return float(np.mean(losses))

    def state(self) -> dict:
        return {"model": self.model.state_dict(), "optimizer": [o.state_dict() for o in self.optimizers],
                "engine_rng": {"numpy": self.model.drop.rng.bit_generator.state}}  # dropout's generator

    def load(self, ckpt: dict) -> None:
        load_state(self.model, to_numpy(ckpt["model"]), ckpt.get("path", ""))
        for opt, state in zip(self.optimizers, ckpt["optimizer"]):
            opt.load_state_dict(to_numpy(state))
        rng = ckpt.get("engine_rng") or {}
        if "numpy" in rng:
            self.model.drop.rng.bit_generator.state = rng["numpy"]  # shared by every Dropout


def make_engine(config: TrainConfig, model_config: GPTConfig):
    return (TorchEngine if config.engine == "torch" else NumpyEngine)(config, model_config)


# ---- the loop ------------------------------------------------------------------------------------
@dataclass
class TrainResult:
    step: int  # optimizer steps done in all (including those before a resume)
    losses: dict[int, float]  # training loss of every step this call ran, by step number (1 = first step)
    history: list[dict]  # the rows of log.csv (before a resume too)
    train_loss: float | None  # last evaluation on the fixed training batches
    val_loss: float | None  # last evaluation on the fixed validation batches
    tokens_per_s: float  # training throughput of this call (steps only, evaluation excluded)
    ms_per_step: float  # the same, as milliseconds per step
    elapsed: float  # wall seconds of this call, evaluations and checkpoints included
    out_dir: Path
    checkpoint: Path | None
    model: object = field(repr=False, default=None)
    tokenizer: object = field(repr=False, default=None)


@dataclass
class Run:
    """One training run as ``train`` carries it from step to step: what it trains, and where it stands."""
    config: TrainConfig
    corpus: object  # a minigpt.data.Corpus
    model_config: GPTConfig
    engine: TorchEngine | NumpyEngine  # or a minigpt.distributed.DataParallel around a TorchEngine
    batch_rng: np.random.Generator  # draws the training batches
    eval_batches: dict[str, list]  # split -> fixed (x, y) batches, the same at every evaluation
    step: int = 0  # optimizer steps done
    elapsed_before: float = 0.0  # wall seconds of the calls before a resume
    history: list[dict] = field(default_factory=list)  # the rows of log.csv
    group: distributed.Group = field(default_factory=distributed.Group)  # the processes training together

    @property
    def out_dir(self) -> Path:
        return Path(self.config.out_dir)

    @property
    def checkpoint_path(self) -> Path:
        return self.out_dir / CKPT_NAME


def open_checkpoint(config: TrainConfig) -> dict:
    """The checkpoint in ``config.out_dir`` that a resumed run continues; it must be this engine's."""
    ckpt = load_checkpoint(Path(config.out_dir) / CKPT_NAME)
    if ckpt["engine"] != config.engine:
        raise CheckpointError(f"checkpoint {ckpt['path']} was trained by the {ckpt['engine']} engine; "
                              f"resume it with --engine {ckpt['engine']}")
    saved = ckpt["train_config"].get("optimizer", "adamw")  # checkpoints from before Muon: AdamW
    if saved != config.optimizer:
        raise CheckpointError(f"checkpoint {ckpt['path']} was trained with the {saved} optimizer; "
                              f"resume it with --optimizer {saved}")
    return ckpt


def start_run(config: TrainConfig, corpus=None, ckpt: dict | None = None,
              group: distributed.Group | None = None) -> Run:
    """Build the model, optimizer and batch generator; with ``ckpt``, restore them to where it stopped.

    group: the processes under torchrun (``minigpt.distributed``); None is one process alone."""
    group = group or distributed.Group()
    if corpus is None:
        corpus = load_corpus(config.corpus)
    model_config = config.gpt_config(corpus.tokenizer.vocab_size)
    if ckpt is not None:
        check_compatible(ckpt, model_config.to_dict())
        if ckpt["tokenizer"] != corpus.tokenizer.to_dict():
            raise CheckpointError(f"checkpoint {ckpt['path']} was trained on another vocabulary than this corpus")
        ckpt = group.own_generators(ckpt)  # this rank's generators
    engine = group.parallel(make_engine(config, model_config), config.seed)  # DDP under torchrun
    batch_rng = np.random.default_rng(config.seed + group.rank)  # under torchrun each rank draws its own batches
    # --8<-- [start:eval_batches]
    eval_rng = np.random.default_rng(EVAL_SEED)
    B, T = config.batch_size, config.block_size
    eval_batches = {split: [corpus.get_batch(split, B, T, eval_rng) for _ in range(config.eval_iters)]
                    for split in ("train", "val")}
    # --8<-- [end:eval_batches]
    run = Run(config, corpus, model_config, engine, batch_rng, eval_batches, group=group)
    # --8<-- [start:restore]
    if ckpt is not None:
        engine.load(ckpt)
        batch_rng.bit_generator.state = ckpt["batch_rng"]
        run.step, run.elapsed_before = int(ckpt["step"]), float(ckpt.get("elapsed", 0.0))
        run.history = [row for row in read_log(run.out_dir / LOG_NAME) if row["step"] <= run.step]
    # --8<-- [end:restore]
    return run


# --8<-- [start:evaluate_and_save]
def evaluate_and_save(run: Run, lr: float, tokens_per_s: float, since: float) -> dict:
    """Measure both splits on the fixed batches, append the row to log.csv and write the checkpoint.

    ``since``: when this call of ``train`` started (``time.perf_counter()``), for the row's wall time."""
    engine = run.engine
    row = {"step": run.step, "lr": lr,
           "train_loss": engine.eval_loss(run.eval_batches["train"]),
           "val_loss": engine.eval_loss(run.eval_batches["val"]),
           "tokens_per_s": tokens_per_s}
    row["elapsed"] = run.elapsed_before + time.perf_counter() - since
    run.history.append(row)
    ckpt = {
        "engine": engine.name, "model_config": run.model_config.to_dict(), "train_config": run.config.to_dict(),
        "tokenizer": run.corpus.tokenizer.to_dict(), "step": run.step, "elapsed": row["elapsed"],
        "batch_rng": run.batch_rng.bit_generator.state, **engine.state(),
        "val_loss": row["val_loss"],
    }
    ckpt = run.group.gather_generators(ckpt)  # several processes: every rank's generators
    if run.group.rank == 0:  # rank 0 alone writes
        write_log(run.out_dir / LOG_NAME, run.history)
        save_checkpoint(run.checkpoint_path, ckpt)
    return row
# --8<-- [end:evaluate_and_save]


def describe(row: dict) -> str:
    """One evaluation as the log line ``train(log=print)`` prints."""
    return (f"step {row['step']:>6}: train {row['train_loss']:.4f}, val {row['val_loss']:.4f}, "
            f"lr {row['lr']:.2e}, {row['tokens_per_s']:,.0f} tokens/s")


def report(row: dict, log: Callable[[str], None] | None, bar) -> None:
    """Hand ``log`` the evaluation's line, above the progress bar if there is one."""
    if log is None:
        return
    if bar is None:
        log(describe(row))
    else:
        with bar.external_write_mode():
            log(describe(row))


def progress_bar(config: TrainConfig, step: int):
    """A tqdm bar on stderr from ``step`` to ``max_steps``."""
    from tqdm.auto import tqdm  # here, not at the top: importing it takes about 0.3 s (python -X importtime)

    return tqdm(total=config.max_steps, initial=step, unit="step", dynamic_ncols=True, file=sys.stderr)


def train(
    config: TrainConfig,
    *,
    corpus=None,
    resume: bool = False,
    progress: bool | None = None,
    log: Callable[[str], None] | None = None,
    plot: bool = True,
    diagnostics: bool = False,
) -> TrainResult:
    """Train the model ``config`` describes; write ckpt.pt, log.csv and loss.png into ``config.out_dir``.

    corpus: a Corpus (train/val arrays, tokenizer, get_batch); None loads ``config.corpus``.
    resume: continue from ``out_dir/ckpt.pt`` (same losses as a run that was never stopped).
    progress: tqdm bar on stderr; None shows it only when stderr is a terminal.
    log: called with one line per evaluation (e.g. ``print``); None stays quiet.
    diagnostics: under each evaluation's line, a second one from ``minigpt.diagnostics.Watch`` (torch engine).

    Under torchrun with several processes (``minigpt.distributed``) the ranks train one model together:
    rank 0 alone logs and writes the files; the others return the same losses.
    """
    if not isinstance(config, TrainConfig):
        raise TypeError(f"config must be a TrainConfig, got {type(config).__name__}")
    if diagnostics and config.engine != "torch":
        raise ValueError("diagnostics: the torch engine only (--engine torch)")
    with distributed.process_group(config.device) as group:  # one process alone: a group of one
        if group.rank != 0:  # rank 0 alone prints, draws the bar and plots
            log, progress, plot = None, False, False
        if config.threads is not None:
            torch.set_num_threads(config.threads)
        ckpt = open_checkpoint(config) if resume else None
        run = start_run(config, corpus, ckpt, group)
        if diagnostics and log is not None:  # each evaluation's line, then what the model looks like inside
            log = watched(log, Watch(run.engine.model, run.engine.optimizer, run.eval_batches["val"][0][0]))
        run.out_dir.mkdir(parents=True, exist_ok=True)
        bar = progress_bar(config, run.step) if (sys.stderr.isatty() if progress is None else progress) else None
        B, T = config.batch_size, config.block_size
        t_start = time.perf_counter()
        losses: dict[int, float] = {}
        step_time, window_time, window_steps = 0.0, 0.0, 0  # all steps of this call; the steps since the last eval
        if ckpt is None:  # the loss before any training (about ln vocab_size)
            report(evaluate_and_save(run, lr_at(0, config), 0.0, t_start), log, bar)
        # --8<-- [start:loop]
        try:
            while run.step < config.max_steps:
                t0 = time.perf_counter()
                lr = lr_at(run.step, config)
                x, y = run.corpus.get_batch("train", B, T, run.batch_rng)
                loss = run.engine.train_step(x, y, lr)
                dt = time.perf_counter() - t0
                run.step += 1
                losses[run.step] = loss
                step_time += dt
                window_time += dt
                window_steps += 1
                if not math.isfinite(loss):
                    raise FloatingPointError(f"training diverged at step {run.step} (loss {loss}); try a smaller lr")
                tokens_per_s = window_steps * B * T / window_time
                if bar is not None:
                    bar.update(1)
                    if run.step % 10 == 0 or run.step == config.max_steps:
                        bar.set_postfix(loss=f"{loss:.3f}", tok_s=f"{tokens_per_s:,.0f}", refresh=False)
                if run.step % config.eval_interval == 0 or run.step == config.max_steps:
                    report(evaluate_and_save(run, lr, tokens_per_s, t_start), log, bar)
                    window_time, window_steps = 0.0, 0
        finally:
            if bar is not None:
                bar.close()
        # --8<-- [end:loop]
        elapsed = time.perf_counter() - t_start
        if plot and run.history:
            plot_losses(run.history, run.out_dir / PLOT_NAME)
    n = len(losses)
    last = run.history[-1] if run.history else {}
    return TrainResult(
        step=run.step, losses=losses, history=run.history,
        train_loss=last.get("train_loss"), val_loss=last.get("val_loss"),
        tokens_per_s=n * B * T / step_time if n else 0.0,
        ms_per_step=1000 * step_time / n if n else 0.0,
        elapsed=elapsed, out_dir=run.out_dir,
        checkpoint=run.checkpoint_path if run.checkpoint_path.exists() else None,
        model=run.engine.model, tokenizer=run.corpus.tokenizer,
    )


def watched(log: Callable[[str], None], watch: Watch) -> Callable[[str], None]:
    """``log``, followed by ``watch``'s line each time it is called."""

    def both(line: str) -> None:
        log(line)
        log(watch.line())

    return both


# ---- log.csv and loss.png ------------------------------------------------------------------------
def write_log(path: Path, rows: list[dict]) -> None:
    """Rewrite the CSV log (small: one row per evaluation), atomically."""
    with atomic_write(path, "w") as f:
        writer = csv.DictWriter(f, fieldnames=LOG_FIELDS)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{row[k]:.6g}" if isinstance(row[k], float) else row[k]) for k in LOG_FIELDS})


def read_log(path: Path) -> list[dict]:
    """Rows of a CSV log written by ``write_log``; a missing file gives no rows."""
    if not Path(path).is_file():
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return [{k: (int(v) if k == "step" else float(v)) for k, v in row.items() if k in LOG_FIELDS}
                for row in csv.DictReader(f)]


def plot_losses(rows: list[dict], path: Path) -> Path:
    """Training and validation loss against step, as a PNG (matplotlib's Agg canvas, no window)."""
    # here, not at the top: importing matplotlib takes over a second (python -X importtime)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 4), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    steps = [r["step"] for r in rows]
    ax.plot(steps, [r["train_loss"] for r in rows], label="train")
    ax.plot(steps, [r["val_loss"] for r in rows], label="val")
    ax.set_xlabel("step")
    ax.set_ylabel("loss (nats per token)")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    return path


# --8<-- [start:one_process_twin]
def one_process_twin(config: TrainConfig, corpus, world_size: int) -> dict[int, float]:
    """The training losses (by step, 1-based) of ONE process whose batch at each step is the batches of
    ``world_size`` ranks concatenated (``world_size * batch_size`` sequences, rank r's generator seeded
    ``seed + r`` as under torchrun). A data-parallel run of ``world_size`` processes should reproduce them."""
    engine = TorchEngine(config, config.gpt_config(corpus.tokenizer.vocab_size))
    rngs = [np.random.default_rng(config.seed + r) for r in range(world_size)]  # rank r's generator
    B, T = config.batch_size, config.block_size
    losses = {}
    for step in range(config.max_steps):
        parts = [corpus.get_batch("train", B, T, rng) for rng in rngs]  # world_size x (B, T)
        x = np.concatenate([x for x, _ in parts])  # (world_size * B, T)
        y = np.concatenate([y for _, y in parts])
        losses[step + 1] = engine.train_step(x, y, lr_at(step, config))
    return losses
# --8<-- [end:one_process_twin]
