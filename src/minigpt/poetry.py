"""The four regulated forms of Tang poetry: their shape, rhyme and tones, and checks of each.

Shape. A *line* (句) is a run of characters closed by one punctuation mark from ``LINE_ENDS``.
The source data stores a couplet (联) per entry, "床前明月光，疑是地上霜。", which is two lines:
"床前明月光，" and "疑是地上霜。". A couplet is "xxxxx，xxxxx。": its first line ends in a pause
(，；？！) and its second in a full stop (。？！). A jueju (绝句) is 4 lines, a lüshi (律诗) 8;
wuyan (五言) lines have 5 characters, qiyan (七言) lines 7 (``check_form``).

Rhyme (押韵, ``check_rhyme``), with the 平水韵 groups of ``minigpt.rhyme``:

- the last characters of the even lines (2, 4, 6, 8) must all be in one group, and, since all
  four forms are regulated verse (近体诗), a 平声 (level-tone) group. A poem whose even lines
  share only a 仄声 group (江雪: 绝/灭/雪, 入声九屑) rhymes, but is not regulated: it fails;
- a character in several groups (several readings, or several traditional characters merged
  into one simplified one) rhymes if any of its groups is shared; an unknown character at an
  even line's end fails the check, naming it;
- line 1 rhymes too when its last character is in that group (首句入韵, ``first_line``); when it
  is not, the poem still passes: a first line may end in 仄 (不入韵) or borrow a neighbouring
  group (首句借邻韵, common in Tang verse). 邻韵 (neighbouring groups) never count otherwise:
  the even lines must share one group exactly.

Tones (平仄, ``check_tones``). A 五言 line has one of four standard patterns, named by the tone
of its second character and its ending: 仄仄平平仄, 平平仄仄平, 平平平仄仄, 仄仄仄平平; a 七言
line puts two characters of the opposite tone in front (平平仄仄平平仄 …). A poem's pattern
follows from its first line by 对 (within a couplet, the second line takes the opposite tones at
positions 2 and 4, and 6 in 七言, and ends in 平) and 粘 (the next couplet's first line takes the
tones of the line before at those positions and ends in 仄). So each form has four standard patterns
(``tone_patterns``): 平起 or 仄起 (line 1's second character) × 首句入韵 or 不入韵 (line 1 ends in
平 and rhymes, or in 仄). The freedom is plain 一三五不论: positions 1 and 3 of a 五言 line, 1, 3
and 5 of a 七言 line are free (``FREE_POSITIONS``); every other position is checked, the last
included. 孤平, 三平尾 and 拗救 are not modelled. A character that can be 平 or 仄 matches either;
an unknown character's position is skipped (counted in ``unknown``, not in ``checked``). The
poem's ``share`` is, for the standard pattern that matches best, matched / checked positions;
``ok`` when every one matches. On a tie (e.g. a character of both tones ending line 1) the
pattern that agrees with the rhyme check's ``first_line`` wins, then the first in
``tone_patterns``.

Keywords (``check_keywords``): a keyword is found when it appears inside one line (not across a
line break).

``baseline(poems)`` runs these checks over the real poems of the corpus: generated poems are judged
against what real poems score with this implementation, not against 100%.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from minigpt import rhyme
from minigpt.rhyme import PING, ZE

LINE_ENDS = "，。？！；"
FIRST_LINE_ENDS = "，；？！"  # the first line of a couplet ends in a pause
SECOND_LINE_ENDS = "。？！"  # the second line of a couplet ends the sentence

# form -> (number of lines, characters per line)
FORMS: dict[str, tuple[int, int]] = {
    "五言绝句": (4, 5),
    "七言绝句": (4, 7),
    "五言律诗": (8, 5),
    "七言律诗": (8, 7),
}

# short names a reader may type; the canonical names above are always accepted too
FORM_ALIASES: dict[str, str] = {
    "五绝": "五言绝句", "七绝": "七言绝句", "五律": "五言律诗", "七律": "七言律诗",
    "wujue": "五言绝句", "qijue": "七言绝句", "wulv": "五言律诗", "qilv": "七言律诗",
}

_LINE = re.compile(f"[^{LINE_ENDS}]*[{LINE_ENDS}]")
_SPACE = re.compile(r"\s+")
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]*")  # CJK ideographs


@dataclass(frozen=True)
class FormCheck:
    ok: bool  # True when the text has exactly the form's shape
    reason: str  # why not (or "ok"), in words a reader can act on


def is_han(text: str) -> bool:
    """Is ``text`` one or more Chinese characters (CJK ideographs) and nothing else?"""
    return bool(text) and _HAN.fullmatch(text) is not None


@lru_cache(maxsize=1)
def variants() -> dict[str, str]:
    """异体字 -> the standard character it stands for (鴈 -> 雁, 疎 -> 疏): the 331 pairs of ``variants.txt``,
    written by tools/variants.py from Unihan for the characters of the poems. OpenCC's t2s keeps these forms,
    so without this table 雁 and then 鴈 would count as two different characters."""
    text = (Path(__file__).parent / "variants.txt").read_text(encoding="utf-8")
    return dict(line.split("\t") for line in text.splitlines() if line and not line.startswith("#"))


@lru_cache(maxsize=1)
def doubles() -> frozenset[str]:
    """The characters the poems write twice in a row often enough to be a word (萧萧, 悠悠, 年年): the 180 of
    ``doubles.txt``, counted by tools/doubles.py over the cleaned poems."""
    text = (Path(__file__).parent / "doubles.txt").read_text(encoding="utf-8")
    return frozenset(line.split("\t")[0] for line in text.splitlines() if line and not line.startswith("#"))


@lru_cache(maxsize=1)
def rare_rhymes() -> frozenset[tuple[str, str]]:
    """(character, 平声 group) pairs the rhyme book lists but the Tang poems almost never rhyme in (逢 in 三江):
    the 39 of ``rare_rhymes.txt``, counted by tools/rare_rhymes.py over the cleaned poems."""
    text = (Path(__file__).parent / "rare_rhymes.txt").read_text(encoding="utf-8")
    return frozenset(tuple(line.split("\t")[:2]) for line in text.splitlines() if line and not line.startswith("#"))


def standard(char: str) -> str:
    """The standard form of ``char``: 鴈 -> 雁; a character with no variant entry is its own standard form."""
    return variants().get(char, char)


def normalize_form(form: str) -> str:
    """The canonical name of ``form`` ("七绝" -> "七言绝句"); unknown forms raise ValueError."""
    if isinstance(form, str) and form.strip() in FORMS:
        return form.strip()
    if isinstance(form, str) and form.strip().lower() in FORM_ALIASES:
        return FORM_ALIASES[form.strip().lower()]
    known = ", ".join(FORMS) + " (or " + ", ".join(FORM_ALIASES) + ")"
    raise ValueError(f"form must be one of {known}; got {form!r}")


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, each with its closing punctuation; whitespace is ignored.

    Text after the last punctuation mark (an unfinished line) is returned as a last line
    without punctuation, so a checker can complain about it.
    """
    text = _SPACE.sub("", text)
    lines = _LINE.findall(text)
    rest = text[sum(len(line) for line in lines):]
    return lines + [rest] if rest else lines


