import numpy as np
import torch

from minigpt.data import shakespeare_corpus
from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset

torch.set_num_threads(1)
config = get_preset("tiny")
corpus = shakespeare_corpus()
model = GPT(config.gpt_config(corpus.tokenizer.vocab_size), seed=0)
x, y = (torch.from_numpy(a) for a in corpus.get_batch("train", 4, config.block_size, np.random.default_rng(1337)))


def gradient(xb, yb):  # (P,) d(mean loss) / d(weights)
    model.zero_grad()
    model(xb, yb)[1].backward()
    return torch.cat([p.grad.flatten() for p in model.parameters()])


twice = gradient(torch.cat([x, x]), torch.cat([y, y]))  # both ranks drew the same 4 sequences: (8, T)
once = gradient(x, y)  # one process, those 4 alone: (4, T)
print("gradient of the same 4 twice == gradient of the 4 once (1e-6):", torch.allclose(twice, once, atol=1e-6))
