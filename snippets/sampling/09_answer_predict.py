import numpy as np
import torch
from poet import prompt

from minigpt.tiny_models import tiny_poet

model, tok, _ = tiny_poet()
with torch.no_grad():
    logits = model(prompt(tok))[0][0, -1].double().numpy()  # (V,) the poem's first character
for T in (0.5, 1.0, 1.5):
    p = np.exp(logits / T - (logits / T).max())
    p /= p.sum()
    ranked = np.sort(p)[::-1]
    top_k = set(np.argsort(-p, kind="stable")[:20].tolist())  # the 20 tokens top-k keeps
    top_p = int(((np.cumsum(ranked) - ranked) < 0.9).sum())  # how many top-p 0.9 keeps
    same = top_k == set(np.argsort(-logits, kind="stable")[:20].tolist())
    print(f"T = {T}: top-k 20 keeps the 20 highest logits: {same}; top-p 0.9 keeps {top_p:,}")
