import os
import subprocess
import sys

import torch
import torch.distributed as dist

if "RANK" in os.environ:  # started by torchrun: one of the two processes
    dist.init_process_group("gloo")  # meet the other process at the address torchrun set
    rank = dist.get_rank()
    t = torch.tensor([1.0, 2.0, 3.0]) * (rank + 1)  # rank 0: 1 2 3, rank 1: 2 4 6
    before = t.tolist()
    dist.all_reduce(t, op=dist.ReduceOp.SUM)  # every rank ends with the sum
    print(f"rank {rank}: before {before}, after all_reduce(SUM) {t.tolist()}, / 2 = {(t / 2).tolist()}")
    dist.barrier()
    dist.destroy_process_group()
    sys.exit()

done = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2",
                       __file__], check=True, capture_output=True, text=True)
print("".join(sorted(done.stdout.splitlines(keepends=True))), end="")  # the ranks print in any order
