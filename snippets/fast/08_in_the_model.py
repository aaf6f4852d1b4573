import tempfile

import torch

from minigpt.presets import get_preset
from minigpt.train import train

torch.set_num_threads(1)
print("tiny preset, 40 steps of 8 x 32 tokens of tiny Shakespeare, 1 thread, torch engine")
print("seed  float32 val   bfloat16 val   difference")
diffs, f32 = [], []
for seed in (0, 1, 2):
    val = {}
    for dtype in ("float32", "bfloat16"):
        with tempfile.TemporaryDirectory() as out:
            config = get_preset("tiny", seed=seed, dtype=dtype, device="cpu", threads=1, max_steps=40,
                                eval_interval=40, eval_iters=5, out_dir=out)
            result = train(config, progress=False, plot=False)
        val[dtype] = result.val_loss
    diffs.append(val["bfloat16"] - val["float32"])
    f32.append(val["float32"])
    print(f"{seed:4d}  {val['float32']:12.3f}  {val['bfloat16']:13.3f}  {round(diffs[-1], 3) + 0.0:+10.3f}")
print(f"largest |difference|: {max(abs(d) for d in diffs):.3f} nats")
print(f"spread of float32 across the 3 seeds: {max(f32) - min(f32):.3f} nats")
