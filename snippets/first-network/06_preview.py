import numpy as np

from minigpt.data import load_poems, load_shakespeare

quatrains = "".join(line + "\n" for p in load_poems() if p.form == "五言绝句"
                    for line in p.lines)  # the five-character quatrains, a line each
for name, text in (("tiny Shakespeare", load_shakespeare()), ("quatrains", quatrains)):
    chars = sorted(set(text))  # the V different characters
    row = {c: i for i, c in enumerate(chars)}  # character -> its row (and column)
    ids = np.array([row[c] for c in text])  # the text as row numbers
    counts = np.zeros((len(chars), len(chars)), dtype=np.int64)  # (V, V)
    np.add.at(counts, (ids[:-1], ids[1:]), 1)  # +1 at (this character, next one)
    print(f"{name}: {len(text)} characters, a {len(chars)} x {len(chars)} table")
    rng = np.random.default_rng(0)
    for _ in range(3):
        i, out = row["\n"], ""  # start where a line starts
        while out.count("\n") < 2:  # write two lines
            p = counts[i] / counts[i].sum()  # row i as probabilities: sums to 1
            i = rng.choice(len(chars), p=p)  # draw the next character by them
            out += chars[i]
        print("  " + out.rstrip("\n").replace("\n", " / "))
