from collections import defaultdict

import numpy as np
from poems_cpu import MARKS, body_start, load_maps

_, poems = load_maps()
weight = defaultdict(list)  # character's place in its line -> layer 3 head 3's weight on the line's start
for poem in poems:
    tokens, att = poem["tokens"], poem["att"]
    for t in range(body_start(tokens), len(tokens) - 2):  # rows that write a character or a mark
        mark = max(i for i in range(t + 1) if tokens[i] in MARKS)  # the mark the current line starts after
        weight[t + 1 - mark].append(att[2, 2, t, mark])  # writing the (t + 1 - mark)-th token of the line
for place in sorted(weight):
    print(f"writing the line's token {place}: weight on the line's start {np.mean(weight[place]):.2f}, "
          f"{place - 1} positions back")
