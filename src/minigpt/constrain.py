"""Constrained decoding: a poem that keeps its form's rules, by masking the logits before each sample.

    constraint = PoemConstraint(tokenizer, "五言绝句", "月,江")
    out = model.generate(idx, 40, temperature=0.8, stop=tokenizer.eos_id, constraint=constraint)

At every step ``generate`` hands the constraint the tokens so far (B, T) and the next-token logits
(B, V); the constraint sets the logit of every token that would break a rule to -inf, and ``sample``
draws from what is left. Among the allowed tokens the model still chooses, by its own probabilities.
Each row's poem starts after the last ``<sep>`` of its prompt (``<bos> form <sep> keywords <sep>``);
an opening given after it must keep the rules too. The rules (those ``minigpt.poetry`` checks):

- shape: each line has the form's number of Chinese characters and then the couplet's punctuation
  (，；？！ after an odd line, 。？！ after an even one); after the last line, only ``<eos>``;
- tones (平仄): at a checked position (not 一三五不论) only a character whose tone fits one of the
  form's four standard patterns still open. Line 1 picks the pattern as it is written: its second
  character fixes 平起 or 仄起 (a character of both tones leaves both open), its last character
  首句入韵 (平) or 不入韵 (仄). A character the rhyme book does not list (about 1% of the corpus:
  啼, 扫, 沉, ...) only goes at a free position;
- rhyme: the first rhyme position fixes the group. That is line 1's end when the model ends line 1
  in 平 (首句入韵, then it must rhyme with line 2), else line 2's end. There the model chooses
  among the 平声 characters of groups with enough members in the vocabulary to finish the poem
  (``min_members``), so a group is picked with the model's own probability; every later even line
  ends in another character of a group shared by all rhymes so far (no rhyme character twice);
- repeats: a character already in the poem is not written again, nor a variant form of it (鴈 after 雁:
  ``poetry.standard``), except straight after itself as a reduplication (叠字: 萧萧, 悠悠), at most two in
  a row. Real poems repeat 2.3% of their characters (0.7% as 叠字); free samples of the poem model repeat
  several times as often (花 three times in two lines, 萧萧萧), which readers took for the mark of a
  machine. A keyword's characters are kept for the keyword until it is written (``no_repeat=False`` turns
  both rules off);
- keywords: each must appear inside one line. A step may only take a token after which every
  missing keyword can still be placed later (``_feasible``: each inside a line, in tones the open
  patterns allow, never at a line end); so when a keyword's last chance comes, it is the only
  choice left (the deadline). Before that the model is steered: wherever a keyword fits, its first
  character's logit gets ``boost`` added, and once the model picks that character the rest of the
  word follows at once. The model still decides where, among the places it finds likely; the boost
  makes that early, which reads better than the deadline alone (``KEYWORD_BOOST``; ``boost=None``
  leaves only the deadline);
- idiom (``idiom=True``, as ``minigpt generate --strict`` sets it): a 叠字 only of a character the Tang
  poems double (``poetry.doubles``: 萧萧, not 别别), at most one per four lines; not both 春 and 秋 in
  one poem (real poems: 1.2%); a rhyme only in a group the poems rhyme the character in
  (``poetry.rare_rhymes``: 逢 is listed in 三江 too, and never rhymes there). Without these, a draw under
  the other rules doubled an unused character in 12% of poems and wrote both seasons in 4.5%; blind
  readers had named all three.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import permutations

import numpy as np

from minigpt import poetry, rhyme
from minigpt.tokenizer import CharTokenizer

# a character's tones as bits, ``poetry.TONE_BITS`` (0: not in the rhyme book, or not a character)
PING, ZE = poetry.TONE_BITS[rhyme.PING], poetry.TONE_BITS[rhyme.ZE]
EITHER = PING | ZE
# --8<-- [start:keyword_boost]
# The logit added to a keyword's first character where the keyword fits. Fluency, the model's own loss on
# its poem (NLL per token, free model at temperature 1), of 200 poems-cpu samples at temperature 0.8
# (python benchmarks/poems.py): free 3.829 (keywords 2%); deadline only 4.075 (the keywords crowd into the
# end: over 80 poems, 150 of 161 in the last quarter); boost 0 4.078, 1 4.068, 2 4.023, 4 3.928, 8 3.945.
# Placed early, a keyword is context the rest of the poem follows; forced at the end, it is a patch.
KEYWORD_BOOST = 4.0
# --8<-- [end:keyword_boost]


@dataclass
class Row:
    """Where one sample stands in its poem."""
    start: int  # index in idx of the poem's first token
    seen: int = 0  # tokens of the poem taken in so far
    n: int = 0  # characters and punctuation marks written
    line: str = ""  # the current line's characters
    used: set = field(default_factory=set)  # the characters written so far, all lines
    last: str = ""  # the last character written ("" after punctuation: a 叠字 stays inside a line)
    double: bool = False  # the last two characters were the same (no third)
    doubles: int = 0  # 叠字 written (萧萧 counts one)
    patterns: int = 0b1111  # bit p set: standard tone pattern p still open
    rhyme: frozenset | None = None  # the 平声 groups every rhyme so far shares; None before the first
    rhymed: set = field(default_factory=set)  # rhyme characters used
    missing: tuple[str, ...] = ()  # keywords not in the poem yet
    forced: str = ""  # the rest of a keyword being written
    starts: dict = field(default_factory=dict)  # token id -> the keyword it begins, offered at this step
    done: bool = False  # <eos> written


@lru_cache(maxsize=4)
def _vocab(itos: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Per token id, (V,) each: is it a Chinese character, its tone bits, and each 平声 group's members."""
    table, tone_bits = rhyme.table(), poetry.tone_bits()
    han = np.array([len(t) == 1 and poetry.is_han(t) for t in itos])
    bits = np.zeros(len(itos), dtype=np.int8)
    members = {g: np.zeros(len(itos), dtype=bool) for g in rhyme.group_names(rhyme.PING)}
    for i, t in enumerate(itos):
        if han[i]:
            bits[i] = tone_bits.get(t, 0)
            for g in table.groups_of.get(t, ()):
                if g in members:
                    members[g][i] = True
    return han, bits, members


