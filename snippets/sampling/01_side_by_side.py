import re

import numpy as np
import torch

from minigpt.data import load_shakespeare
from minigpt.generate import decode_rows, poem_nll
from minigpt.tiny_models import tiny_bard

model, tok, _ = tiny_bard()  # a small Shakespeare model: its text can be read
WORD = re.compile(r"[a-z]+(?:'[a-z]+)*")  # letters, and an apostrophe inside: thou, i'll, year'd
known = set(WORD.findall(load_shakespeare().lower()))  # every word of the plays
x = torch.tensor([tok.encode("ROMEO:\n")])  # (1, 7)
N, new = 50, model.config.block_size + 1 - x.shape[1]  # 50 samples per way, 58 new characters each
ways = {"greedy": dict(temperature=0.0), "T = 0.5": dict(temperature=0.5),
        "T = 1.0": dict(temperature=1.0), "T = 1.5": dict(temperature=1.5),
        "top-k 20": dict(temperature=1.0, top_k=20), "top-p 0.9": dict(temperature=1.0, top_p=0.9)}
print(f"{'':9}  real  repeats  NLL/token  distinct")
firsts = {}
for name, kw in ways.items():
    out = model.generate(x.repeat(N, 1), new, rng=np.random.default_rng(0), **kw)  # (N, 7 + 58)
    rows = out[:, x.shape[1]:].tolist()
    texts = decode_rows(tok, rows)
    words = [WORD.findall(t.lower())[:-1] for t in texts]  # the last word may be cut short: left out
    count = sum(map(len, words))
    real = sum(w in known for ws in words for w in ws) / count
    repeats = sum(w in ws[max(0, i - 3):i] for ws in words for i, w in enumerate(ws)) / count  # one of the 3 before
    nll = np.mean([poem_nll(model, x[0].tolist(), row) for row in rows])  # the model's loss at T = 1
    print(f"{name:9}  {real:4.0%}  {repeats:7.0%}  {nll:9.2f}  {len(set(texts)):>5}/{N}")
    firsts[name] = re.sub(r"\s*\n\s*", " / ", texts[0])  # new lines (and blank ones) as /
print("first sample of each (seed 0), new lines as /:")
for name, text in firsts.items():
    print(f"{name:9}  {text[:47].rstrip()}…")
