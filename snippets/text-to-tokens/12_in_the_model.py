import numpy as np

from minigpt.data import load_poems, poem_corpus

poems = [p for p in load_poems() if p.form is not None]
tok = poem_corpus().tokenizer
ids = [np.array(tok.encode(p.text)) for p in poems]
held_out = 0.05
V, n_val = tok.vocab_size, round(held_out * len(poems))


def unigram_val_loss(val_idx):
    """Cross-entropy (nats per character) on val of p(c) = (count in train + 1) / (N + V)."""
    is_val = np.zeros(len(poems), dtype=bool)
    is_val[val_idx] = True
    train = np.concatenate([t for t, v in zip(ids, is_val) if not v])
    val = np.concatenate([t for t, v in zip(ids, is_val) if v])
    p = (np.bincount(train, minlength=V) + 1) / (len(train) + V)
    return -np.log(p[val]).mean()


for seed in (0, 1, 2):
    loss = unigram_val_loss(np.random.default_rng(seed).permutation(len(poems))[:n_val])
    print(f"a random {held_out:.0%} of the poems, seed {seed}: {loss:.4f}")
print(f"the last {held_out:.0%} of the poems        : {unigram_val_loss(np.arange(len(poems) - n_val, len(poems))):.4f}")