def check_form(text: str, form: str) -> FormCheck:
    """Does ``text`` have the shape of ``form``? The reason names the first thing that is off."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    form = normalize_form(form)
    n_lines, n_chars = FORMS[form]
    lines = split_lines(text)
    if len(lines) != n_lines:
        return FormCheck(False, f"{form} has {n_lines} lines, the text has {len(lines)}")
    for i, line in enumerate(lines, 1):
        body, end = (line[:-1], line[-1]) if line[-1] in LINE_ENDS else (line, "")
        if len(body) != n_chars:
            return FormCheck(False, f"line {i} has {len(body)} characters, {form} needs {n_chars}: {line}")
        if not _HAN.fullmatch(body):
            return FormCheck(False, f"line {i} has a character that is not a Chinese character: {line}")
        expected = FIRST_LINE_ENDS if i % 2 else SECOND_LINE_ENDS
        if end not in expected or not end:
            where = "first" if i % 2 else "second"
            return FormCheck(
                False,
                f"line {i} ends with {repr(end) if end else 'no punctuation'}; the {where} line of a couplet ends with "
                f"{'，' if i % 2 else '。'} (a couplet is {'x' * n_chars}，{'x' * n_chars}。)",
            )
    return FormCheck(True, "ok")


def format_poem(text: str) -> str:
    """``text`` with one couplet (two lines) per row, the way poems are printed."""
    lines = split_lines(text)
    return "\n".join("".join(lines[i : i + 2]) for i in range(0, len(lines), 2))


def classify(text: str) -> str | None:
    """The form whose shape ``text`` has, or None."""
    lines = split_lines(text)
    for form, (n_lines, n_chars) in FORMS.items():
        # only the form with this many lines of this length can fit; check_form checks the rest
        if len(lines) == n_lines and len(lines[0]) - 1 == n_chars:
            return form if check_form(text, form).ok else None
    return None


# --------------------------------------------------------------------------- tone patterns

FREE_POSITIONS: dict[int, tuple[int, ...]] = {5: (1, 3), 7: (1, 3, 5)}  # 1-based, by line length: 一三五不论
FREE = "中"  # a free position in ``TonePattern.required``: either tone

# the four 五言 line patterns; a 七言 line puts the opposite of the first two tones in front
_LINES_5 = {"A": "仄仄平平仄", "B": "平平仄仄平", "C": "平平平仄仄", "D": "仄仄仄平平"}
_OPPOSITE = {PING: ZE, ZE: PING}


@dataclass(frozen=True)
class TonePattern:
    name: str  # "平起首句入韵": the tone of line 1's second character, and whether line 1 rhymes
    lines: tuple[str, ...]  # the standard tones, one 平/仄 per character: ("平平仄仄平", "仄仄仄平平", …)
    required: tuple[str, ...]  # the same with the free positions as 中: ("中平中仄平", "中仄中平平", …)
    rhyme_lines: tuple[int, ...]  # 1-based lines whose last character rhymes: (1, 2, 4) or (2, 4)


def _line_types(first: str, n_lines: int) -> list[str]:
    """The 五言 line types of a poem that opens with ``first``, by 对 and 粘."""
    types = [first]
    for i in range(1, n_lines):
        second = _LINES_5[types[-1]][1]  # the tone of the previous line's second character
        if i % 2:  # 对: opposite second tone, ends in 平
            types.append("B" if second == ZE else "D")
        else:  # 粘: same second tone, ends in 仄
            types.append("C" if second == PING else "A")
    return types


@lru_cache(maxsize=None)
def tone_patterns(form: str) -> tuple[TonePattern, ...]:
    """The four standard 平仄 patterns of ``form``: 仄起 and 平起, each 首句不入韵 then 入韵."""
    form = normalize_form(form)
    n_lines, n_chars = FORMS[form]
    free = FREE_POSITIONS[n_chars]
    patterns = []
    for first in ("A", "D", "C", "B"):  # 五言 仄起不入韵, 仄起入韵, 平起不入韵, 平起入韵
        lines = []
        for t in _line_types(first, n_lines):
            five = _LINES_5[t]
            lines.append(five if n_chars == 5 else _OPPOSITE[five[0]] * 2 + five)
        required = tuple("".join(FREE if i in free else tone for i, tone in enumerate(line, 1)) for line in lines)
        rhymes_first = lines[0][-1] == PING
        name = f"{lines[0][1]}起首句{'入韵' if rhymes_first else '不入韵'}"
        rhyme_lines = ((1,) if rhymes_first else ()) + tuple(range(2, n_lines + 1, 2))
        patterns.append(TonePattern(name, tuple(lines), required, rhyme_lines))
    order = {"仄起首句不入韵": 0, "仄起首句入韵": 1, "平起首句不入韵": 2, "平起首句入韵": 3}
    return tuple(sorted(patterns, key=lambda p: order[p.name]))


def rhyme_lines(form: str) -> tuple[int, ...]:
    """The 1-based lines whose last characters must share one 平声 group: the even lines."""
    return tuple(range(2, FORMS[normalize_form(form)][0] + 1, 2))


# --------------------------------------------------------------------------- checks


@dataclass(frozen=True)
class RhymeCheck:
    ok: bool  # the even lines' last characters share one 平声 group
    group: str | None  # the group they share ("下平声七阳"), 平 or 仄; None when they share none
    first_line: bool  # line 1's last character is in that group too (首句入韵)
    reason: str  # "ok", or what is off, naming the line


@dataclass(frozen=True)
class ToneCheck:
    ok: bool  # every checked position follows the best pattern
    share: float  # matched / checked (0.0 when nothing could be checked)
    matched: int  # checked positions whose character can take the required tone
    checked: int  # fixed (not free) positions whose character the rhyme book lists
    unknown: int  # fixed positions skipped because the book does not list the character
    pattern: str  # the best-matching standard pattern's name: "仄起首句不入韵"
    mismatches: tuple[tuple[int, int], ...]  # (line, position), 1-based, where the tone is wrong


@dataclass(frozen=True)
class KeywordCheck:
    ok: bool  # every keyword was found
    found: tuple[str, ...]  # in the order given
    missing: tuple[str, ...]


@dataclass(frozen=True)
class PoemCheck:
    form: FormCheck
    rhyme: RhymeCheck | None  # None when the form is off (there are no lines to rhyme)
    tones: ToneCheck | None  # None when the form is off
    keywords: KeywordCheck


def _bodies(text: str, form: str) -> list[str]:
    """The lines of ``text`` without their punctuation; ValueError when it does not have the form's shape."""
    shape = check_form(text, form)
    if not shape.ok:
        raise ValueError(f"text is not a {normalize_form(form)}: {shape.reason}")
    return [line[:-1] for line in split_lines(text)]


