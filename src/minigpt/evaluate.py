"""A poem model measured: its loss over the whole validation split, and the poems it writes checked by
``minigpt.poetry`` (form, rhyme, tone share, keywords, repeats) beside their fluency; and the table of a blind
reading, where a reader scored generated and real poems without being told which was which.

Samples: ``sample_prompts`` takes the first validation poems of each form (their form and their own keywords);
``write_poems`` draws sample ``i`` with seed ``i``, one poem at a time (batch 1, as ``minigpt generate`` writes
them), freely or under ``PoemConstraint``. Fluency is the model's own loss on a poem: the mean negative
log-likelihood per token of the poem (characters and punctuation, ``<eos>`` left out) given its prompt, under the
*unconstrained* model at temperature 1. ``minigpt bench poems`` (benchmarks/poems.py) reports them.
"""

from __future__ import annotations

import csv
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

FREE = "free"  # a mode: no constraint; any other mode is a PoemConstraint boost (None: deadline only)
DEFAULT = "default"  # a mode: as minigpt generate --strict writes by default (generate.write, strict=True)


def _val_prompts(corpus) -> list[tuple[str, list[int]]]:
    """(form, prompt ids) of every validation poem: the stream's <bos> form <sep> keywords <sep> prefixes."""
    tok = corpus.tokenizer
    val = corpus.val.tolist()
    prompts = []
    starts = [i for i, t in enumerate(val) if t == tok.bos_id]
    for s in starts:
        try:
            sep1 = val.index(tok.sep_id, s)
            sep2 = val.index(tok.sep_id, sep1 + 1)
        except ValueError:
            continue
        form = tok.decode(val[s + 1 : sep1])
        prompts.append((form, val[s : sep2 + 1]))
    return prompts


