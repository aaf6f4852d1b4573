import numpy as np
import torch

from minigpt.data import shakespeare_corpus
from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset

torch.set_num_threads(1)
config = get_preset("tiny")
corpus = shakespeare_corpus()
model = GPT(config.gpt_config(corpus.tokenizer.vocab_size), seed=0)
x, y = (torch.from_numpy(a) for a in corpus.get_batch("train", 8, config.block_size, np.random.default_rng(0)))


def gradient(xb, yb):  # d(mean loss over the batch) / d(every weight), flattened
    model.zero_grad()
    _, loss = model(xb, yb)  # the mean over B * T positions
    loss.backward()
    return torch.cat([p.grad.flatten() for p in model.parameters()]), loss.item()


g_all, loss_all = gradient(x, y)  # one process, 8 sequences
g0, loss0 = gradient(x[:4], y[:4])  # "rank 0": the first 4
g1, loss1 = gradient(x[4:], y[4:])  # "rank 1": the last 4
print(f"loss of all 8: {loss_all:.6f}   mean of the two halves' losses: {(loss0 + loss1) / 2:.6f}")
print(f"gradient: {g_all.numel():,} numbers")
print("gradient of all 8 == mean of the halves' gradients (within 1e-6):",
      torch.allclose(g_all, (g0 + g1) / 2, atol=1e-6))
print("gradient of all 8 == sum of the halves' gradients (within 1e-6):",
      torch.allclose(g_all, g0 + g1, atol=1e-6))