def _in_order(names) -> list[str]:
    order = rhyme.table().names
    return sorted(names, key=order.index)


def _rhyme(bodies: list[str]) -> RhymeCheck:
    t = rhyme.table()
    common: frozenset[str] | None = None
    for line in range(2, len(bodies) + 1, 2):
        char = bodies[line - 1][-1]
        groups = t.groups_of.get(char)
        if not groups:
            return RhymeCheck(False, None, False, f"line {line} ends in {char}, which the 平水韵 book does not list")
        if common is not None and not common & groups:
            return RhymeCheck(False, None, False,
                              f"line {line} ends in {char} ({'/'.join(_in_order(groups))}), which shares no group "
                              f"with the even lines before it ({'/'.join(_in_order(common))})")
        common = groups if common is None else common & groups
    first = t.groups_of.get(bodies[0][-1], frozenset())
    level = [g for g in _in_order(common) if t.tone_of[g] == PING]
    if not level:
        group = _in_order(common)[0]
        return RhymeCheck(False, group, group in first,
                          f"the even lines rhyme in {group}, a 仄声 group; regulated verse rhymes in 平声")
    group = next((g for g in level if g in first), level[0])  # the reading line 1 shares, if any
    return RhymeCheck(True, group, group in first, "ok")


TONE_BITS = {PING: 1, ZE: 2}  # a tone as a bit; a character's tones are the OR of its readings' bits (3: both)


