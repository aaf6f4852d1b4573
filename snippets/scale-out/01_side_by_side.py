import json
import os
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import torch

from minigpt.data import shakespeare_corpus
from minigpt.presets import get_preset
from minigpt.train import one_process_twin, train

STEPS = 8
config = get_preset("tiny", batch_size=4, max_steps=STEPS, eval_interval=STEPS, eval_iters=2,
                    device="cpu", threads=1, dtype="float32")

if "RANK" in os.environ:  # started by torchrun: one of the two processes
    out = sys.argv[1]
    result = train(replace(config, out_dir=out), progress=False)  # rank 0 alone writes ckpt.pt
    Path(out, f"rank{os.environ['RANK']}.json").write_text(json.dumps(result.losses))
    sys.exit()

out = tempfile.mkdtemp()
subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2",
                __file__, out], check=True, capture_output=True)
ranks = [{int(k): v for k, v in json.loads(Path(out, f"rank{r}.json").read_text()).items()} for r in (0, 1)]
torch.set_num_threads(1)
corpus = shakespeare_corpus()
twin = one_process_twin(config, corpus, world_size=2)  # batch 8: rank 0's 4 + rank 1's 4
alone = train(replace(config, batch_size=8, out_dir=tempfile.mkdtemp()), corpus=corpus, progress=False).losses

print("step  2 processes x 4   1 process, both ranks' 8   1 process, its own 8")
for s in range(1, STEPS + 1):
    print(f"{s:>4}  {ranks[0][s]:.4f}            {twin[s]:.4f}                     {alone[s]:.4f}")
print("rank 0 and rank 1 report the same losses:", ranks[0] == ranks[1])
print("2 processes vs both ranks' batches in 1, all within 1e-5:",
      max(abs(ranks[0][s] - twin[s]) for s in twin) < 1e-5)
print("2 processes vs 1 process drawing its own 8, all within 1e-5:",
      max(abs(ranks[0][s] - alone[s]) for s in twin) < 1e-5)
