"""Byte-level byte-pair encoding (BPE), the tokenizer family of GPT-2 and its successors.

Text becomes UTF-8 bytes (ids 0..255 cover every text there is), and training repeats one step: count
the neighbouring pairs of ids, and give the most frequent pair a new id (a **merge**). Encoding applies the
merges in the order they were learned; decoding joins the bytes of each id and reads them as UTF-8.

``BPETokenizer`` holds only two tables, so the same ``encode`` and ``decode`` serve merges we train
(``BPETokenizer.train``) and GPT-2's own files (``BPETokenizer.from_gpt2_files``):

- ``byte_ids``: the id of each of the 256 bytes (ours: byte b is id b; GPT-2 numbers them otherwise);
- ``merges``: pair of ids -> new id, in the order they apply (a pair's rank is its position).

Before merging, text is cut into chunks by GPT-2's pattern (words with their leading space, numbers,
punctuation, whitespace), so that no merge crosses a chunk: "dog." and "dog!" share the token " dog".
GPT-2 writes that pattern with ``\\p{L}`` (a letter) and ``\\p{N}`` (a number), which Python's ``re`` lacks;
``compile_split`` spells them out as the code points whose Unicode category starts with L or N.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter, defaultdict
from functools import lru_cache
from pathlib import Path

N_BYTES = 256
GPT2_SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


# --8<-- [start:merge]
def pair_counts(ids: list[int], counts: Counter | None = None, weight: int = 1) -> Counter:
    """How often each pair of neighbouring ids occurs: [1, 2, 1, 2] -> {(1, 2): 2, (2, 1): 1}."""
    counts = Counter() if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] += weight
    return counts


def merge(ids: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    """Replace every occurrence of ``pair`` in ``ids``, left to right, by ``new_id``."""
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
# --8<-- [end:merge]


@lru_cache(maxsize=4)
def compile_split(pattern: str = GPT2_SPLIT) -> re.Pattern:
    """``pattern`` for Python's ``re``: ``\\p{L}`` and ``\\p{N}`` become the code points of Unicode
    category L* (letters) and N* (numbers), as the ``regex`` package reads them."""
    ranges = {"L": [], "N": []}
    for cp in range(0x110000):
        group = ranges.get(unicodedata.category(chr(cp))[0])
        if group is not None:
            if group and group[-1][1] == cp - 1:
                group[-1][1] = cp
            else:
                group.append([cp, cp])
    spelled = {k: "".join(re.escape(chr(a)) + (f"-{re.escape(chr(b))}" if b > a else "") for a, b in v)
               for k, v in ranges.items()}
    pattern = re.sub(r"\[([^\]]*)\]", lambda m: "[" + m.group(1).replace(r"\p{L}", spelled["L"])
                     .replace(r"\p{N}", spelled["N"]) + "]", pattern)  # inside a class: the ranges alone
    return re.compile(pattern.replace(r"\p{L}", f"[{spelled['L']}]").replace(r"\p{N}", f"[{spelled['N']}]"))


def split(text: str, pattern: str | None = GPT2_SPLIT) -> list[str]:
    """The chunks BPE merges within; ``pattern=None`` keeps the text whole."""
    return compile_split(pattern).findall(text) if pattern else [text]


def _check_text(text) -> str:
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return text


# --8<-- [start:train]
def train(text: str, vocab_size: int, pattern: str | None = GPT2_SPLIT) -> dict[tuple[int, int], int]:
    """Learn ``vocab_size - 256`` merges from ``text``: pair -> new id (256, 257, ...), in the order learned.
    Each step merges the most frequent pair (ties: the pair counted first); it stops early when no pair is left."""
    _check_text(text)
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < N_BYTES:
        raise ValueError(f"vocab_size must be an integer of at least {N_BYTES} (one id per byte), got {vocab_size!r}")
    chunks = Counter(split(text, pattern))  # each distinct chunk once, with how often it occurs
    words = [list(chunk.encode("utf-8")) for chunk in chunks]
    freq = list(chunks.values())
    counts, where = Counter(), defaultdict(set)  # pair -> count; pair -> the words that hold it
    for w, ids in enumerate(words):
        pair_counts(ids, counts, freq[w])
        for pair in zip(ids, ids[1:]):
            where[pair].add(w)
    merges = {}
    for new_id in range(N_BYTES, vocab_size):
        pair = max(counts, key=counts.__getitem__, default=None)  # the most frequent (ties: the one counted first)
        if pair is None or counts[pair] == 0:
            break  # no pair left to merge
        merges[pair] = new_id
        for w in where.pop(pair):  # only the words that hold the pair change
            ids = words[w]
            for p in zip(ids, ids[1:]):
                counts[p] -= freq[w]
            words[w] = ids = merge(ids, pair, new_id)
            for p in zip(ids, ids[1:]):
                counts[p] += freq[w]
                where[p].add(w)
    return merges
# --8<-- [end:train]


@lru_cache(maxsize=1)
def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's table from each byte to a printable character, so that its files can hold bytes as text: the
    188 bytes that print as themselves keep their character; the 68 others (control bytes, space, ...)
    take the characters from U+0100 on, in byte order. The space 0x20 becomes 'Ġ', the newline 'Ċ'."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table, n = {}, 0
    for b in range(N_BYTES):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(N_BYTES + n)
            n += 1
    return table


class BPETokenizer:
    """Byte-level BPE: text -> UTF-8 bytes -> ids, merged pair by pair in rank order; ids -> bytes -> text."""

    def __init__(self, merges: dict[tuple[int, int], int], byte_ids: list[int] | None = None,
                 pattern: str | None = GPT2_SPLIT, extra: dict[int, bytes] | None = None):
        self.byte_ids = list(range(N_BYTES)) if byte_ids is None else list(byte_ids)
        if len(self.byte_ids) != N_BYTES:
            raise ValueError(f"byte_ids must give an id to each of the {N_BYTES} bytes, got {len(self.byte_ids)}")
        self.merges = dict(merges)
        self.pattern = pattern
        self.vocab: dict[int, bytes] = {i: bytes([b]) for b, i in enumerate(self.byte_ids)}  # id -> its bytes
        for (a, b), new_id in self.merges.items():
            if a not in self.vocab or b not in self.vocab:
                raise ValueError(f"merge ({a}, {b}) -> {new_id} uses an id that no byte or earlier merge makes")
            self.vocab[new_id] = self.vocab[a] + self.vocab[b]
        self.extra = dict(extra or {})  # id -> bytes of the tokens no merge makes, such as GPT-2's <|endoftext|>
        self.vocab.update(self.extra)
        self.rank = {pair: r for r, pair in enumerate(self.merges)}
        self._cache: dict[str, list[int]] = {}

    @property
    def vocab_size(self) -> int:
        return max(self.vocab) + 1

    @classmethod
    def train(cls, text: str, vocab_size: int, pattern: str | None = GPT2_SPLIT) -> BPETokenizer:
        return cls(train(text, vocab_size, pattern), pattern=pattern)

    # --8<-- [start:encode_decode]
    def encode_chunk(self, chunk: str) -> list[int]:
        """One chunk: its bytes' ids, then, while any neighbouring pair has a merge, the earliest-learned one."""
        ids = [self.byte_ids[b] for b in chunk.encode("utf-8")]
        while len(ids) >= 2:
            pair = min(zip(ids, ids[1:]), key=lambda p: self.rank.get(p, len(self.rank)))
            if pair not in self.merges:
                break  # no pair left that a merge knows
            ids = merge(ids, pair, self.merges[pair])
        return ids

    def encode(self, text: str) -> list[int]:
        out = []
        for chunk in split(_check_text(text), self.pattern):
            if chunk not in self._cache:
                self._cache[chunk] = self.encode_chunk(chunk)
            out += self._cache[chunk]
        return out

    def decode(self, ids) -> str:
        """The bytes of every id joined and read as UTF-8 (a token may end inside a character: the
        whole sequence is decoded, never a token alone; bytes that are not UTF-8 become U+FFFD)."""
        try:
            data = b"".join(self.vocab[int(i)] for i in ids)
        except KeyError as e:
            raise ValueError(f"id {e.args[0]} is not in the vocabulary (ids 0..{self.vocab_size - 1})") from None
        return data.decode("utf-8", errors="replace")
    # --8<-- [end:encode_decode]

    def to_dict(self) -> dict:
        return {"kind": "bpe", "merges": [[a, b, i] for (a, b), i in self.merges.items()],
                "byte_ids": self.byte_ids, "pattern": self.pattern}

    @classmethod
    def from_dict(cls, d: dict) -> BPETokenizer:
        return cls({(a, b): i for a, b, i in d["merges"]}, d["byte_ids"], d["pattern"])

    # --8<-- [start:from_gpt2_files]
    @classmethod
    def from_gpt2_files(cls, vocab_json: str | Path, merges_txt: str | Path) -> BPETokenizer:
        """GPT-2's tokenizer from its two files: ``vocab.json`` (token written with ``bytes_to_unicode`` -> id)
        and ``merges.txt`` (one merge a line, "Ġ t", in rank order, after a ``#version`` line)."""
        vocab = json.loads(Path(vocab_json).read_text(encoding="utf-8"))
        missing = [f"{c!r} (byte 0x{b:02X})" for b, c in bytes_to_unicode().items() if c not in vocab]
        if missing:
            raise ValueError(f"{vocab_json} has no token for {len(missing)} of the 256 bytes, first {missing[0]}: "
                             "not a byte-level BPE vocabulary")
        byte_ids = [vocab[c] for c in bytes_to_unicode().values()]
        merges = {}
        lines = Path(merges_txt).read_text(encoding="utf-8").split("\n")
        for n, line in enumerate(lines, 1):
            if not line or line.startswith("#version"):
                continue
            parts = line.split(" ")
            if len(parts) != 2 or not all(p in vocab for p in parts) or "".join(parts) not in vocab:
                raise ValueError(f"{merges_txt}, line {n}: {line!r} is not a merge of two tokens of {vocab_json}")
            merges[(vocab[parts[0]], vocab[parts[1]])] = vocab["".join(parts)]
        made = set(byte_ids) | set(merges.values())
        decoder = {c: b for b, c in bytes_to_unicode().items()}
        extra = {i: tok.encode("utf-8") if any(c not in decoder for c in tok) else bytes(decoder[c] for c in tok)
                 for tok, i in vocab.items() if i not in made}
        return cls(merges, byte_ids, GPT2_SPLIT, extra)
    # --8<-- [end:from_gpt2_files]
