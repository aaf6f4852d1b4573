import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from minigpt.data import shakespeare_corpus
from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset

if "RANK" in os.environ:  # started by torchrun: one of the two processes
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    config, corpus = get_preset("tiny"), shakespeare_corpus()
    model = GPT(config.gpt_config(corpus.tokenizer.vocab_size), seed=0)
    x, y = (torch.from_numpy(a) for a in corpus.get_batch("train", 8, config.block_size, np.random.default_rng(0)))
    mine = slice(4 * rank, 4 * rank + 4)  # rank 0: sequences 0..3, rank 1: 4..7

    def gradient(net, xb, yb):  # (P,) every weight's gradient, flattened
        model.zero_grad()
        net(xb, yb)[1].backward()
        return torch.cat([p.grad.flatten() for p in model.parameters()])

    local = gradient(model, x[mine], y[mine])  # the plain model: this rank's 4 sequences only
    synced = gradient(DDP(model), x[mine], y[mine])  # the same 4, through DDP: all-reduced in backward()
    whole = gradient(model, x, y)  # one process's gradient on all 8, for comparison
    Path(sys.argv[1], f"rank{rank}.txt").write_text(f"rank {rank}: own {[round(v, 5) for v in local[:3].tolist()]}, "
          f"after DDP {[round(v, 5) for v in synced[:3].tolist()]}, "
          f"= all 8 (1e-6): {torch.allclose(synced, whole, atol=1e-6)}")
    dist.barrier()
    dist.destroy_process_group()
    sys.exit()

out = tempfile.mkdtemp()  # each rank writes its line to a file of its own: two ranks printing at once mix their lines
subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2", __file__, out],
               check=True, capture_output=True)
for rank in (0, 1):
    print(Path(out, f"rank{rank}.txt").read_text())
