import numpy as np
from recorder import prompt, write_strict

from minigpt.generate import decode_rows
from minigpt.poetry import FORMS, check_poem
from minigpt.tiny_models import tiny_poet

model, tok, _ = tiny_poet()
passed = {"strict": 0, "free": 0}
for form in FORMS:  # 5 poems of each form, with the rules and without
    for seed in range(5):
        x = prompt(tok, form)
        out = model.generate(x, 96 - x.shape[1], temperature=0.8, stop=tok.eos_id, rng=np.random.default_rng(seed))
        poems = {"strict": write_strict(model, tok, form, "月,江", seed=seed)[0],
                 "free": decode_rows(tok, out[:, x.shape[1]:].tolist())[0]}
        for way, poem in poems.items():
            c = check_poem(poem, form, "月,江")
            passed[way] += c.form.ok and c.rhyme.ok and c.tones.ok and c.keywords.ok
for way, n in passed.items():
    print(f"{way:6}: {n} of 20 poems pass form, rhyme, tones and keywords: {n == 20}")
