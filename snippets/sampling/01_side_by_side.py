import numpy as np
from poet import prompt

from minigpt.generate import decode_rows, poem_nll
from minigpt.poetry import check_form, check_repeats
from minigpt.tiny_poet import tiny_poet

model, tok, _ = tiny_poet()
x = prompt(tok, "五言绝句", "月,江")  # (1, T)
N = 50  # samples per way, one batch
ways = {"greedy": dict(temperature=0.0), "T = 0.5": dict(temperature=0.5),
        "T = 1.0": dict(temperature=1.0), "T = 1.5": dict(temperature=1.5),
        "top-k 20": dict(temperature=1.0, top_k=20), "top-p 0.9": dict(temperature=1.0, top_p=0.9)}
print(f"{'':10}  form ok  repeats  NLL/token  distinct  first sample (seed 0)")
for name, kw in ways.items():
    out = model.generate(x.repeat(N, 1), 40, stop=tok.eos_id, rng=np.random.default_rng(0), **kw)  # (N, T+40)
    texts = decode_rows(tok, out[:, x.shape[1]:].tolist())
    form = np.mean([check_form(t, "五言绝句").ok for t in texts])
    rep = [check_repeats(t) for t in texts]
    share = sum(r.repeated for r in rep) / max(1, sum(r.chars for r in rep))
    nll = np.mean([poem_nll(model, x[0].tolist(), tok.encode(t)) for t in texts if t])
    print(f"{name:10}  {form:7.0%}  {share:7.0%}  {nll:9.2f}  {len(set(texts)):>5}/{N}  {texts[0][:20]}")
