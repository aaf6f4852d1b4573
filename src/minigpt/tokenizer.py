"""A character tokenizer: one id per character, plus four special tokens.

Ids 0..3 are always the special tokens ``<pad>``, ``<bos>``, ``<eos>``, ``<sep>``; the characters
follow in sorted (code point) order, so the same set of characters always gets the same ids.
"""

from __future__ import annotations

from collections.abc import Iterable

# --8<-- [start:specials]
SPECIALS = ("<pad>", "<bos>", "<eos>", "<sep>")
# --8<-- [end:specials]


class CharTokenizer:
    """Maps characters to integer ids and back. For the text "hello", ids 4-7 are e, h, l, o: encode("hole")
    is [5, 7, 6, 4], and decode([1, 5, 7, 6, 4, 2]) is "<bos>hole<eos>"."""

    pad_id = 0
    bos_id = 1
    eos_id = 2
    sep_id = 3

    # --8<-- [start:tokenizer_init]
    def __init__(self, chars: Iterable[str]):
        chars = list(chars)
        for c in chars:
            if not isinstance(c, str) or len(c) != 1:
                raise ValueError(f"chars must be single characters, got {c!r}")
        self.chars: list[str] = sorted(set(chars))
        self.itos: list[str] = list(SPECIALS) + self.chars  # id -> token text
        self.stoi: dict[str, int] = {c: i + len(SPECIALS) for i, c in enumerate(self.chars)}
    # --8<-- [end:tokenizer_init]

    @classmethod
    def from_text(cls, text: str) -> CharTokenizer:
        """A tokenizer whose vocabulary is every distinct character of ``text``."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        return cls(set(text))

    @property
    def vocab_size(self) -> int:
        return len(self.itos)

    # --8<-- [start:encode_decode]
    def encode(self, text: str) -> list[int]:
        """Ids of the characters of ``text``. Characters outside the vocabulary raise ValueError."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        stoi = self.stoi
        try:
            return [stoi[c] for c in text]
        except KeyError:
            unknown = sorted({c for c in text if c not in stoi})
            raise ValueError(
                f"text has {len(unknown)} character(s) not in the vocabulary: "
                + " ".join(repr(c) for c in unknown[:20])
                + (" ..." if len(unknown) > 20 else "")
            ) from None

    def decode(self, ids: Iterable[int], skip_special: bool = False) -> str:
        """Text for ``ids``; special tokens appear as their names unless ``skip_special``."""
        n, out = len(self.itos), []
        for i in ids:
            i = int(i)
            if not 0 <= i < n:
                raise ValueError(f"token id {i} is outside the vocabulary [0, {n})")
            if skip_special and i < len(SPECIALS):
                continue
            out.append(self.itos[i])
        return "".join(out)
    # --8<-- [end:encode_decode]

    def to_dict(self) -> dict:
        """A JSON-friendly description; ``from_dict`` rebuilds the identical tokenizer."""
        return {"type": "char", "specials": list(SPECIALS), "chars": "".join(self.chars)}

    @classmethod
    def from_dict(cls, d: dict) -> CharTokenizer:
        if not isinstance(d, dict) or d.get("type") != "char" or "chars" not in d:
            raise ValueError("d must be a dict made by CharTokenizer.to_dict()")
        if list(d.get("specials", SPECIALS)) != list(SPECIALS):
            raise ValueError(f"d has specials {d.get('specials')!r}, expected {list(SPECIALS)!r}")
        return cls(d["chars"])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CharTokenizer) and self.itos == other.itos

    def __repr__(self) -> str:
        return f"CharTokenizer(vocab_size={self.vocab_size})"

