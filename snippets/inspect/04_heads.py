import numpy as np
from poems_cpu import COLUMNS, head_shares, load_maps

_, poems = load_maps()  # 3 poems poems-cpu wrote, 3 real ones
shares = {}  # (layer, head) -> per column, the weight each row gives those positions
for poem in poems:
    head_shares(poem["tokens"], poem["att"], shares)  # att: (L, H, T, T)
print(f"{len(poems)} poems, {len(shares[0, 0][0])} tokens written; mean weight on each kind of position")
print(f"{'layer head':<11}" + "".join(f"{c:>12}" for c in COLUMNS))
for (l, h), cells in shares.items():
    print(f"{l + 1:>5}{h + 1:>5}  " + "".join(f"{np.mean(c):>12.2f}" for c in cells))
