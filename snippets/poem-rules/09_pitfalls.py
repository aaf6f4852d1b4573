import numpy as np
from recorder import prompt

from minigpt.constrain import PoemConstraint
from minigpt.tiny_models import tiny_poet

model, tok, _ = tiny_poet()
for form, keywords in (("五言绝句", "明月光照"), ("五言绝句", "月,𠀋"), ("古风", "月")):
    try:
        PoemConstraint(tok, form, keywords)
    except ValueError as e:
        print(f"ValueError: {e}")
try:
    PoemConstraint(tok, "七言律诗", "月,江").check_room(40)
except ValueError as e:
    print(f"ValueError: {e}")
rule = PoemConstraint(tok, "五言绝句", "月,江")
x = prompt(tok)
for attempt in (1, 2):  # one constraint for two generate calls
    try:
        out = model.generate(x, 30, temperature=0.8, stop=tok.eos_id, rng=np.random.default_rng(0), constraint=rule)
        print(f"call {attempt}: {tok.decode(out[0, x.shape[1]:].tolist(), skip_special=True)!r}")
    except Exception as e:
        print(f"call {attempt}: {type(e).__name__}: {e}")
