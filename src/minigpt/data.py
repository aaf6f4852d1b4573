"""The corpora, cleaned, tokenized and split: Tang poems (with or without Song poems) and tiny Shakespeare.

Tang poems (``load_poems``): the 全唐诗 JSON files, converted to simplified characters with
OpenCC ``t2s`` and cleaned, poem by poem, in this order:

1. notes are cut out: ``（…）`` / ``(…)`` (variant readings "一作…", sources) and ``〖…〗``
   (footnote marks); a poem that had one is kept and counted in ``notes_stripped``;
2. a poem with a lost or unencodable character is dropped (``missing_characters``):
   ``□ ■ ○ ●``, composed-character notation ``{…}``, ideographic description characters,
   private-use code points;
3. ``[X]`` (a character the editors restored) keeps ``X``; quote and title marks
   ``「」『』《》〈〉`` are removed, their words kept;
4. a poem with any other character than Chinese characters and ``，。？！；：、`` is dropped
   (``editorial_marks``: commentary, digits, unbalanced brackets);
5. empty lines (and lines of punctuation only) are dropped; a poem with nothing left is
   dropped (``empty``); a run of punctuation keeps its first mark ("悲夫！。" -> "悲夫！");
6. a poem whose cleaned text equals an earlier poem's is dropped (``duplicate``), so the
   same text never lands in both train and validation.

Each kept poem gets its form from ``poetry.classify`` (by shape: 4 or 8 lines of 5 or 7
characters, couplets "xxxxx，xxxxx。"), or None. The cleaned poems are cached as JSON under
``manifest.processed_dir()``, keyed by the source files' checksums and ``CLEAN_VERSION``.

Song poems (``load_poems(dynasty="song")``): the optional ``poet.song.*.json`` files, cleaned by
the same rules and cached apart (``song-*.json``). The corpus ``poems+song``
(``poem_corpus(song=True)``) trains on both and validates on exactly the Tang corpus's
validation poems, so its losses compare with the Tang-only runs'.

The poem corpus trains each poem as ``<bos> form <sep> keywords <sep> poem <eos>``, with 1-3
keywords taken from the poem itself, so a reader can ask for a form and a few words
(``format_prompt``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import opencc

from minigpt import poetry
from minigpt.files import atomic_write
from minigpt.manifest import (
    SHAKESPEARE_FILE,
    SONG_HINT,
    DataNotFoundError,
    data_dir,
    poem_files,
    processed_dir,
    require,
    song_files,
)
from minigpt.tokenizer import SPECIALS, CharTokenizer

__all__ = [
    "Corpus", "DataNotFoundError", "Poem", "CleanStats", "data_dir", "load_poems", "clean_stats",
    "poem_corpus", "load_shakespeare", "shakespeare_corpus", "format_example", "format_prompt",
    "pick_keywords", "with_song", "KEYWORD_SEP", "MAX_KEYWORDS",
]

CLEAN_VERSION = 3  # bump when the cleaning rules change: it invalidates cached cleaned poems
KEYWORD_SEP = "、"  # between keywords in the conditioning prefix
MAX_KEYWORDS = 3
SPLITS = ("train", "val")
DYNASTIES = ("tang", "song")  # which poet.<dynasty>.*.json files load_poems reads
_PUNCT = "，。？！；：、"
_PUNCT_RUN = re.compile(f"([{_PUNCT}])[{_PUNCT}]+")

_NOTE = re.compile(r"（[^（）]*）|\([^()]*\)|〖[^〖〗]*〗")
_MISSING = re.compile(r"[□■○●◇◆△▲\ufffd]|\{[^{}]*\}|[\u2ff0-\u2fff\ue000-\uf8ff]")
_MARKS = str.maketrans("", "", "[]［］「」『』《》〈〉“”‘’")
_ALLOWED = re.compile(
    r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f，。？！；：、]*"
)


@dataclass(frozen=True)
class Poem:
    title: str
    author: str
    lines: tuple[str, ...]  # lines (句), each with its closing punctuation: ("床前明月光，", "疑是地上霜。", …)
    form: str | None  # one of poetry.FORMS, or None when the shape fits none

    @property
    def text(self) -> str:
        """The poem as one string: "床前明月光，疑是地上霜。…"."""
        return "".join(self.lines)


@dataclass
class CleanStats:
    total: int = 0  # poems in the source files
    kept: int = 0  # poems load_poems returns
    notes_stripped: int = 0  # kept poems that had a note cut out
    dropped: dict[str, int] = field(default_factory=dict)  # reason -> poems dropped
    forms: dict[str, int] = field(default_factory=dict)  # form (or "None") -> kept poems

    def to_dict(self) -> dict:
        return {"total": self.total, "kept": self.kept, "notes_stripped": self.notes_stripped,
                "dropped": dict(self.dropped), "forms": dict(self.forms)}


# --------------------------------------------------------------------------- Tang poems


def _clean_text(s: str) -> str:
    for _ in range(2):  # twice: a note can hold a note
        s = _NOTE.sub("", s)
    return s


# --8<-- [start:clean]
def _clean(records: list[dict]) -> tuple[list[Poem], CleanStats]:
    """Simplify and clean raw records (see the module docstring for the rules)."""
    # one OpenCC call for everything: fields joined by newlines (t2s keeps the newlines)
    fields = []
    for r in records:
        paragraphs = [p.replace("\n", "") for p in r.get("paragraphs") or []]
        title, author = ((r.get(k) or "").replace("\n", " ") for k in ("title", "author"))
        fields += [title, author, str(len(paragraphs))] + paragraphs
    simple = opencc.OpenCC("t2s").convert("\n".join(fields)).split("\n")
    if len(simple) != len(fields):
        raise RuntimeError("OpenCC changed the number of lines; cannot line the poems up again")

    stats, dropped, forms = CleanStats(total=len(records)), Counter(), Counter()
    poems, seen, k = [], set(), 0
    for _ in records:
        title, author, n = simple[k], simple[k + 1], int(simple[k + 2])
        paragraphs = simple[k + 3 : k + 3 + n]
        k += 3 + n
        raw = "\n".join(paragraphs)
        text = _clean_text(raw)
        had_note = text != raw
        if _MISSING.search(text):
            dropped["missing_characters"] += 1
            continue
        text = text.translate(_MARKS)
        if not _ALLOWED.fullmatch(text.replace("\n", "")):
            dropped["editorial_marks"] += 1
            continue
        # empty lines vanish, and so do lines of punctuation only (what is left of "（下缺）。")
        text = "".join(p for p in (p.strip() for p in text.split("\n")) if p.strip(_PUNCT))
        text = _PUNCT_RUN.sub(r"\1", text)  # "悲夫！。" -> "悲夫！"
        if not text:
            dropped["empty"] += 1
            continue
        if text in seen:
            dropped["duplicate"] += 1
            continue
        seen.add(text)
        form = poetry.classify(text)
        poems.append(Poem(_clean_text(title).strip(), author.strip(), tuple(poetry.split_lines(text)), form))
        stats.notes_stripped += had_note
        forms[str(form)] += 1
    stats.kept = len(poems)
    stats.dropped = dict(sorted(dropped.items()))
    stats.forms = {f: forms[f] for f in [*poetry.FORMS, "None"] if forms[f]}
    return poems, stats
# --8<-- [end:clean]


def load_poems(data: str | Path | None = None, cache: str | Path | bool | None = None,
               stats: bool = False, dynasty: str = "tang"):
    """Cleaned, simplified Tang (or Song) poems (list[Poem]); with ``stats=True``, ``(poems, CleanStats)``.

    ``data``: the data folder (default ``data_dir()``). ``cache``: folder for the cleaned
    result (default ``manifest.processed_dir()``), or False to neither read nor write it.
    ``dynasty``: "tang", or "song" for the optional Song poems (``minigpt data download --song``).
    """
    if dynasty not in DYNASTIES:
        raise ValueError(f"dynasty must be one of {', '.join(DYNASTIES)}, got {dynasty!r}")
    data = Path(data) if data is not None else data_dir()
    if dynasty == "tang":
        files = poem_files()
        require(files, data, "Tang poems (全唐诗)")
    else:
        files = song_files()
        require(files, data, "Song poems (poet.song.*.json)", SONG_HINT)
    raw = [(data / f).read_bytes() for f in files]
    key = hashlib.sha256(f"clean-v{CLEAN_VERSION} opencc-{opencc.__version__}".encode())
    for b in raw:
        key.update(hashlib.sha256(b).digest())
    path = None
    if cache is not False:
        folder = Path(cache) if cache not in (None, True) else processed_dir()
        path = folder / f"{'poems' if dynasty == 'tang' else 'song'}-{key.hexdigest()[:16]}.json"
        if path.is_file():
            try:
                blob = json.loads(path.read_text(encoding="utf-8"))
                poems = [Poem(t, a, tuple(lines), f) for t, a, lines, f in blob["poems"]]
                return (poems, CleanStats(**blob["stats"])) if stats else poems
            except (ValueError, KeyError, TypeError):
                pass  # not a cache this version wrote: clean again and overwrite it

    records = [r for b in raw for r in json.loads(b)]
    poems, st = _clean(records)
    if path is not None:
        blob = {"stats": st.to_dict(), "poems": [[p.title, p.author, p.lines, p.form] for p in poems]}
        try:
            with atomic_write(path, "w") as f:
                f.write(json.dumps(blob, ensure_ascii=False, separators=(",", ":")))
        except OSError:
            pass  # a read-only cache only costs time on the next load
    return (poems, st) if stats else poems


def clean_stats(data: str | Path | None = None) -> CleanStats:
    """How many poems the cleaning kept, dropped (by reason) and of which form."""
    return load_poems(data, stats=True)[1]


def pick_keywords(poem: Poem, u: np.ndarray) -> list[str]:
    """1-3 keywords from ``poem``, chosen by the uniform numbers ``u`` (shape (7,), in [0, 1)).

    A keyword is one character of a line, or a two-character word where a line's words
    surely start: a 5-character line reads 2+3 (床前|明月光), a 7-character line 2+2+3
    (朝辞|白帝|彩云间), so two-character keywords start at character 0, or 2 in a 7-character line.
    """
    bodies = [line[:-1] if line[-1] in poetry.LINE_ENDS else line for line in poem.lines]
    bodies = [b for b in bodies if b]
    picked: list[str] = []
    for j in range(1 + int(u[0] * MAX_KEYWORDS)):
        line = bodies[int(u[1 + 2 * j] * len(bodies))]
        r = u[2 + 2 * j]
        starts = ([0, 2] if len(line) >= 6 else [0] if len(line) >= 2 else []) if r < 0.5 else []
        if starts:  # a two-character word
            s = starts[int((r * 2) * len(starts))]
            word = line[s : s + 2]
        else:  # one character
            word = line[int(((r - 0.5) * 2 if r >= 0.5 else r * 2) * len(line))]
        if word not in picked:
            picked.append(word)
    return picked


# --8<-- [start:format_example]
def format_example(form: str | None, keywords: list[str], text: str) -> str:
    """The training text of one poem, with special tokens written as their names."""
    return f"<bos>{form or ''}<sep>{KEYWORD_SEP.join(keywords)}<sep>{text}<eos>"


def _encode_example(tok: CharTokenizer, form: str | None, keywords: list[str], text: str) -> list[int]:
    return ([tok.bos_id] + tok.encode(form or "") + [tok.sep_id] + tok.encode(KEYWORD_SEP.join(keywords))
            + [tok.sep_id] + tok.encode(text) + [tok.eos_id])
# --8<-- [end:format_example]


def format_prompt(tokenizer: CharTokenizer, form: str | None, keywords) -> list[int]:
    """Ids of ``<bos> form <sep> keywords <sep>``: the prefix a model continues with a poem.

    ``form``: one of ``poetry.FORMS`` (or an alias such as "五绝"); None leaves the form slot
    empty, as for poems of no known form. ``keywords``: a list of 1-3 words, or one string in
    which words are separated by spaces, commas or 、. Unknown form or characters raise ValueError.
    """
    if not isinstance(tokenizer, CharTokenizer):
        raise TypeError(f"tokenizer must be a CharTokenizer, got {type(tokenizer).__name__}")
    form = None if form is None else poetry.normalize_form(form)
    if isinstance(keywords, str):
        keywords = [w for w in re.split(r"[\s,，、;；]+", keywords) if w]
    if not isinstance(keywords, (list, tuple)) or not all(isinstance(w, str) for w in keywords):
        raise TypeError(f"keywords must be a str or a list of str, got {keywords!r}")
    keywords = [w.strip() for w in keywords]
    if not 1 <= len(keywords) <= MAX_KEYWORDS or not all(keywords):
        raise ValueError(f"keywords must be 1 to {MAX_KEYWORDS} non-empty words, got {keywords!r}")
    if any(KEYWORD_SEP in w for w in keywords):
        raise ValueError(f"a keyword cannot contain the separator {KEYWORD_SEP!r}: {keywords!r}")
    ids = _encode_example(tokenizer, form, keywords, "")
    return ids[:-1]  # up to and including the second <sep>


# --------------------------------------------------------------------------- corpora


@dataclass
class Corpus:
    train: np.ndarray  # int64 token ids, one long stream
    val: np.ndarray  # int64 token ids, one long stream
    tokenizer: CharTokenizer
    name: str
    info: dict = field(default_factory=dict)  # how it was built: counts, seed, split

    # --8<-- [start:get_batch]
    def get_batch(self, split: str, batch_size: int, block_size: int,
                  rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``batch_size`` random windows of ``block_size`` tokens: x (B, T) and y = x shifted by one."""
        if split not in SPLITS:
            raise ValueError(f"split must be 'train' or 'val', got {split!r}")
        for name, v in (("batch_size", batch_size), ("block_size", block_size)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"{name} must be a positive integer, got {v!r}")
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        data = self.train if split == "train" else self.val
        if len(data) <= block_size:
            raise ValueError(f"block_size={block_size} is too large for the {self.name} {split} split "
                             f"of {len(data)} tokens (it needs block_size + 1 tokens)")
        ix = rng.integers(0, len(data) - block_size, size=batch_size)  # (B,)
        pos = ix[:, None] + np.arange(block_size)  # (B, T)
        return data[pos].astype(np.int64), data[pos + 1].astype(np.int64)
    # --8<-- [end:get_batch]

    def __repr__(self) -> str:
        return (f"Corpus(name={self.name!r}, train={len(self.train):,} tokens, "
                f"val={len(self.val):,} tokens, vocab_size={self.tokenizer.vocab_size})")


