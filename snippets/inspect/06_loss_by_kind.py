import math

import numpy as np
import torch
import torch.nn.functional as F

from minigpt.data import poem_corpus
from minigpt.tiny_models import tiny_poet

corpus = poem_corpus()
model, tok, _ = tiny_poet()
bs = model.config.block_size
val = corpus.val[:20_000]  # the validation split's first 20,000 tokens, as in the check below
n = (len(val) - 1) // bs
x = torch.from_numpy(val[: n * bs]).view(n, bs)  # (N, T)
y = torch.from_numpy(val[1 : n * bs + 1]).view(n, bs)  # (N, T) the next token
with torch.no_grad():
    nll = torch.cat([F.cross_entropy(model(x[i : i + 64])[0].flatten(0, 1), y[i : i + 64].flatten(),
                                     reduction="none") for i in range(0, n, 64)]).numpy()  # (N*T,)
kinds, seps, before = [], 0, None  # the kind of each target token, read along the stream
for t in y.flatten().tolist():
    name = tok.itos[t]
    if t == tok.bos_id:
        seps, kind = 0, "prompt: form, keywords, <sep>"
    elif seps < 2:
        seps += t == tok.sep_id
        kind = "prompt: form, keywords, <sep>"
    elif t == tok.eos_id:
        kind = "<eos>"
    elif name in "，。？！；":
        kind = "line-end mark"
    elif before == tok.sep_id:
        kind = "poem's first character"
    elif tok.itos[before] in "，。？！；":
        kind = "a later line's first character"
    else:
        kind = "other characters"
    kinds.append(kind)
    before = t
kinds = np.array(kinds)
print(f"{'next token':<32}{'share':>7}{'loss':>7}{'perplexity':>12}")
for kind in ("prompt: form, keywords, <sep>", "poem's first character", "a later line's first character",
             "other characters", "line-end mark", "<eos>"):
    mine = nll[kinds == kind]
    print(f"{kind:<32}{len(mine) / len(nll):>7.1%}{mine.mean():>7.2f}{math.exp(mine.mean()):>12,.1f}")
print(f"{'all':<32}{1:>7.0%}{nll.mean():>7.2f}{math.exp(nll.mean()):>12,.1f}")
