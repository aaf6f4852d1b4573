"""Data-parallel training under torchrun (minigpt.distributed): two CPU processes on the gloo backend.

Two torchrun launches, started together to save time: tests/ddp_run.py, which calls train() four times
(see there), and `minigpt train` itself."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import torch

from ddp_run import EVERY, STEPS, config
from minigpt.checkpoint import load_checkpoint
from minigpt.train import one_process_twin
from minigpt.train import train
from test_train import text_corpus

ROOT = Path(__file__).resolve().parent.parent
TORCHRUN = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2"]


def launch(args: list[str]) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT / "tests")])}
    return subprocess.Popen(TORCHRUN + args, cwd=ROOT, env=env, text=True, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(proc: subprocess.Popen) -> str:
    try:
        out, err = proc.communicate(timeout=300)  # a hung collective would otherwise wait for 30 minutes
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # torchrun and both ranks
        out, err = proc.communicate()
        pytest.fail(f"torchrun timed out:\n{out}\n{err[-3000:]}")
    assert proc.returncode == 0, f"torchrun exited {proc.returncode}:\n{out}\n{err[-3000:]}"
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("ddp")
    script = launch([str(ROOT / "tests" / "ddp_run.py"), str(base)])
    cli = launch(["-m", "minigpt", "train", "--preset", "tiny", "--max-steps", "3", "--eval-interval", "3",
                  "--eval-iters", "2", "--batch-size", "4", "--threads", "1", "--device", "cpu", "--no-progress",
                  "--out", str(base / "cli")])
    outputs = {"script": finish(script), "cli": finish(cli)}
    ranks = [json.loads((base / f"rank{r}.json").read_text()) for r in (0, 1)]
    return base, ranks, outputs


def test_two_processes_match_one_process_with_the_doubled_batch(runs):
    base, (r0, r1), _ = runs
    assert r0["ddp"]["losses"] == r1["ddp"]["losses"]  # all-reduced: every rank reports the same loss
    assert r0["ddp"]["weights"] == r1["ddp"]["weights"]  # the copies stayed equal, bit for bit
    ddp = [r0["ddp"]["losses"][str(s)] for s in range(1, STEPS + 1)]
    torch.set_num_threads(1)
    twin = one_process_twin(config(str(base / "unused")), text_corpus(), world_size=2)
    assert max(abs(a - twin[s]) for s, a in enumerate(ddp, 1)) < 1e-5, (ddp, twin)
    # control: one process with batch 8 from its own generator sees other sequences, so other losses
    plain = train(replace(config(str(base / "plain")), batch_size=8), corpus=text_corpus(), progress=False)
    assert max(abs(a - plain.losses[s]) for s, a in enumerate(ddp, 1)) > 1e-3


def test_rank_zero_alone_writes_and_prints(runs):
    base, (r0, r1), outputs = runs
    assert r0["ddp"]["calls"] == {"write_log": 3, "save_checkpoint": 3}  # steps 0, 3, 6
    assert r1["ddp"]["calls"] == {"write_log": 0, "save_checkpoint": 0}
    assert sorted(p.name for p in (base / "ddp").iterdir()) == ["ckpt.pt", "log.csv", "loss.png"]
    lines = outputs["cli"].splitlines()
    assert lines[0].startswith("training shakespeare") and "batch 4 per process x 2 processes" in lines[0]
    assert [line.split(":")[0] for line in lines[1:-1]] == ["step      0", "step      3"]  # once each
    assert lines[-1].startswith("done: step 3") and len(lines) == 4
    assert load_checkpoint(base / "cli")["world_size"] == 2


def test_a_resumed_distributed_run_continues_exactly(runs):
    base, ranks, _ = runs
    for r in ranks:  # dropout on: each rank's batch and dropout generators must come back
        whole, half, resumed = (r[name]["losses"] for name in ("whole", "half", "resumed"))
        assert sorted(map(int, resumed)) == list(range(EVERY + 1, STEPS + 1))
        assert {**half, **resumed} == whole  # bit for bit
        assert r["resumed"]["weights"] == r["whole"]["weights"]
    # control: the ranks' generators differ, so restoring rank 0's on both would be wrong
    first, second = load_checkpoint(base / "split")["ranks"]
    assert first["batch_rng"] != second["batch_rng"]
    assert not torch.equal(first["engine_rng"]["torch"], second["engine_rng"]["torch"])


def test_one_process_refuses_to_resume_a_two_process_checkpoint(runs, capsys):
    from cli_run import run

    base, _, _ = runs
    code, _, err = run(capsys, "train", "--out", str(base / "cli"), "--resume", "--max-steps", "6",
                       "--no-progress")
    assert code == 1 and "was trained by 2 processes; resume it under torchrun --nproc_per_node=2" in err