# --8<-- [start:split]
def poem_corpus(seed: int = 1337, val_fraction: float = 0.05, forms_only: bool = True,
                data: str | Path | None = None, cache: str | Path | bool | None = None,
                song: bool = False) -> Corpus:
    """Tang poems as a Corpus, split by poem: ``val_fraction`` of the poems go to validation.

    ``forms_only``: keep only poems of the four forms (the model is asked for a form).
    The seed fixes both the train/val split and every poem's keywords. The vocabulary is
    every character of the kept poems (train and val), the form names and the punctuation.
    ``data``, ``cache``: as for ``load_poems``. ``song``: the corpus ``poems+song`` (``with_song``).
    """
    if not 0.0 < val_fraction < 1.0:
        raise ValueError(f"val_fraction must be in (0, 1), got {val_fraction!r}")
    if song:
        return with_song(seed, val_fraction, forms_only, data, cache)
    poems = load_poems(data, cache)
    if forms_only:
        poems = [p for p in poems if p.form is not None]
    rng = np.random.default_rng(seed)
    u = rng.random((len(poems), 1 + 2 * MAX_KEYWORDS))  # keyword draws, one row per poem
    keywords = [pick_keywords(p, u[i]) for i, p in enumerate(poems)]
    order = rng.permutation(len(poems))
    n_val = max(1, round(val_fraction * len(poems)))
    is_val = np.zeros(len(poems), dtype=bool)
    is_val[order[:n_val]] = True

    chars = set(poetry.LINE_ENDS + KEYWORD_SEP + "".join(poetry.FORMS))
    for p in poems:
        chars.update(p.text)
    tok = CharTokenizer(chars)
    streams: dict[bool, list[int]] = {False: [], True: []}
    for p, kw, v in zip(poems, keywords, is_val.tolist()):
        streams[v] += _encode_example(tok, p.form, kw, p.text)
    info = {"poems_train": int((~is_val).sum()), "poems_val": n_val, "seed": seed,
            "val_fraction": val_fraction, "forms_only": forms_only,
            "forms": dict(Counter(str(p.form) for p in poems))}
    return Corpus(np.array(streams[False], dtype=np.int64), np.array(streams[True], dtype=np.int64),
                  tok, "poems", info)
