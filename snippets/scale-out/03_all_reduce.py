import os
import subprocess
import sys
import tempfile
from pathlib import Path

import torch
import torch.distributed as dist

if "RANK" in os.environ:  # started by torchrun: one of the two processes
    dist.init_process_group("gloo")  # meet the other process at the address torchrun set
    rank = dist.get_rank()
    t = torch.tensor([1.0, 2.0, 3.0]) * (rank + 1)  # rank 0: 1 2 3, rank 1: 2 4 6
    before = t.tolist()
    dist.all_reduce(t, op=dist.ReduceOp.SUM)  # every rank ends with the sum
    Path(sys.argv[1], f"rank{rank}.txt").write_text(f"rank {rank}: before {before}, after all_reduce(SUM) {t.tolist()}, / 2 = {(t / 2).tolist()}")
    dist.barrier()
    dist.destroy_process_group()
    sys.exit()

out = tempfile.mkdtemp()  # each rank writes its line to a file of its own: two ranks printing at once mix their lines
subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2", __file__, out],
               check=True, capture_output=True)
for rank in (0, 1):
    print(Path(out, f"rank{rank}.txt").read_text())