class PoemConstraint:
    """A ``constraint`` for ``generate``: masks the logits so each row writes a poem of ``form`` that
    rhymes, keeps a standard tone pattern and contains every keyword. Keep one per ``generate`` call."""

    def __init__(self, tokenizer: CharTokenizer, form: str, keywords=(), boost: float | None = KEYWORD_BOOST,
                 min_members: int | None = None, no_repeat: bool = True, idiom: bool = False):
        self.tok, self.form, self.boost = tokenizer, poetry.normalize_form(form), boost
        self.no_repeat = no_repeat
        self.idiom = idiom
        self.n_lines, self.L = poetry.FORMS[self.form]
        self.rhyme_lines = poetry.rhyme_lines(self.form)
        if not self.rhyme_lines:
            raise ValueError(f"{self.form} has no rhyme rule, so PoemConstraint cannot write it")
        V = tokenizer.vocab_size
        self.han, self.bits, members = _vocab(tuple(tokenizer.itos))
        self.tone_ok = {need: (self.bits & need) > 0 for need in (PING, ZE, EITHER)}  # (V,) each
        # need[p][i][j]: the tone bits pattern p asks for at line i, character j (0: free);
        # keeps[i, j][bits]: the patterns (bit p) a character of tone bits at line i, character j keeps open
        self.need = [[[poetry.TONE_BITS.get(t, 0) for t in line] for line in p.required]
                     for p in poetry.tone_patterns(self.form)]
        self.keeps = {(i, j): [0] * 4 for i in range(self.n_lines) for j in range(self.L)}
        for p, lines in enumerate(self.need):
            for i, line in enumerate(lines):
                for j, need in enumerate(line):
                    for bits in range(4):
                        if not need or need & bits:
                            self.keeps[i, j][bits] |= 1 << p
        self.tone_class = [self.bits == b for b in range(4)]  # (V,) each: the tokens of tone bits b
        # (V,) the token of each token's standard form (鴈 -> 雁's id): a variant repeats its character
        self.standard = np.array([tokenizer.stoi.get(poetry.standard(t), i) for i, t in enumerate(tokenizer.itos)])
        # rhyme groups with enough members here to end every rhyming line with a different character
        self.min_members = min_members or len(self.rhyme_lines) + 1
        members = {g: m & self.han for g, m in members.items()}
        if idiom:  # a character rhymes only in the groups the Tang poems rhyme it in (not 逢 with 江)
            for c, g in poetry.rare_rhymes():
                if c in tokenizer.stoi and g in members:
                    members[g][tokenizer.stoi[c]] = False
        self.members = {g: m for g, m in members.items() if m.sum() >= self.min_members}
        self._rhyme_masks: dict[frozenset, np.ndarray] = {}
        self.eos = np.arange(V) == tokenizer.eos_id
        self.punct = [np.isin(np.arange(V), [tokenizer.stoi[c] for c in ends if c in tokenizer.stoi])
                      for ends in (poetry.FIRST_LINE_ENDS, poetry.SECOND_LINE_ENDS)]
        if not (self.punct[0].any() and self.punct[1].any() and self.members):
            raise ValueError(f"this vocabulary cannot write a rhyming {self.form}: it lacks punctuation "
                             f"or any 平声 group with {self.min_members} characters")
        self.keywords = poetry.parse_keywords(keywords) if keywords else ()
        self._check_keywords()
        self.rows: list[Row] | None = None

    def tokens_needed(self, opening: str = "") -> int:
        """New tokens a whole poem takes after its prompt: every line, its punctuation mark and ``<eos>``,
        less the ``opening`` (the poem's start, given with the prompt)."""
        return self.n_lines * (self.L + 1) + 1 - len(opening)

    def check_room(self, room: int, opening: str = "") -> None:
        """ValueError unless ``room`` new tokens (``max_new_tokens``) are enough to finish the poem."""
        needed = self.tokens_needed(opening)
        if room < needed:
            raise ValueError(f"a strict {self.form} is written whole: it needs {needed} new tokens, and only {room} "
                             f"are allowed (max_new_tokens, or what the context leaves)")

    # ---- keywords: where each fits, and whether all still can ------------------------------------
    def _check_keywords(self) -> None:
        stoi, L, form = self.tok.stoi, self.L, self.form
        for w in self.keywords:
            unknown = [c for c in w if c not in stoi]
            if unknown:
                raise ValueError(f"keyword {w!r} has characters the model has never seen: "
                                 + " ".join(repr(c) for c in unknown))
            if not all(poetry.is_han(c) for c in w):
                raise ValueError(f"keyword {w!r} must be Chinese characters only")
            if len(w) > L:
                raise ValueError(f"keyword {w!r} has {len(w)} characters; a line of {form} holds {L}")
        total = sum(len(w) for w in self.keywords)
        if total > self.n_lines * L:
            raise ValueError(f"the keywords have {total} characters; a {form} holds {self.n_lines * L}")
        # fits[p][w]: the slots (line * L + position) where w can start under pattern p
        self.fits = [{w: [i * L + j for i in range(self.n_lines) for j in range(L - len(w) + 1)
                          if self._fits_at(p, w, i, j)] for w in self.keywords} for p in range(4)]
        self.fit_at = {w: {} for w in self.keywords}  # w -> slot -> the patterns under which w fits there
        for p in range(4):
            for w, slots in self.fits[p].items():
                for slot in slots:
                    self.fit_at[w][slot] = self.fit_at[w].get(slot, 0) | 1 << p
        for w in self.keywords:
            if not self.fit_at[w]:
                blind = [c for c in w if not self.bits[stoi[c]]]
                why = (f"the 平水韵 book gives no tone for {'、'.join(blind)}, and such a character can only "
                       f"stand at a free position (一三五不论)" if blind else
                       "its tones fit no line of a standard 平仄 pattern")
                raise ValueError(f"keyword {w!r} cannot be placed in a {form}: {why}")
        self._memo: dict[tuple, bool] = {}
        if not self._feasible(self.keywords, 0, 0b1111):
            raise ValueError(f"the keywords {'、'.join(self.keywords)} do not fit together into one {form} "
                             f"(each inside a line, in tones a standard pattern allows)")

    def _fits_at(self, p: int, w: str, i: int, j: int) -> bool:
        """Can keyword ``w`` stand at line i from character j under pattern p? Never at a line end:
        line 1's decides the rhyme and the even lines' rhyme, so those stay the model's choice."""
        if j + len(w) == self.L and (i == 0 or i + 1 in self.rhyme_lines):
            return False
        for k, c in enumerate(w):
            need = self.need[p][i][j + k]
            if need and not self.bits[self.tok.stoi[c]] & need:
                return False
        return True

    def _feasible(self, words: tuple[str, ...], slot: int, patterns: int) -> bool:
        """Can every keyword in ``words`` still be written from character ``slot`` on (one pattern for all)?
        For each order of the words, each goes at its earliest fitting slot after the one before."""
        key = (words, slot, patterns)
        if key not in self._memo:
            self._memo[key] = not words or any(
                self._in_order(order, slot, p) for p in range(4) if patterns >> p & 1
                for order in permutations(words))
        return self._memo[key]

    def _in_order(self, order: tuple[str, ...], slot: int, p: int) -> bool:
        for w in order:
            slot = next((s for s in self.fits[p][w] if s >= slot), None)
            if slot is None:
                return False
            slot += len(w)
        return True

    # ---- one step --------------------------------------------------------------------------------
    def _narrow(self, patterns: int, i: int, j: int, bits: int) -> int:
        """The patterns still open once a character of tone ``bits`` stands at line i, character j."""
        return patterns & self.keeps[i, j][bits]

    def _groups_of(self, t: int) -> frozenset:
        """The rhyme groups here that token ``t`` is in."""
        return frozenset(g for g, m in self.members.items() if m[t])

    def _rhyme_mask(self, groups: frozenset) -> np.ndarray:
        if groups not in self._rhyme_masks:
            self._rhyme_masks[groups] = np.logical_or.reduce([self.members[g] for g in groups])
        return self._rhyme_masks[groups]

    # --8<-- [start:base]
    def _base(self, row: Row, i: int, j: int) -> np.ndarray:
        """(V,) bool: the characters that keep the shape, the tones and the rhyme at line i, character j."""
        need = 0  # the tones the open patterns allow here (0: free)
        for p in range(4):
            if row.patterns >> p & 1:
                need |= self.need[p][i][j]
        allowed = self.tone_ok[need] if need else self.han
        if j == self.L - 1 and i + 1 in self.rhyme_lines:  # an even line's end rhymes
            allowed = allowed & self._rhyme_mask(row.rhyme or frozenset(self.members))
            if row.rhymed:  # no rhyme character twice
                allowed = allowed & ~self._same_as(row.rhymed)
        elif j == self.L - 1 and i == 0 and need & PING:  # line 1 may rhyme: a 平 end must be in a group
            allowed = (self.tone_ok[ZE] if need & ZE else False) | self._rhyme_mask(frozenset(self.members))
        if self.no_repeat and row.used:
            allowed = self._no_repeat(row, allowed)
        if self.idiom:
            allowed = self._idiom(row, allowed)
        return allowed

    def _no_repeat(self, row: Row, allowed: np.ndarray) -> np.ndarray:
        """``allowed`` less the characters already in the poem and their variants, but for a 叠字 of the last
        one (not a third in a row). Should that leave nothing (it cannot with a real vocabulary), ``allowed``."""
        fresh = allowed & ~self._same_as(row.used)
        if row.last and not row.double:  # 萧 then 萧 once more
            t = self.tok.stoi[row.last]
            fresh[t] = allowed[t]
        return fresh if fresh.any() else allowed
    # --8<-- [end:base]

    def _idiom(self, row: Row, allowed: np.ndarray) -> np.ndarray:
        """``allowed`` less what real poems seldom do: a 叠字 of a character they do not double (别别), a
        second 叠字 in four lines, 秋 in a poem of 春 and 春 in one of 秋."""
        out = allowed.copy()
        if row.last and not row.double:
            t = self.tok.stoi[row.last]
            if row.last not in poetry.doubles() or row.doubles >= self.n_lines // 4:
                out[t] = False
        said = "".join(self.keywords)
        for c, other in (poetry.SEASONS, poetry.SEASONS[::-1]):  # a keyword's season holds from the start
            if (c in row.used or c in said) and other in self.tok.stoi and other not in said:
                out[self.tok.stoi[other]] = False
        return out if out.any() else allowed

    def _same_as(self, chars: set) -> np.ndarray:
        """(V,) bool: the tokens that are one of ``chars`` or a variant form of one (雁, 鴈)."""
        return np.isin(self.standard, self.standard[[self.tok.stoi[c] for c in chars]])

    # --8<-- [start:options]
    def options(self, row: Row) -> tuple[np.ndarray, dict[int, str]]:
        """(V,) bool of the tokens ``row`` may take next, and the tokens that begin a keyword there."""
        i, j = divmod(row.n, self.L + 1)
        if row.done or i == self.n_lines:
            return self.eos, {}
        if j == self.L:
            return self.punct[i % 2], {}
        if row.forced:
            return np.arange(len(self.eos)) == self.tok.stoi[row.forced[0]], {}
        allowed = self._base(row, i, j)
        if not row.missing:
            return allowed, {}
        slot = i * self.L + j
        # tokens that write no keyword: their tone decides which patterns stay open
        plain = np.logical_or.reduce([self.tone_class[bits] for bits in range(4)
                                      if self._feasible(row.missing, slot + 1, self._narrow(row.patterns, i, j, bits))]
                                     or [np.zeros_like(allowed)])
        ok = allowed & plain
        natural = ok.copy()  # what the model may write without meaning a keyword
        if self.no_repeat:  # a missing keyword's characters wait for the keyword (no 秋风 before 春风)
            ok[[self.tok.stoi[c] for w in row.missing for c in w]] = False
        starts = {}
        for w in row.missing:
            t = self.tok.stoi[w[-1]]
            if row.line.endswith(w[:-1]) and allowed[t]:  # finishes w (a one-character w, or one begun)
                line = row.line + w[-1]
                left = tuple(k for k in row.missing if k not in line)
                if self._feasible(left, slot + 1, self._narrow(row.patterns, i, j, self.bits[t])):
                    ok[t] = True
                    if len(w) == 1:
                        starts[t] = w
            if len(w) > 1:  # begins w here; its other characters follow
                t = self.tok.stoi[w[0]]
                fit = row.patterns & self.fit_at[w].get(slot, 0)
                left = tuple(k for k in row.missing if k != w)
                if fit and self._feasible(left, slot + len(w), fit):
                    ok[t] = True
                    starts[t] = w
        if self.boost is None:  # deadline only: a keyword is begun on purpose only when it must be
            starts = {t: w for t, w in starts.items() if len(w) > 1 and not natural[t]}
        return ok, starts
    # --8<-- [end:options]

    def advance(self, row: Row, t: int) -> None:
        """Take token ``t`` into ``row``'s state."""
        row.seen += 1
        if row.done:
            return
        if t == self.tok.eos_id:
            row.done = True
            return
        i, j = divmod(row.n, self.L + 1)
        row.n += 1
        if j == self.L:  # the punctuation closes the line
            row.line, row.last, row.double = "", "", False
            return
        word, row.starts = row.starts.get(t, ""), {}
        if row.forced:  # a keyword's next character
            row.forced = row.forced[1:]
        elif len(word) > 1:  # a keyword begun: the rest is written next
            row.forced = word[1:]
            row.missing = tuple(w for w in row.missing if w != word)
        c = self.tok.itos[t]
        row.double, row.last = c == row.last, c
        row.doubles += row.double
        row.used.add(c)
        row.line += c
        row.missing = tuple(w for w in row.missing if w not in row.line)
        row.patterns = self._narrow(row.patterns, i, j, self.bits[t])
        groups = self._groups_of(t) if j == self.L - 1 else frozenset()
        if groups and (i + 1 in self.rhyme_lines or i == 0):  # a rhyme: line 1's when in a group
            row.rhyme = groups if row.rhyme is None else row.rhyme & groups
            row.rhymed.add(self.tok.itos[t])

    # --8<-- [start:call]
    def __call__(self, idx, logits) -> np.ndarray:
        """The logits (B, V) with -inf at every token row b may not take after idx[b] (B, T)."""
        idx = np.asarray(idx)
        logits = np.asarray(logits, dtype=np.float64)
        first = self.rows is None
        if first:  # each row's poem starts after its prompt's last <sep>
            self.rows = [Row(start=int(np.flatnonzero(r == self.tok.sep_id)[-1]) + 1
                             if (r == self.tok.sep_id).any() else len(r), missing=self.keywords) for r in idx]
        mask = np.zeros(logits.shape, dtype=bool)  # (B, V)
        for b, row in enumerate(self.rows):
            for t in idx[b, row.start + row.seen:].tolist():  # the tokens written since the last call
                if first:  # an opening given with the prompt must keep the rules too
                    allowed, row.starts = self.options(row)
                    if not allowed[t]:
                        raise ValueError(f"the opening {self.tok.decode(idx[b, row.start:], skip_special=True)!r} "
                                         f"breaks the rules of a strict {self.form} at character {row.n + 1} "
                                         f"({self.tok.itos[t]}: length, punctuation, tone, rhyme or room for "
                                         f"the keywords)")
                self.advance(row, t)
            mask[b], row.starts = self.options(row)
        out = np.where(mask, logits, -np.inf)
        if self.boost:
            for b, row in enumerate(self.rows):
                out[b, list(row.starts)] += self.boost
        return out
    # --8<-- [end:call]
