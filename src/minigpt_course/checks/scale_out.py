"""The scale-out lesson's exercise: the reader's ``average_gradients(params, all_reduce, world_size)``, the
gradient averaging of data-parallel training, graded in one process.

The check starts 2, then 3 "ranks" as threads, each with its own copy of four parameters and its own gradients
(rank r's are r + 1 times rank 0's; the third parameter has no gradient, like a weight unused in a step). Each
rank calls the reader's function with a fake ``all_reduce`` that behaves like ``torch.distributed.all_reduce``:
every rank waits for the others, then each one's tensor is replaced in place by the sum over the ranks, and
it returns None. Every rank must end with the mean gradient and leave the parameter without one alone. The
report names the usual mistakes: no division (the sum), a division before and after the all-reduce (the mean
/ world_size), no all-reduce (each rank keeps its own), the reduced tensor thrown away (``p.grad =
all_reduce(p.grad)`` is None; a reduced copy), and a parameter whose grad is None not skipped.
"""

from __future__ import annotations

import threading

import torch

from minigpt_course.checks import (Check, Lesson, Message, Result, error_text, name_of, not_yet, passed,
                                  reader_errors, show, source_file, speaker, where)

WORLD_SIZES = (2, 3)
SHAPES = ((3,), (2, 2), (2,), (2,))  # the parameters' shapes
NO_GRAD = 2  # the parameter that has no gradient on any rank (grad None)

MESSAGES = {
    "expected": ("{name}(params, all_reduce, world_size) -> None; every p.grad becomes the mean over the ranks",
                 "{name}(params, all_reduce, world_size) -> None；每个 p.grad 变成各进程的平均"),
    "wrong": ("  {ranks} ranks, rank {rank}, parameter {i}:\n    expected grad {want}\n    got           {got}",
              "  {ranks} 个进程，{rank} 号进程，第 {i} 个参数：\n    期望 grad {want}\n    得到      {got}"),
    "sum": ("  that is the sum over the {ranks} ranks: all_reduce adds them up; divide by world_size once",
            "  这是 {ranks} 个进程的和：all_reduce 只负责相加，还要除以一次 world_size"),
    "twice": ("  that is the mean divided by world_size again: divided before all_reduce and again after it",
              "  这是平均再除以一次 world_size：all_reduce 之前除了一次，之后又除了一次"),
    "own": ("  that is this rank's own gradient{divided}: all_reduce was never called on it, the ranks would drift apart",
            "  这是本进程自己的梯度{divided}：没有对它调用 all_reduce，各进程的权重会越走越远"),
    "divided": (" / world_size", " / world_size"),
    "none_grad": ("  p.grad is None: all_reduce changes its tensor in place and returns None, so "
                  "p.grad = all_reduce(p.grad) throws the sum away",
                  "  p.grad 成了 None：all_reduce 原地修改传进去的张量，返回 None，"
                  "p.grad = all_reduce(p.grad) 把和扔掉了"),
    "copy": ("  all_reduce summed a copy (p.grad / world_size, p.grad.clone()): it changes the tensor it is given "
             "in place, so call it on p.grad itself",
             "  all_reduce 加的是一个副本（p.grad / world_size、p.grad.clone()）：它只原地修改传给它的那个张量，"
             "要对 p.grad 本身调用"),
    "skip": ("  parameter {i} has no gradient (grad None, unused in this step): skip it, as DDP does",
             "  第 {i} 个参数没有梯度（grad 为 None，这一步没用到）：跳过它，DDP 也是这样做的"),
    "none_call": ("  got      all_reduce(None){where}", "  得到     all_reduce(None){where}"),
    "keep_none": ("  parameter {i} had no gradient and must keep grad None, got {got}",
                  "  第 {i} 个参数没有梯度，grad 应该保持 None，得到的是 {got}"),
    "returned": ("  returns None (the gradients change in place), got {got}",
                 "  应该返回 None（梯度是原地修改的），得到的是 {got}"),
    "passed": ("{name}: passed (2 and 3 ranks: every rank ends with the mean gradient, "
               "the parameter without one left alone)",
               "{name}：通过（2 个和 3 个进程：每个进程最后都是平均梯度，没有梯度的参数原样不动）"),
}
say = speaker(__name__)


class _NoneGiven(Exception):
    """all_reduce(None): the reader did not skip a parameter without a gradient."""


class _Ranks:
    """``world_size`` ranks as threads, and the fake ``all_reduce`` each of them calls."""

    def __init__(self, world_size: int):
        self.world_size = world_size
        self.barrier = threading.Barrier(world_size, timeout=10)
        self.slots: list = [None] * world_size
        self.given: list[list[torch.Tensor]] = [[] for _ in range(world_size)]  # the tensors each rank reduced

    def all_reduce(self, rank: int):
        def all_reduce(tensor, *args, **kwargs):  # like torch.distributed.all_reduce(tensor): op SUM, in place
            if tensor is None:
                raise _NoneGiven()
            self.given[rank].append(tensor)
            self.slots[rank] = tensor.detach().clone()
            self.barrier.wait()  # every rank has handed in its tensor
            total = sum(self.slots[1:], self.slots[0].clone())  # rank 0 + rank 1 + ...: the same on every rank
            self.barrier.wait()  # every rank has read the others' before any one changes its own
            with torch.no_grad():
                tensor.copy_(total)

        return all_reduce