@lru_cache(maxsize=1)
def tone_bits() -> dict[str, int]:
    """Every character the rhyme book lists -> its tone bits (1 平, 2 仄, 3 either); unlisted ones are absent."""
    return {c: sum(TONE_BITS[t] for t in tones) for c, tones in rhyme.table().tones_of.items()}


@lru_cache(maxsize=None)
def _fixed(patterns: tuple[TonePattern, ...]) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...]]:
    """The fixed positions (line, position; 0-based) of ``patterns``, and each pattern's tone bit at each."""
    cells = tuple((i, j) for i, line in enumerate(patterns[0].required) for j, need in enumerate(line) if need != FREE)
    return cells, tuple(tuple(TONE_BITS[p.required[i][j]] for i, j in cells) for p in patterns)


def _tones(bodies: list[str], patterns: tuple[TonePattern, ...], first_line_rhymes: bool) -> ToneCheck:
    bits = tone_bits()
    cells, needs = _fixed(patterns)
    have = [bits.get(bodies[i][j], 0) for i, j in cells]  # 0: unknown, skipped
    checked = sum(1 for h in have if h)
    ranked = []
    for k, (p, need) in enumerate(zip(patterns, needs)):
        bad = [c for c, n, h in zip(cells, need, have) if h and not n & h]
        # fewest mismatches; on a tie, the pattern that agrees with whether line 1 rhymes, then the first
        ranked.append((len(bad), (1 in p.rhyme_lines) != first_line_rhymes, k, bad))
    _, _, best, wrong = min(ranked)
    matched = checked - len(wrong)
    return ToneCheck(ok=checked > 0 and not wrong, share=matched / checked if checked else 0.0, matched=matched,
                     checked=checked, unknown=len(cells) - checked, pattern=patterns[best].name,
                     mismatches=tuple((i + 1, j + 1) for i, j in wrong))


