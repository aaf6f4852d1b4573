import numpy as np

from minigpt.data import format_prompt, poem_corpus

corpus = poem_corpus()
tok, rng = corpus.tokenizer, np.random.default_rng(0)
for call in (lambda: format_prompt(tok, "五绝", "詩"),
             lambda: format_prompt(tok, "五绝", "春 江 花 月"),
             lambda: format_prompt(tok, "五言", "月"),
             lambda: corpus.get_batch("val", 4, 200_000, rng),
             lambda: corpus.get_batch("valid", 4, 8, rng)):
    try:
        call()
    except (ValueError, TypeError) as e:
        print(f"{type(e).__name__}: {e}")

x, y = corpus.get_batch("train", 64, 32, rng)  # (B, T), (B, T)
print(f"y = x        : copying the input is right at {(x == x).mean():.1%} of positions")
print(f"y = x shifted: copying the input is right at {(x == y).mean():.1%} of positions")
