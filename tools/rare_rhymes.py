"""Writes src/minigpt/rare_rhymes.txt: the 平声 rhyme groups the rhyme book gives a character but the Tang
poems almost never rhyme it in (逢 is listed in 二冬, 一东 and 三江; the poems rhyme it with 冬 and 东, never
with 江).

    python tools/rare_rhymes.py          # reads the poems from MINIGPT_DATA or the download cache

A character with several readings, or several traditional characters simplified into one (``minigpt.rhyme``),
is listed in every group of every reading. Over the cleaned poems of the four forms whose even lines rhyme in
one 平声 group, a rhyme character "uses" each 平声 group that all the poem's rhyme characters share. A
(character, group) pair is rare when the character rhymes at least ``MIN_USES`` times and that group is in
fewer than ``MAX_SHARE`` of its uses. ``minigpt generate --strict`` does not rhyme a character in such a group.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from minigpt import data, poetry

OUT = Path(__file__).resolve().parents[1] / "src" / "minigpt" / "rare_rhymes.txt"
MIN_USES, MAX_SHARE = 10, 0.05
HEADER = f"""\
# 平声 groups the rhyme book lists a character in but the Tang poems seldom rhyme it in: "character<TAB>group<TAB>
# uses in that group<TAB>uses", for characters at a rhyme at least {MIN_USES} times and groups in under {MAX_SHARE:.0%}
# of their uses. Written by tools/rare_rhymes.py from the cleaned poems.
"""


def count(poems) -> tuple[Counter, Counter]:
    """(uses of each character at a rhyme, uses of each (character, 平声 group) pair) over ``poems``."""
    uses, in_group = Counter(), Counter()
    for p in poems:
        check = poetry.check_poem(p.text, p.form)
        if not (check.form.ok and check.rhyme.ok):
            continue
        ends = poetry.rhyme_chars(p.text, check.rhyme.first_line)
        level = poetry.level_groups_shared(ends)
        for c in ends:
            uses[c] += 1
            in_group.update((c, g) for g in level)
    return uses, in_group


def rare(uses: Counter, in_group: Counter) -> list[tuple[str, str, int, int]]:
    out = []
    for c, n in uses.items():
        if n < MIN_USES:
            continue
        for g in poetry.level_groups_shared([c]):
            if in_group[c, g] < MAX_SHARE * n:
                out.append((c, g, in_group[c, g], n))
    return sorted(out, key=lambda r: (-r[3], r[0], r[1]))


def render(rows) -> str:
    return HEADER + "".join(f"{c}\t{g}\t{k}\t{n}\n" for c, g, k, n in rows)


if __name__ == "__main__":
    rows = rare(*count(p for p in data.load_poems() if p.form is not None))
    OUT.write_text(render(rows), encoding="utf-8")
    print(f"{len(rows)} pairs -> {OUT}")
