import subprocess
import sys
import tempfile

import torch

from minigpt.checkpoint import load_checkpoint
from minigpt.train import read_log

TORCHRUN = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2"]
TRAIN = ["-m", "minigpt", "train", "--preset", "tiny", "--batch-size", "4", "--dropout", "0.1",
         "--eval-interval", "3", "--eval-iters", "2", "--lr-decay-steps", "6", "--threads", "1",
         "--device", "cpu", "--dtype", "float32", "--no-progress"]
whole, split = tempfile.mkdtemp(), tempfile.mkdtemp()
runs = [subprocess.Popen(TORCHRUN + TRAIN + ["--max-steps", "6", "--out", whole], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL),  # uninterrupted: steps 1..6
        subprocess.Popen(TORCHRUN + TRAIN + ["--max-steps", "3", "--out", split], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)]  # stopped after step 3
assert all(run.wait() == 0 for run in runs)
subprocess.run(TORCHRUN + ["-m", "minigpt", "train", "--out", split, "--resume", "--max-steps", "6",
                           "--no-progress"], check=True, capture_output=True)  # steps 4..6

print("step  uninterrupted        stopped at 3, resumed")
for a, b in zip(read_log(f"{whole}/log.csv"), read_log(f"{split}/log.csv")):
    print(f"{a['step']:>4}  val {a['val_loss']:.6f}     val {b['val_loss']:.6f}")
ckpt_a, ckpt_b = load_checkpoint(whole), load_checkpoint(split)
print("weights at step 6 identical:", all(torch.equal(ckpt_a["model"][k], ckpt_b["model"][k]) for k in ckpt_a["model"]))
print("processes in the checkpoint:", ckpt_b["world_size"], "| generators kept:", len(ckpt_b["ranks"]))
alone = subprocess.run([sys.executable, "-m", "minigpt", "train", "--out", split, "--resume", "--max-steps", "9"],
                       capture_output=True, text=True)  # one process
print(f"one process resuming it: exit {alone.returncode}:", alone.stderr.split(": ", 2)[2].split(" was ")[1].strip())
