from minigpt import rhyme
from minigpt.poetry import (FREE, FREE_POSITIONS, TONE_BITS, check_rhyme, check_tones, split_lines, tone_bits,
                            tone_patterns)


def groups(char):  # its 平水韵 groups, in the book's order
    return "/".join(sorted(rhyme.groups(char), key=rhyme.table().names.index))


poem = "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"  # Wang Zhihuan, 登鹳雀楼
bits = tone_bits()  # char -> 1 平, 2 仄, 3 either (two readings); absent: not in the book
tones = check_tones(poem, "五言绝句")
pattern = next(p for p in tone_patterns("五言绝句") if p.name == tones.pattern)
print(poem)
print(f"pattern {pattern.name}: {' '.join(pattern.lines)}; free positions {FREE_POSITIONS[5]}; "
      f"{tones.matched} of {tones.checked} checked positions fit")
line, want, need = split_lines(poem)[2][:-1], pattern.lines[2], pattern.required[2]  # line 3
print(f"line 3: {line}, pattern {want}")
for i, (char, tone, req) in enumerate(zip(line, want, need), 1):
    book = {1: "平", 2: "仄", 3: "平|仄"}[bits[char]]
    fits = bool(bits[char] & TONE_BITS[tone])
    verdict = ("free" + ("" if fits else ", would break")) if req == FREE else ("fits" if fits else "breaks")
    print(f"  {i} {char} {book}, pattern {tone}: {verdict:17} ({groups(char)})")
print(f"入声 (entering tone), all 仄: {' '.join(c for c in poem if groups(c).startswith('入声'))}")
print(f"更: {groups('更')}, so 平 or 仄")
for n in (2, 4):
    end = split_lines(poem)[n - 1][-2]
    print(f"line {n} ends in {end}: {groups(end)}")
print(f"check_rhyme: ok {check_rhyme(poem, '五言绝句').ok}, group {check_rhyme(poem, '五言绝句').group}")
print(f"楼 -> 台 ({groups('台')}): ok {check_rhyme(poem.replace('楼', '台'), '五言绝句').ok}")
