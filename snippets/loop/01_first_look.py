import math
import tempfile

from minigpt.presets import get_preset
from minigpt.train import train

with tempfile.TemporaryDirectory() as out:
    # tiny with 1 layer (64 wide, context 32, batch 8); float64: the same digits on every CPU
    config = get_preset("tiny", n_layer=1, lr=1e-2, min_lr=1e-3, max_steps=150, warmup_steps=15,
                        eval_interval=50, eval_iters=8, dtype="float64", threads=1, out_dir=out)
    result = train(config, plot=False)
print("step  lr        train loss  val loss")
for row in result.history:
    print(f"{row['step']:>4}  {row['lr']:.2e}  {row['train_loss']:10.4f}  {row['val_loss']:8.4f}")
print(f"ln V = ln 69 = {math.log(69):.4f}")
