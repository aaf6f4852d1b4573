import numpy as np
import torch
from poet import prompt

from minigpt.sampling import sample
from minigpt.tiny_models import tiny_poet

model, tok, _ = tiny_poet()
with torch.no_grad():
    logits = model(prompt(tok, "五言绝句", "月,江"))[0][:, -1].double().numpy()  # (1, V)
T, K, P = 0.8, 50, 0.9
z = logits / T  # (1, V) temperature
kth = np.sort(z, axis=-1)[:, -K, None]  # (1, 1) the K-th largest
z = np.where(z < kth, -np.inf, z)  # (1, V) top-k
print(f"top-k {K}: {np.isfinite(z).sum()} finite logits, the {K}th is {kth[0, 0]:.3f}")
probs = np.exp(z - z.max(axis=-1, keepdims=True))
probs /= probs.sum(axis=-1, keepdims=True)  # (1, V) softmax
order = np.argsort(-probs, axis=-1, kind="stable")  # (1, V) most likely first
ranked = np.take_along_axis(probs, order, axis=-1)
mass_before = np.cumsum(ranked, axis=-1) - ranked  # (1, V)
drop = np.zeros_like(probs, dtype=bool)
np.put_along_axis(drop, order, mass_before >= P, axis=-1)
probs = np.where(drop, 0.0, probs)
print(f"top-p {P}: keeps {(probs > 0).sum()} of those, holding {probs.sum():.3f}")
probs /= probs.sum(axis=-1, keepdims=True)  # renormalised
u = np.random.default_rng(0).random((1, 1))  # (1, 1) uniform in [0, 1)
picked = (np.cumsum(probs, axis=-1) <= u).sum(axis=-1)  # (1,) inverse CDF
print(f"u = {u[0, 0]:.4f}: token {picked[0]} = {tok.itos[picked[0]]}, probability {probs[0, picked[0]]:.4f}")
again = sample(logits, temperature=T, top_k=K, top_p=P, rng=np.random.default_rng(0))
print(f"same as sample(logits, {T}, top_k={K}, top_p={P}): {bool(again[0] == picked[0])}")
