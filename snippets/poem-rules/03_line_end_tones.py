import numpy as np
from recorder import write_strict

from minigpt.poetry import tone_patterns
from minigpt.tiny_models import tiny_poet

model, tok, _ = tiny_poet()
text, steps, rule = write_strict(model, tok, "五言绝句", "月,江", seed=0)
print(f"poem: {text}")
NEED = {0: "free", 1: "平", 2: "仄", 3: "平 or 仄"}
print("step  line  char  open patterns  allowed  p(allowed)  written  the rules ask")
for k, s in enumerate(steps[:12]):
    i, j = divmod(s["n"], rule.L + 1)  # line i, character j (j == L: the punctuation)
    if j == rule.L:
        need = "，；？！" if i % 2 == 0 else "。？！"
    else:
        need = NEED[np.bitwise_or.reduce([rule.need[p][i][j] for p in range(4) if s["patterns"] >> p & 1])]
    p = np.exp(s["logits"] - s["logits"].max())
    p /= p.sum()  # the model's own probabilities, temperature 1
    allowed = np.isfinite(s["masked"])
    print(f"{k:>4}  {i + 1:>4}  {j + 1:>4}  {bin(s['patterns']).count('1'):>13}  {allowed.sum():>7,}  "
          f"{p[allowed].sum():>10.3f}  {tok.itos[s['picked']]:>6}  {need}")
print("patterns:", ", ".join(f"{q.name} {'/'.join(q.lines[:2])}" for q in tone_patterns("五言绝句")))