def check_rhyme(text: str, form: str) -> RhymeCheck:
    """Do the even lines of ``text`` end in one 平声 group of 平水韵? (rules: module docstring)"""
    return _rhyme(_bodies(text, form))


def check_tones(text: str, form: str) -> ToneCheck:
    """How closely ``text`` follows the best of the form's standard 平仄 patterns (rules: module docstring)."""
    bodies = _bodies(text, form)
    return _tones(bodies, tone_patterns(form), _rhyme(bodies).first_line)


def parse_keywords(keywords) -> tuple[str, ...]:
    """Keywords as a tuple of words, from a list of str or one str split at spaces, commas or 、."""
    if isinstance(keywords, str):
        keywords = [w for w in re.split(r"[\s,，、;；]+", keywords) if w]
    if not isinstance(keywords, (list, tuple)) or not all(isinstance(w, str) for w in keywords):
        raise TypeError(f"keywords must be a str or a list of str, got {keywords!r}")
    words = tuple(w.strip() for w in keywords)
    if not all(words):
        raise ValueError(f"keywords must be non-empty words, got {keywords!r}")
    return words


def check_keywords(text: str, keywords) -> KeywordCheck:
    """Which of ``keywords`` (see ``parse_keywords``) appear inside one line of ``text``."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    words = parse_keywords(keywords)
    lines = split_lines(text)
    found = tuple(w for w in words if any(w in line for line in lines))
    missing = tuple(w for w in words if w not in found)
    return KeywordCheck(not missing, found, missing)


@dataclass(frozen=True)
class Repeats:
    chars: int  # Chinese characters in the poem
    repeated: int  # characters that repeat one earlier in the poem, 叠字 included
    doubled: int  # of those, the ones straight after themselves in a line (叠字: 萧萧, 悠悠)
    rhyme_repeated: int  # even lines that end in the character an earlier even line ended in
    odd_doubled: int = 0  # 叠字 of a character the poems do not double (``doubles``): 别别, 乡乡

    @property
    def share(self) -> float:
        """The share of the poem's characters that repeat an earlier one (0.0 for an empty poem)."""
        return self.repeated / self.chars if self.chars else 0.0


