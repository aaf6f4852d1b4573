import tempfile

from minigpt.data import poem_corpus
from minigpt.presets import get_preset
from minigpt.train import train

corpus = poem_corpus()
steps, seeds = 30, (1, 2)
print(f"validation loss after {steps} steps (preset tiny, poems, float32, 1 thread, 4 eval batches)")
print("n_head  " + "  ".join(f"seed {s}" for s in seeds))
for n_head in (1, 4, 16):
    losses = []
    for seed in seeds:
        with tempfile.TemporaryDirectory() as out:
            config = get_preset("tiny", corpus="poems", n_head=n_head, seed=seed, max_steps=steps,
                                eval_interval=steps, eval_iters=4, threads=1, dtype="float32", out_dir=out)
            losses.append(train(config, corpus=corpus, progress=False, plot=False).val_loss)
    print(f"{n_head:>6}  " + "  ".join(f"{loss:>6.2f}" for loss in losses))