def _params(rank: int) -> list[torch.Tensor]:
    """Rank ``rank``'s copy of the parameters: the same weights on every rank, its own gradients (rank r's are
    r + 1 times rank 0's: [1, 2, 3] on rank 0, [2, 4, 6] on rank 1, as in the page's all-reduce)."""
    params, start = [], 1.0
    for i, shape in enumerate(SHAPES):
        n = torch.Size(shape).numel()
        p = torch.nn.Parameter(torch.zeros(shape, dtype=torch.float64))
        if i != NO_GRAD:
            p.grad = (torch.arange(start, start + n, dtype=torch.float64) * (rank + 1)).reshape(shape)
        params.append(p)
        start += n
    return params


def _run(fn, world_size: int):
    """The reader's ``fn`` on every rank at once: (each rank's parameters, its own gradients, what fn returned,
    the ranks); re-raises the first error of the reader's code."""
    ranks = _Ranks(world_size)
    params = [_params(r) for r in range(world_size)]
    own = [[None if p.grad is None else p.grad.clone() for p in ps] for ps in params]
    ranks.grads = [[p.grad for p in ps] for ps in params]  # the grad tensors the reader is given
    returned, errors = [None] * world_size, [None] * world_size

    def rank(r: int):
        try:
            returned[r] = fn(params[r], ranks.all_reduce(r), world_size)
        except BaseException as e:  # the reader's error, or BrokenBarrierError after another rank's
            errors[r] = e
            ranks.barrier.abort()  # the others stop waiting for this one

    threads = [threading.Thread(target=rank, args=(r,), daemon=True) for r in range(world_size)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    first = [e for e in errors if e is not None and not isinstance(e, threading.BrokenBarrierError)]
    if first or any(errors):
        raise (first or [e for e in errors if e is not None])[0]
    return params, own, returned, ranks


def _copied(ranks: _Ranks, rank: int) -> bool:
    """Did ``rank`` hand all_reduce as many tensors as it has gradients, but not the gradients themselves?"""
    grads = [g for g in ranks.grads[rank] if g is not None]
    return len(ranks.given[rank]) >= len(grads) and not any(t is g for t in ranks.given[rank] for g in grads)


def _diagnose(got: torch.Tensor, own: torch.Tensor, mean: torch.Tensor, world_size: int, copied: bool):
    """The mistake that gives ``got``; ``copied``: all_reduce had a tensor for this parameter, not its grad."""
    if torch.allclose(got, mean * world_size):
        return say("sum", ranks=world_size)
    if torch.allclose(got, mean / world_size):
        return say("twice")
    if torch.allclose(got, own) or torch.allclose(got, own / world_size):
        if copied:
            return say("copy")
        return say("own", divided="" if torch.allclose(got, own) else say("divided"))
    return None


@reader_errors("expected")
def check_average_gradients(fn) -> Result:
    """``fn(params, all_reduce, world_size)`` on 2, then 3 ranks must leave every rank's gradients at their mean.

    Not yet: the first rank and parameter that differ, expected vs got, and the mistake that gives that."""
    name = name_of(fn)
    for world_size in WORLD_SIZES:
        try:
            params, own, returned, ranks = _run(fn, world_size)
        except _NoneGiven as e:  # all_reduce(None)
            return not_yet(name, say("none_call", where=where(e, source_file(fn))), say("skip", i=NO_GRAD))
        except TypeError as e:
            if "NoneType" not in str(e):
                raise
            got = Message("got_error", {"error": error_text(e), "where": where(e, source_file(fn))})
            return not_yet(name, got, say("skip", i=NO_GRAD))
        mean = [None if g is None else sum(own[r][i] for r in range(world_size)) / world_size
                for i, g in enumerate(own[0])]
        for r in range(world_size):
            if returned[r] is not None:
                return not_yet(name, say("returned", got=type(returned[r]).__name__))
            for i, p in enumerate(params[r]):
                if mean[i] is None:
                    if p.grad is not None:
                        return not_yet(name, say("keep_none", i=i, got=show(p.grad.tolist())))
                    continue
                if p.grad is None:
                    return not_yet(name, say("wrong", ranks=world_size, rank=r, i=i, want=show(mean[i].tolist()),
                                             got="None"), say("none_grad"))
                if tuple(p.grad.shape) != tuple(mean[i].shape) or not torch.allclose(p.grad.double(), mean[i]):
                    got = p.grad.detach().double()
                    lines = [say("wrong", ranks=world_size, rank=r, i=i, want=show(mean[i].tolist()),
                                 got=show(got.tolist()))]
                    if got.shape == mean[i].shape:
                        why = _diagnose(got, own[r][i], mean[i], world_size, _copied(ranks, r))
                        lines += [why] if why is not None else []
                    return not_yet(name, *lines)
    return passed(name, say("passed"))


LESSON = Lesson("scale-out", introduces=(("train.py", "average_gradients"),), checks=(
    Check("average_gradients", "all-reduce",
          lambda wb: check_average_gradients(wb.get("train.py", "average_gradients"))),))
