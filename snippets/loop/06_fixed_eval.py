import tempfile

import numpy as np
import torch

from minigpt.presets import get_preset
from minigpt.train import start_run, train

with tempfile.TemporaryDirectory() as out:
    config = get_preset("tiny", n_layer=1, lr=1e-2, min_lr=1e-3, max_steps=150, warmup_steps=15,
                        eval_interval=50, eval_iters=8, dtype="float64", threads=1, out_dir=out)
    result = train(config, plot=False)
run1, run2 = start_run(config), start_run(get_preset("tiny", seed=2, eval_iters=8))
same = all((a[0] == b[0]).all() for a, b in zip(run1.eval_batches["val"], run2.eval_batches["val"]))
print(f"seed 1 and seed 2 evaluate on the same {len(run1.eval_batches['val'])} val batches: {same}")

model = result.model.eval()
rng = np.random.default_rng(0)
with torch.no_grad():
    one = [model(*map(torch.from_numpy, run1.corpus.get_batch("val", 8, 32, rng)))[1].item()
           for _ in range(200)]  # 200 random single batches, one model
    fixed = [np.mean([model(torch.from_numpy(x), torch.from_numpy(y))[1].item()
                      for x, y in run1.eval_batches["val"]]) for _ in range(2)]
print(f"one random batch: from {min(one):.3f} to {max(one):.3f}, std {np.std(one):.3f}")
print(f"mean of the 8 fixed batches: {fixed[0]:.4f}, again: {fixed[1]:.4f}")
h = result.history
print(f"val loss gained from step 100 to 150: {h[-2]['val_loss'] - h[-1]['val_loss']:.3f}")
