import numpy as np

from block_variants import NoResidualBlock, gpt_with
from minigpt.config import GPTConfig
from minigpt.data import shakespeare_corpus
from minigpt.gpt import Block
from minigpt.optim import AdamW

corpus = shakespeare_corpus()
V = corpus.tokenizer.vocab_size
config = GPTConfig(vocab_size=V, n_layer=6, n_embd=32, block_size=16)
xv, yv = corpus.get_batch("val", 64, 16, np.random.default_rng(99))  # (64, 16), fixed
steps, seeds = 100, (0, 1, 2)
print(f"numpy engine, float64, 6 blocks, C=32, T=16, B=8, AdamW lr=1e-2, {steps} steps;"
      " validation loss")
print(f"{'':<12}" + "".join(f"  seed {s}" for s in seeds) + "    mean")
for name, kind in (("pre-norm", Block), ("no residual", NoResidualBlock)):
    losses = []
    for seed in seeds:
        model = gpt_with(kind, config, seed).to(np.float64)
        opt = AdamW(model.parameters(), lr=1e-2)
        rng = np.random.default_rng(seed)
        for _ in range(steps):
            x, y = corpus.get_batch("train", 8, 16, rng)  # (B, T)
            _, loss = model(x, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        losses.append(float(model(xv, yv)[1].data))
    row = "".join(f"{v:>8.3f}" for v in losses)
    print(f"{name:<12}{row}{np.mean(losses):>8.3f}")
print(f"ln V = {np.log(config.vocab_size):.3f}")
