"""Writes src/minigpt/variants.txt: the variant forms (异体字) of one character in the simplified Tang poems.

    python tools/variants.py path/to/Unihan_Variants.txt

OpenCC's t2s simplifies the corpus but leaves many variant forms as they are: 鴈 stays beside 雁, so a
poem could write the goose twice and pass the no-repeat rule (two blind readers caught it). Unihan
(Unicode's database of CJK characters, in Unihan.zip from unicode.org) lists such pairs. We keep one
pair per character that is outside GB2312 (the simplified standard's 6,763 characters) and occurs in
the cleaned poems: its kZVariant (the same character, another glyph) that is in GB2312 and in the poems,
or failing that the kSemanticVariant (a character that can stand in its place) that lists it back.
Semantic variants that are not mutual, or link two standard characters (座 and 坐, 希 and 稀), are
different words in simplified Chinese and stay apart. ``NOT_THE_SAME`` drops three mutual pairs that
hold only in an old dictionary's sense the simplified character no longer has.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "minigpt" / "variants.txt"
NOT_THE_SAME = {"刓": "园", "鸜": "朐", "雝": "簌"}  # 园 is 園 (garden), 朐 a place name, 簌 rustling
HEADER = """\
# Variant forms (异体字) in the simplified Tang poems: "variant<TAB>the standard character it stands for".
# Written by tools/variants.py from Unihan_Variants.txt (Unicode {version}): kZVariant, else a mutual
# kSemanticVariant, from a character outside GB2312 to one inside it, both in the cleaned poems.
# Unihan data: Copyright (c) 1991-2017 Unicode, Inc., under the Unicode terms of use
# (https://www.unicode.org/copyright.html).
"""


def parse(text: str) -> dict[str, dict[str, set[str]]]:
    """{"kZVariant": {char: its variants}, "kSemanticVariant": {...}} from Unihan_Variants.txt's lines,
    "U+9D08<TAB>kZVariant<TAB>U+96C1" (a value may carry sources: "U+96C1<kLau,kMatthews")."""
    fields: dict[str, dict[str, set[str]]] = {"kZVariant": {}, "kSemanticVariant": {}}
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        code, field, values = line.split("\t")
        if field in fields:
            fields[field].setdefault(chr(int(code[2:], 16)), set()).update(
                chr(int(v, 16)) for v in re.findall(r"U\+([0-9A-F]+)", values))
    return fields


def is_standard(c: str) -> bool:
    """In GB2312, the 6,763 characters of the simplified standard."""
    try:
        c.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def table(fields: dict[str, dict[str, set[str]]], counts: Counter) -> dict[str, str]:
    """variant -> standard character, for the non-standard characters of ``counts`` with exactly one
    standard kZVariant in ``counts``, or else exactly one standard mutual kSemanticVariant there."""
    z, sem = fields["kZVariant"], fields["kSemanticVariant"]
    out = {}
    for c in sorted(counts):
        if is_standard(c) or not counts[c]:
            continue
        found = [v for v in z.get(c, ()) if is_standard(v) and counts[v]]
        if len(found) != 1:
            found = [v for v in sem.get(c, ()) if is_standard(v) and counts[v] and c in sem.get(v, ())]
        if len(found) == 1 and NOT_THE_SAME.get(c) != found[0]:
            out[c] = found[0]
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_file():
        print("usage: python tools/variants.py path/to/Unihan_Variants.txt", file=sys.stderr)
        return 2
    from minigpt.data import load_poems

    text = Path(argv[0]).read_text(encoding="utf-8")
    version = next((line.split(":", 1)[1].strip() for line in text.splitlines()
                    if line.startswith("# Unicode version")),
                   "version unknown")
    counts = Counter(c for p in load_poems() for c in p.text)
    pairs = table(parse(text), counts)
    lines = [f"{v}\t{s}" for v, s in sorted(pairs.items(), key=lambda vs: (vs[1], vs[0]))]
    OUT.write_text(HEADER.format(version=version) + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} variants of {len(set(pairs.values()))} characters, "
          f"{sum(counts[v] for v in pairs):,} of the poems' characters -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