# --8<-- [end:split]


def with_song(seed: int = 1337, val_fraction: float = 0.05, forms_only: bool = True,
              data: str | Path | None = None, cache: str | Path | bool | None = None) -> Corpus:
    """The corpus ``poems+song``: the Tang corpus of the same arguments with the Song poems added to training.

    Its validation poems, and their keywords, are exactly the Tang corpus's (a Song poem never lands
    in validation), so validation losses compare with Tang-only runs. A Song poem whose cleaned text
    is a Tang poem's is dropped (``song_duplicates_of_tang``): it could otherwise train on a
    validation poem. The vocabulary is the Tang one plus the Song poems' characters. The Song
    keywords come from their own random stream (seeded by ``seed``), so the Tang draws are unchanged.
    """
    song = load_poems(data, cache, dynasty="song")  # first: missing Song files fail before the Tang work
    tang = poem_corpus(seed, val_fraction, forms_only, data, cache)
    tang_texts = {p.text for p in load_poems(data, cache)}  # from the cache poem_corpus wrote (unless cache=False)
    song = [p for p in song if p.form is not None or not forms_only]
    kept = [p for p in song if p.text not in tang_texts]
    rng = np.random.default_rng([seed, 1])
    u = rng.random((len(kept), 1 + 2 * MAX_KEYWORDS))  # keyword draws, one row per Song poem

    chars = set(tang.tokenizer.chars)
    for p in kept:
        chars.update(p.text)
    tok = CharTokenizer(chars)
    # the Tang streams in the new vocabulary: old id -> new id (the special tokens keep theirs)
    remap = np.array([*range(len(SPECIALS)), *(tok.stoi[c] for c in tang.tokenizer.chars)], dtype=np.int64)
    stream: list[int] = []
    for p, row in zip(kept, u):
        stream += _encode_example(tok, p.form, pick_keywords(p, row), p.text)
    forms = Counter(tang.info["forms"]) + Counter(str(p.form) for p in kept)
    info = {**tang.info, "poems_train": tang.info["poems_train"] + len(kept), "song_train": len(kept),
            "song_duplicates_of_tang": len(song) - len(kept), "forms": dict(forms)}
    return Corpus(np.concatenate([remap[tang.train], np.array(stream, dtype=np.int64)]), remap[tang.val],
                  tok, "poems+song", info)


def load_shakespeare(data: str | Path | None = None) -> str:
    """The tiny Shakespeare text (1,115,394 characters)."""
    data = Path(data) if data is not None else data_dir()
    require([SHAKESPEARE_FILE], data, "tiny Shakespeare")
    return (data / SHAKESPEARE_FILE).read_text(encoding="utf-8")


def shakespeare_corpus(data: str | Path | None = None) -> Corpus:
    """tiny Shakespeare split like nanoGPT's shakespeare_char: first 90% of characters train, last 10% val."""
    text = load_shakespeare(data)
    tok = CharTokenizer.from_text(text)
    n = int(len(text) * 0.9)
    info = {"characters": len(text), "split_at": n}
    return Corpus(np.array(tok.encode(text[:n]), dtype=np.int64),
                  np.array(tok.encode(text[n:]), dtype=np.int64), tok, "shakespeare", info)
