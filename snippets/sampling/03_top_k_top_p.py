import numpy as np
import torch
from poet import prompt

from minigpt.tiny_models import tiny_poet

model, tok, _ = tiny_poet()
x = prompt(tok, "五言绝句", "月,江")  # (1, T)
poem = "床前明月光，疑是地上霜。举头望明月，低头思故乡。"
steps = {"first character": x,  # flat: anything can open a poem
         "after a whole quatrain": torch.cat([x, torch.tensor([tok.encode(poem)])], dim=1)}  # peaked: <eos>
for name, ids in steps.items():
    with torch.no_grad():
        p = torch.softmax(model(ids)[0][0, -1].double(), dim=-1).numpy()  # (V,) temperature 1
    ranked = np.sort(p)[::-1]  # most likely first
    before = np.cumsum(ranked) - ranked  # the probability of the tokens ranked above each
    best = int(p.argmax())
    print(f"{name}: most likely {tok.itos[best]} {p[best]:.3f}")
    print(f"  top-k 20 keeps 20 tokens, {ranked[:20].sum():.3f} of the probability")
    for top_p in (0.9, 0.5):
        right = int((before < top_p).sum())  # as sample() does: drop once the tokens above hold top_p
        wrong = int((np.cumsum(ranked) <= top_p).sum())  # drops the token that crosses top_p
        print(f"  top-p {top_p}: keeps {right:,} ({ranked[:right].sum():.3f} of the probability); "
              f"the wrong filter {wrong:,} ({ranked[:wrong].sum():.3f})")