def check_repeats(text: str) -> Repeats:
    """How often ``text`` says a character again: anywhere, as 叠字, and at the rhyme (even lines' ends).
    A variant form is the character it stands for (``standard``)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    seen, repeated, doubled, odd = set(), 0, 0, 0
    lines = [[standard(c) for c in line if is_han(c)] for line in split_lines(text)]  # 鴈 counts as 雁
    for line in lines:
        for k, c in enumerate(line):
            if c in seen:
                repeated += 1
                if k > 0 and line[k - 1] == c:
                    doubled += 1
                    odd += c not in doubles()
            seen.add(c)
    ends = [line[-1] for line in lines[1::2] if line]
    return Repeats(sum(map(len, lines)), repeated, doubled, len(ends) - len(set(ends)), odd)


SEASONS = ("春", "秋")  # a poem keeps to one: real poems write both in about 1 in 80


def rhyme_chars(text: str, first_line: bool) -> list[str]:
    """The characters at ``text``'s rhymes: every even line's last, and line 1's when it rhymes too."""
    bodies = [line[:-1] for line in split_lines(text)]
    return [b[-1] for b in bodies[1::2]] + ([bodies[0][-1]] if first_line else [])


def level_groups_shared(chars) -> list[str]:
    """The 平声 groups every one of ``chars`` is listed in, in the book's order (one character: its own)."""
    t = rhyme.table()
    shared = frozenset.intersection(*(t.groups_of.get(c, frozenset()) for c in chars))
    return _in_order(g for g in shared if t.tone_of[g] == PING)


def rhymes_by_a_rare_reading(text: str, form: str, check: RhymeCheck | None = None) -> bool:
    """Do ``text``'s rhymes share a 平声 group only by a reading the poems seldom rhyme in (逢 with 江)?
    ``check``: ``text``'s RhymeCheck when the caller has it (else ``check_poem`` makes it)."""
    check = check or check_poem(text, form).rhyme  # None: not the form's shape
    if check is None or not check.ok:
        return False
    ends, rare = rhyme_chars(text, check.first_line), rare_rhymes()
    return not any(all((c, g) not in rare for c in ends) for g in level_groups_shared(ends))


def mixes_seasons(text: str) -> bool:
    """Does ``text`` write both 春 and 秋?"""
    return all(c in text for c in SEASONS)


def check_poem(text: str, form: str, keywords=()) -> PoemCheck:
    """Every check of ``text`` as a poem of ``form`` asked to use ``keywords``: shape, rhyme, tones, keywords."""
    shape = check_form(text, form)
    keys = check_keywords(text, keywords)
    if not shape.ok:
        return PoemCheck(shape, None, None, keys)
    bodies = [line[:-1] for line in split_lines(text)]
    rhymes = _rhyme(bodies)
    return PoemCheck(shape, rhymes, _tones(bodies, tone_patterns(form), rhymes.first_line), keys)


# --------------------------------------------------------------------------- the real-poem baseline


@dataclass(frozen=True)
class Baseline:
    form: str
    poems: int  # real poems of this form
    form_ok: float  # share with the form's shape (1.0 for the corpus: its forms are assigned by shape)
    rhyme_any: float  # share whose even lines share one 平水韵 group, 平 or 仄 (RhymeCheck.group)
    rhyme_ok: float  # share whose even lines share one 平声 group (RhymeCheck.ok)
    first_line: float  # share of the rhyme_ok poems whose line 1 rhymes too
    tones_ok: float  # share following a standard pattern at every checked position (ToneCheck.ok)
    tone_share: float  # mean ToneCheck.share
    rhyme_chance: float  # control: rhyme_ok once the even lines' last characters are shuffled among poems
    tone_chance: float  # control: mean tone share once each poem's characters are shuffled within it
    unknown: float  # share of characters the rhyme book does not list
    repeat_share: float = 0.0  # share of characters that repeat an earlier one in their poem (check_repeats)
    rhyme_repeated: float = 0.0  # share of poems with a rhyme character twice
    odd_doubled: float = 0.0  # share of poems with a 叠字 of a character the poems seldom double
    seasons: float = 0.0  # share of poems that write both 春 and 秋 (mixes_seasons)
    rare_rhyme: float = 0.0  # share of poems that rhyme by a seldom-used reading (rhymes_by_a_rare_reading)


