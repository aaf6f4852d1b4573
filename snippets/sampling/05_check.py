import numpy as np
import torch
from poet import prompt

from minigpt_course.checks.sampling import reference
from minigpt.sampling import sample
from minigpt.tiny_models import tiny_poet

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
