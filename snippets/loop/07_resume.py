import shutil
import tempfile
from pathlib import Path

import torch

from minigpt.presets import get_preset
from minigpt.train import lr_at, make_engine, train


class Killed(Exception):
    pass


def kill_at(step):
    def log(line):  # train calls this after each evaluation, once ckpt.pt is written
        if line.startswith(f"step {step:>6}:"):
            raise Killed(line)
    return log


kw = dict(n_layer=1, lr=1e-2, min_lr=1e-3, max_steps=60, warmup_steps=10, eval_interval=20,
          eval_iters=4, dtype="float64", threads=1)
with tempfile.TemporaryDirectory() as tmp:
    a, b, c = (str(Path(tmp) / name) for name in "abc")
    whole = train(get_preset("tiny", out_dir=a, **kw), plot=False)
    try:
        train(get_preset("tiny", out_dir=b, **kw), plot=False, log=kill_at(40))
    except Killed:
        print("stopped right after the checkpoint of step 40, then resumed from it")
    shutil.copytree(b, c)  # control: the same checkpoint with the optimizer's state replaced by a fresh one
    ckpt = torch.load(Path(c) / "ckpt.pt", weights_only=True)
    config = get_preset("tiny", out_dir=c, **kw)
    ckpt["optimizer"] = make_engine(config, config.gpt_config(69)).optimizer.state_dict()
    torch.save(ckpt, Path(c) / "ckpt.pt")
    resumed = train(get_preset("tiny", out_dir=b, **kw), plot=False, resume=True)
    fresh_adam = train(config, plot=False, resume=True)
print("step  lr        never stopped  stopped + resumed  control: fresh AdamW state")
for step in (1, 6, 11, 20, 40, 41, 42, 50, 60):  # lr: the rate of that step (lr_at counts from 0)
    after = f"   {resumed.losses[step]:.10f}       {fresh_adam.losses[step]:.10f}" if step > 40 else ""
    print(f"{step:>4}  {lr_at(step - 1, config):.2e}  {whole.losses[step]:.10f}{after}")
for name, run in (("stopped + resumed", resumed), ("control", fresh_adam)):
    same = all(whole.losses[s] == run.losses[s] for s in run.losses)
    print(f"{name}: all {len(run.losses)} training losses after step 40 identical: {same}")
print(f"final val loss: {whole.val_loss:.10f} vs {resumed.val_loss:.10f}")