def sample_prompts(corpus, samples: int) -> tuple[list[tuple[str, str, list[int]]], int]:
    """(form, keywords, prompt ids) of the first validation poems of each form, ``samples`` in all, and how
    many were passed over because ``--strict`` refuses their keywords (e.g. two characters of no known tone)."""
    from minigpt import poetry
    from minigpt.constrain import PoemConstraint
    from minigpt.data import KEYWORD_SEP

    tok = corpus.tokenizer
    per_form = {f: samples // len(poetry.FORMS) + (i < samples % len(poetry.FORMS)) for i, f in enumerate(poetry.FORMS)}
    chosen: dict[str, list] = {f: [] for f in poetry.FORMS}
    skipped = 0
    for form, ids in _val_prompts(corpus):
        if form not in chosen or len(chosen[form]) == per_form[form]:
            continue
        keywords = tok.decode(ids[ids.index(tok.sep_id) + 1 : -1]).replace(KEYWORD_SEP, ",")
        try:
            PoemConstraint(tok, form, keywords)
        except ValueError:
            skipped += 1
            continue
        chosen[form].append((form, keywords, ids))
    return [p for prompts in chosen.values() for p in prompts], skipped


# --8<-- [start:validation_loss]
def validation_loss(model, corpus) -> tuple[float, int]:
    """Mean cross-entropy over the whole validation split, in consecutive windows of block_size."""
    block_size = model.config.block_size
    val = torch.from_numpy(corpus.val)
    n_windows = (len(val) - 1) // block_size
    x = val[: n_windows * block_size].view(n_windows, block_size)  # (N, T)
    y = val[1 : n_windows * block_size + 1].view(n_windows, block_size)
    total, count = 0.0, 0
    with torch.no_grad():
        for i in range(0, n_windows, 32):
            logits, _ = model(x[i : i + 32])
            total += torch.nn.functional.cross_entropy(
                logits.flatten(0, 1), y[i : i + 32].flatten(), reduction="sum").item()
            count += y[i : i + 32].numel()
    return total / count, count
# --8<-- [end:validation_loss]


@dataclass(frozen=True)
class Sample:
    """One written poem: its form, its checks, its repeats, its fluency, and what it cost."""
    form: str
    check: object  # poetry.PoemCheck
    repeats: object  # poetry.Repeats
    seasons: bool  # writes both 春 and 秋 (poetry.mixes_seasons)
    rare_rhyme: bool  # rhymes by a reading the poems seldom rhyme in (poetry.rhymes_by_a_rare_reading)
    nll: float  # mean NLL per token under the model
    tokens: int  # tokens generated, <eos> included
    seconds: float


def summarize(samples: list[Sample]) -> dict:
    """Shares of samples with the right form, rhyme and keywords; mean tone share (right form only) and NLL."""
    n = max(1, len(samples))
    shares = [s.check.tones.share for s in samples if s.check.tones is not None]
    return {"samples": len(samples),
            "form": sum(s.check.form.ok for s in samples) / n,
            "rhyme": sum(bool(s.check.rhyme and s.check.rhyme.ok) for s in samples) / n,
            "keywords": sum(s.check.keywords.ok for s in samples) / n,
            "tone_share": float(np.mean(shares)) if shares else float("nan"),  # nan: no poem had the form
            "repeat_share": sum(s.repeats.repeated for s in samples) / max(1, sum(s.repeats.chars for s in samples)),
            "rhyme_repeated": sum(s.repeats.rhyme_repeated > 0 for s in samples) / n,
            "odd_doubled": sum(s.repeats.odd_doubled > 0 for s in samples) / n,
            "seasons": sum(s.seasons for s in samples) / n,
            "rare_rhyme": sum(s.rare_rhyme for s in samples) / n,
            "nll": float(np.nanmean([s.nll for s in samples])) if samples else float("nan"),
            "tokens_per_s": sum(s.tokens for s in samples) / max(1e-9, sum(s.seconds for s in samples))}


def write_poems(model, tokenizer, prompts, modes, temperature: float = 0.8) -> dict[str, dict]:
    """Per mode, ``summarize`` over all samples ("all") and per form; sample i is drawn with seed i."""
    from minigpt import poetry
    from minigpt.constrain import PoemConstraint
    from minigpt.generate import poem_nll, write

    written: dict = {m: [] for m in modes}
    block_size = model.config.block_size
    for i, (form, keywords, ids) in enumerate(prompts):
        for mode in modes:
            t0 = time.perf_counter()
            if mode == DEFAULT:  # its own temperature and best-of: --strict's defaults
                [text] = write(model, tokenizer, ids, strict=True, form=form, keywords=keywords, seed=i,
                               stop_at_eos=True)
                poem = tokenizer.encode(text)
                row = poem + [tokenizer.eos_id]
            else:
                constraint = None if mode == FREE else PoemConstraint(tokenizer, form, keywords, boost=mode)
                out = model.generate(torch.tensor([ids]), block_size - len(ids), temperature=temperature,
                                     stop=tokenizer.eos_id, rng=np.random.default_rng(i), constraint=constraint)
                row = out[0, len(ids):].tolist()
                poem = row[: row.index(tokenizer.eos_id)] if tokenizer.eos_id in row else row
            seconds = time.perf_counter() - t0
            text = tokenizer.decode(poem, skip_special=True)
            check = poetry.check_poem(text, form, keywords)
            nll = poem_nll(model, ids, poem) if poem else float("nan")
            written[mode].append(Sample(form, check, poetry.check_repeats(text), poetry.mixes_seasons(text),
                                        poetry.rhymes_by_a_rare_reading(text, form), nll, len(row), seconds))
    return {m: {"all": summarize(s), **{f: summarize([x for x in s if x.form == f]) for f in poetry.FORMS}}
            for m, s in written.items()}


def blind_reading_table(folder) -> list[str]:
    """The markdown table of a blind reading's ``folder``: its ``key.json`` (which poem is real, which generated)
    and the reader's ``scores.csv`` (number,sense,craft,accepted,machine), real poems and generated side by side."""
    folder = Path(folder)
    items = json.loads((folder / "key.json").read_text(encoding="utf-8"))["items"]
    rows = {int(r["number"]): r for r in csv.DictReader((folder / "scores.csv").open(encoding="utf-8"))}
    if sorted(rows) != list(range(1, len(items) + 1)):
        raise ValueError(f"scores.csv must score every poem 1..{len(items)} once")
    yes = lambda v: str(v).strip().lower() in ("1", "yes", "y", "true")  # noqa: E731
    lines = ["| | poems | sense (1-5) | craft (1-5) | accepted as a competent poem | guessed \"machine\" |",
             "|---|---|---|---|---|---|"]
    for source, name in (("real", "real poems"), ("model", "generated")):
        got = [rows[n] for n, it in enumerate(items, 1) if it["source"] == source]
        k = len(got)
        lines.append(f"| {name} | {k} | {sum(float(r['sense']) for r in got) / k:.2f} | "
                     f"{sum(float(r['craft']) for r in got) / k:.2f} | {sum(yes(r['accepted']) for r in got)} / {k} | "
                     f"{sum(yes(r['machine']) for r in got)} / {k} |")
    return lines
