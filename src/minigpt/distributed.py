"""Data-parallel training: ``train()`` under ``torchrun`` (several processes, one model copy each).

torchrun starts ``--nproc_per_node`` copies of the same command and tells each one who it is through
environment variables: ``WORLD_SIZE`` (how many processes), ``RANK`` (this one's number, 0-based) and
``LOCAL_RANK`` (its number on this machine). ``process_group()`` reads them and joins the processes into
one group (gloo on the CPU, NCCL on CUDA GPUs). Then:

- every rank builds the same model; ``DistributedDataParallel`` (DDP) averages the gradients over the
  ranks inside ``backward()``, so every rank takes the same optimizer step and the copies stay equal;
- rank r draws its batches from its own generator, seeded ``seed + r`` (rank 0 draws what a single
  process would), so one step sees ``WORLD_SIZE * batch_size`` sequences;
- the loss a step reports and each evaluation are averaged over the ranks: every rank knows the same number;
- rank 0 alone prints and writes log.csv and ckpt.pt; the checkpoint keeps every rank's generators, so
  a resumed run continues exactly, with the same number of processes.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from minigpt.checkpoint import CheckpointError


def env_rank() -> int:
    """This process's rank as torchrun set it (0 when it is not running under torchrun)."""
    return int(os.environ.get("RANK", "0"))


def env_world_size() -> int:
    """How many processes torchrun started (1 when it is not running under torchrun)."""
    return int(os.environ.get("WORLD_SIZE", "1"))


@dataclass
class Group:
    """The processes of one data-parallel run, as this process sees them; ``Group()`` is one process alone."""
    rank: int = 0  # this process, 0 .. world_size - 1; rank 0 prints and writes
    world_size: int = 1  # processes in all
    local_rank: int = 0  # this process on its own machine: the GPU it uses
    device: str = "cpu"  # where the all-reduced numbers live: "cuda" for NCCL, which reduces GPU tensors only

    # --8<-- [start:mean]
    def mean(self, value: float) -> float:
        """The mean of ``value`` over all ranks, the same on every rank (an all-reduce)."""
        t = torch.tensor([value], dtype=torch.float64, device=self.device)
        dist.all_reduce(t, op=dist.ReduceOp.SUM)  # every rank gets the sum
        return t.item() / self.world_size
    # --8<-- [end:mean]

    def parallel(self, engine, seed: int):
        """``engine`` as the group trains it: itself for one process, else inside ``DataParallel``."""
        if self.world_size == 1:
            return engine
        if engine.name != "torch":
            raise ValueError("several processes train with engine='torch' only (the numpy engine is one process)")
        return DataParallel(engine, self, seed)

    def gather_generators(self, ckpt: dict) -> dict:
        """``ckpt`` with every rank's batch and dropout generators (rank r's at ``ranks[r]``); one process: as is."""
        if self.world_size == 1:
            return ckpt
        mine = {"batch_rng": ckpt["batch_rng"], "engine_rng": ckpt["engine_rng"]}
        ranks = [None] * self.world_size
        dist.all_gather_object(ranks, mine)
        return {**ckpt, "world_size": self.world_size, "ranks": ranks}

    def own_generators(self, ckpt: dict) -> dict:
        """``ckpt`` with this rank's generators where a single process keeps its own. A checkpoint that another
        number of processes wrote is refused: its ranks' batches could not go on exactly."""
        saved = int(ckpt.get("world_size", 1))
        if saved != self.world_size and self.world_size == 1:
            raise CheckpointError(f"checkpoint {ckpt.get('path', '')} was trained by {saved} processes; resume it "
                                  f"under torchrun --nproc_per_node={saved}")
        if saved != self.world_size:
            raise CheckpointError(f"checkpoint {ckpt.get('path', '')} was trained by {saved} process(es); "
                                  f"resume it with {saved} (torchrun --nproc_per_node={saved}), "
                                  f"not {self.world_size}")
        return ckpt if saved == 1 else {**ckpt, **ckpt["ranks"][self.rank]}


def backend(device: str) -> str:
    """NCCL between CUDA GPUs, gloo otherwise (the CPU)."""
    use_cuda = device == "cuda" or (device == "auto" and torch.cuda.is_available())
    return "nccl" if use_cuda and dist.is_nccl_available() else "gloo"


# --8<-- [start:process_group]
@contextmanager
def process_group(device: str = "auto"):
    """Under torchrun with several processes: join them into one group, yield this rank's ``Group``, and
    leave the group at the end. A single process: yield ``Group()``, a group of one (nothing to join)."""
    if env_world_size() <= 1:
        yield Group()
        return
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    if dist.is_available() and dist.is_initialized():  # the caller made the group: use it, leave it alone
        on_gpu = dist.get_backend() == "nccl"
        yield Group(dist.get_rank(), dist.get_world_size(), local_rank, "cuda" if on_gpu else "cpu")
        dist.barrier()  # rank 0 has written its last checkpoint before any rank goes on (to resume it, say)
        return
    kind = backend(device)
    if kind == "nccl":
        torch.cuda.set_device(local_rank)  # one process per GPU: "cuda" now means this rank's GPU
    dist.init_process_group(kind)  # rendezvous at MASTER_ADDR:MASTER_PORT, which torchrun sets
    try:
        yield Group(dist.get_rank(), dist.get_world_size(), local_rank, "cuda" if kind == "nccl" else "cpu")
        dist.barrier()  # rank 0 has written its files before any rank leaves; gloo can abort at exit otherwise
    finally:
        dist.destroy_process_group()
# --8<-- [end:process_group]


# --8<-- [start:data_parallel]
class DataParallel:
    """A torch engine (minigpt.train.TorchEngine) that trains through DDP: the gradients are averaged over
    the ranks, and the evaluation batches are shared among them. Everything else is the engine's own."""

    def __init__(self, engine, group: Group, seed: int):
        torch.manual_seed(seed + group.rank)  # dropout: each rank its own masks
        self.engine, self.group = engine, group
        ids = [group.local_rank] if engine.device.type == "cuda" else None
        self.ddp = DDP(engine.model, device_ids=ids)  # wraps, does not copy; broadcasts rank 0's weights

    def __getattr__(self, name):  # name, model, state(), load(): the engine's
        return getattr(self.engine, name)

    def train_step(self, x, y, lr):
        engine = self.engine
        plain, engine.model = engine.model, self.ddp  # this step's forward and backward go through DDP:
        try:  # backward() all-reduces every gradient, so each rank steps with the mean gradient
            loss = engine.train_step(x, y, lr)
        finally:
            engine.model = plain
        return self.group.mean(loss)  # the loss of the whole global batch, the same on every rank

    def eval_loss(self, batches):
        mine = batches[self.group.rank::self.group.world_size]  # each rank a share of the fixed batches
        total = self.engine.eval_loss(mine) * len(mine) if mine else 0.0
        return self.group.mean(total) * self.group.world_size / len(batches)
# --8<-- [end:data_parallel]
