import tempfile

from minigpt.checkpoint import CheckpointError
from minigpt.presets import get_preset
from minigpt.train import train

kw = dict(n_layer=1, max_steps=20, warmup_steps=0, eval_interval=20, eval_iters=2, dtype="float64", threads=1)
with tempfile.TemporaryDirectory() as out:
    try:
        train(get_preset("tiny", out_dir=out, **kw), plot=False, resume=True)
    except CheckpointError as e:
        print(f"{type(e).__name__}: {e}".replace(out, "OUT"))
    train(get_preset("tiny", out_dir=out, **kw), plot=False)
    try:
        train(get_preset("tiny", out_dir=out, **{**kw, "n_embd": 128}), plot=False, resume=True)
    except CheckpointError as e:
        print(f"{type(e).__name__}: {e}".replace(out, "OUT"))
    try:
        train(get_preset("tiny", out_dir=out, **{**kw, "lr": 1e6, "grad_clip": 0.0}), plot=False)
    except FloatingPointError as e:
        print(f"{type(e).__name__}: {e}")
    try:
        get_preset("tiny", warmup_steps=-1)
    except ValueError as e:
        print(f"{type(e).__name__}: {e}")