CONTROL_POEMS = 2000  # poems per form the two controls shuffle (a random sample, by ``seed``)


def baseline(poems, seed: int = 0) -> dict[str, Baseline]:
    """The checks' scores on real poems, per form: what a generated poem is judged against.

    ``poems``: objects with ``.text`` and ``.form``, e.g. ``minigpt.data.load_poems()`` (this module sits
    below ``data``, which builds the corpus with its checks); poems of no form are skipped. ``seed`` fixes
    the two controls' sample and shuffles.
    """
    rng = random.Random(seed)
    known = rhyme.table().groups_of
    by_form: dict[str, list[str]] = {f: [] for f in FORMS}
    for p in poems:
        if p.form is not None:
            by_form[normalize_form(p.form)].append(p.text)
    result = {}
    for form, texts in by_form.items():
        if not texts:
            continue
        patterns = tone_patterns(form)
        checks = [check_poem(t, form) for t in texts]
        shaped = [[line[:-1] for line in split_lines(t)] for t, c in zip(texts, checks) if c.form.ok]
        rhymes = [c.rhyme for c in checks if c.form.ok]
        tone = [c.tones for c in checks if c.form.ok]
        # the controls, on up to CONTROL_POEMS of the poems: chance levels need no more
        sample = rng.sample(shaped, min(len(shaped), CONTROL_POEMS))
        # control 1: the even lines' last characters dealt out at random among the sampled poems
        ends = [b[i][-1] for b in sample for i in range(1, len(b), 2)]
        rng.shuffle(ends)
        dealt = iter(ends)
        chance = [_rhyme([b[i][:-1] + next(dealt) if i % 2 else b[i] for i in range(len(b))]) for b in sample]
        # control 2: each poem's characters shuffled within it, lines kept at their length
        shuffled = []
        for b in sample:
            chars = list("".join(b))
            rng.shuffle(chars)
            n = len(b[0])
            shuffled.append(_tones(["".join(chars[i : i + n]) for i in range(0, len(chars), n)], patterns, False))
        n_chars = sum(len(b) * len(b[0]) for b in shaped)
        repeats = [check_repeats(t) for t, c in zip(texts, checks) if c.form.ok]
        ok = [r for r in rhymes if r.ok]
        result[form] = Baseline(
            form=form,
            poems=len(texts),
            form_ok=len(shaped) / len(texts),
            rhyme_any=_mean(r.group is not None for r in rhymes),
            rhyme_ok=_mean(r.ok for r in rhymes),
            first_line=_mean(r.first_line for r in ok),
            tones_ok=_mean(t.ok for t in tone),
            tone_share=_mean(t.share for t in tone),
            rhyme_chance=_mean(r.ok for r in chance),
            tone_chance=_mean(t.share for t in shuffled),
            unknown=sum(c not in known for b in shaped for line in b for c in line) / max(1, n_chars),
            repeat_share=sum(r.repeated for r in repeats) / max(1, sum(r.chars for r in repeats)),
            rhyme_repeated=_mean(r.rhyme_repeated > 0 for r in repeats),
            odd_doubled=_mean(r.odd_doubled > 0 for r in repeats),
            seasons=_mean(mixes_seasons(t) for t, c in zip(texts, checks) if c.form.ok),
            rare_rhyme=_mean(rhymes_by_a_rare_reading(t, form, c.rhyme) for t, c in zip(texts, checks) if c.form.ok),
        )
    return result


def _mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0
