from collections import defaultdict

import numpy as np
from poems_cpu import MARKS, body_start, load_maps

_, poems = load_maps()
start, second = defaultdict(list), defaultdict(list)  # place in the line -> layer 3 head 1's weight there
for poem in poems:
    tokens, att = poem["tokens"], poem["att"]
    for t in range(body_start(tokens), len(tokens) - 2):  # rows that write a character or a mark
        mark = max(i for i in range(t + 1) if tokens[i] in MARKS)  # the mark the current line starts after
        place = t + 1 - mark  # row t writes the line's token number `place`
        start[place].append(att[2, 0, t, mark])
        if mark + 2 <= t:  # the line's second character is already read
            second[place].append(att[2, 0, t, mark + 2])
for place in sorted(start):
    on_second = f"{np.mean(second[place]):.2f}" if second[place] else "   -"
    print(f"writing the line's token {place}: weight on the line's start {np.mean(start[place]):.2f}, "
          f"on its second character {on_second}")
