import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import GPT
from minigpt.tensor import no_grad

model = GPT(GPTConfig(vocab_size=69), seed=0)  # 2 layers, 4 heads, 64 wide, context 32
idx = np.array([[20, 46, 53]])  # (1, 3): a prompt of 3 tokens
before = None
with no_grad():
    for step in range(4):
        T = idx.shape[1]
        cache = model.new_kv_cache(1)  # a fresh cache only records the keys and values of this full forward
        logits, _ = model(idx, kv_cache=cache)  # (1, T, V): every position, as generate(use_cache=False)
        kv = [np.stack([cache.k[i][:, :, :T], cache.v[i][:, :, :T]]) for i in range(2)]  # (2, 1, nh, T, hs) per layer
        line = f"step {step}: {T} positions in, logits {logits.shape}, 1 row used"
        if before is not None:
            diff = max(float(np.abs(a[..., : T - 1, :] - b).max()) for a, b in zip(kv, before))
            line += f"; K, V of positions 0..{T - 2} as at step {step - 1} (< 1e-6): {diff < 1e-6}"
        print(line)
        before = kv
        nxt = logits.data[:, -1].argmax(-1)  # (1,): greedy
        idx = np.concatenate([idx, nxt[:, None]], axis=1)  # (1, T+1)
