"""Run under torchrun by tests/test_distributed.py: train() on the small word corpus, one JSON per rank.

    torchrun --standalone --nproc_per_node=2 tests/ddp_run.py OUT_DIR

Four runs in one launch (the process group made here once, so train() uses it and leaves it open):
"ddp" without dropout (for the comparison with one process), and with dropout 0.1 "whole" (6 steps),
"half" (3 steps) and "resumed" (from half's checkpoint to step 6). Each rank writes OUT_DIR/rank<r>.json:
per run, its training losses, a fingerprint of its final weights, and how often it called write_log and
save_checkpoint (only rank 0 should)."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import torch.distributed as dist

import minigpt.train as train_module
from minigpt.presets import get_preset
from test_train import text_corpus  # this script's folder is tests/

STEPS, EVERY = 6, 3


def config(out_dir: str, **overrides):
    return get_preset("tiny", max_steps=STEPS, eval_interval=EVERY, eval_iters=2, batch_size=4, out_dir=out_dir,
                      device="cpu", threads=1, dtype="float32", **overrides)


def count_writes() -> dict:
    calls = {"write_log": 0, "save_checkpoint": 0}
    for name in calls:
        original = getattr(train_module, name)

        def counted(*args, _name=name, _original=original):
            calls[_name] += 1
            return _original(*args)

        setattr(train_module, name, counted)
    return calls


def main(out: str) -> None:
    dist.init_process_group("gloo")
    corpus, calls, report = text_corpus(), count_writes(), {}
    resumable = config(f"{out}/whole", dropout=0.1, lr_decay_steps=STEPS)
    runs = {"ddp": (config(f"{out}/ddp"), False),
            "whole": (resumable, False),
            "half": (replace(resumable, out_dir=f"{out}/split", max_steps=EVERY), False),
            "resumed": (replace(resumable, out_dir=f"{out}/split"), True)}
    for name, (cfg, resume) in runs.items():
        calls.update(write_log=0, save_checkpoint=0)
        result = train_module.train(cfg, corpus=corpus, progress=False, resume=resume)
        weights = {k: float(v.double().abs().sum()) for k, v in result.model.state_dict().items()}
        report[name] = {"losses": result.losses, "weights": weights, "calls": dict(calls)}
    Path(out, f"rank{dist.get_rank()}.json").write_text(json.dumps(report))
    dist.barrier()  # both ranks done before either leaves (gloo can abort at exit otherwise)
    dist.destroy_process_group()


if __name__ == "__main__":
    main(sys.argv[1])
