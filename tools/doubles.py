"""Writes src/minigpt/doubles.txt: the characters Tang poems write twice in a row (叠字) often enough to count
as a reduplicated word (萧萧, 悠悠, 纷纷), with how often.

    python tools/doubles.py          # reads the poems from MINIGPT_DATA or the download cache

Counted inside lines, over the cleaned poems of the four forms (``minigpt.data.load_poems``). A character
doubled fewer than ``MIN_COUNT`` times is left out: 别别 or 乡乡 do not occur as words, and the poem model
writes them when its other choices are forbidden.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from minigpt import data

OUT = Path(__file__).resolve().parents[1] / "src" / "minigpt" / "doubles.txt"
MIN_COUNT = 10
HEADER = f"""\
# 叠字 in the Tang poems: "character<TAB>how often the four forms' poems write it twice in a row inside a line",
# for every character doubled at least {MIN_COUNT} times. Written by tools/doubles.py from the cleaned poems.
"""


def count(poems) -> Counter:
    """How often each character stands twice in a row inside a line of ``poems``."""
    doubled = Counter()
    for p in poems:
        for line in p.lines:
            doubled.update(a for a, b in zip(line, line[1:]) if a == b)
    return doubled


def render(doubled: Counter) -> str:
    rows = [f"{c}\t{n}" for c, n in sorted(doubled.items(), key=lambda cn: (-cn[1], cn[0])) if n >= MIN_COUNT]
    return HEADER + "\n".join(rows) + "\n"


if __name__ == "__main__":
    text = render(count(p for p in data.load_poems() if p.form is not None))
    OUT.write_text(text, encoding="utf-8")
    print(f"{len(text.splitlines()) - 2} characters -> {OUT}")
