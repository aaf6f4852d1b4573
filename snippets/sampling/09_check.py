import numpy as np
import torch
from poet import prompt, write_strict

from minigpt_course.checks.sampling import reference
from minigpt.generate import decode_rows
from minigpt.poetry import FORMS, check_poem
from minigpt.sampling import sample
from minigpt.tiny_poet import tiny_poet

model, tok, _ = tiny_poet()
with torch.no_grad():
    logits = model(prompt(tok))[0][0, -1].double().numpy()
logits = np.sort(logits)[-40:]  # the 40 highest logits of a real step, as a vocabulary of 40
N, T, K, P = 100_000, 0.8, 30, 0.9
drawn = sample(np.tile(logits, (N, 1)), temperature=T, top_k=K, top_p=P, rng=np.random.default_rng(0))
freq = np.bincount(drawn, minlength=40) / N  # (40,) the empirical distribution


def intended(top_p):
    z = np.where(np.arange(40) >= 40 - K, logits / T, -np.inf)  # the K highest (logits are sorted)
    p = np.exp(z - z.max())
    return reference((p / p.sum())[None], top_p)[0]  # softmax, then the top-p filter written plainly


for name, want in (("intended", intended(P)), ("control: without top-p", intended(1.0))):
    bound = 4 * np.sqrt(want * (1 - want) / N)  # 4 standard errors of a frequency
    print(f"{name:22}: kept {int((want > 0).sum())}, largest gap {np.abs(freq - want).max():.4f}, "
          f"every token within 4 standard errors: {bool(np.all(np.abs(freq - want) <= bound + 1e-12))}")
print(f"drawn outside the kept tokens: {int((freq[intended(P) == 0] > 0).sum())}")
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
