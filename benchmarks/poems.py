"""A trained poems-cpu checkpoint: validation loss, and what its poems get right, free and with ``--strict``.

Samples: the first ``samples / 4`` validation poems of each form give the prompts (their form and their
own keywords); sample ``i`` is drawn with seed ``i`` at temperature 0.8, one poem at a time (batch 1, as
``minigpt generate`` writes them), once freely and once under ``PoemConstraint``. Each poem is checked by
``minigpt.poetry``: form, rhyme, tone share (over the poems with the right form, as the real-poem
baseline), keywords; fluency is the model's own loss on it: the mean negative log-likelihood per token
of the poem (characters and punctuation, ``<eos>`` left out) given its prompt, under the *unconstrained*
model at temperature 1. ``python benchmarks/poems.py`` compares ways of placing the keywords.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

FREE = "free"  # a mode: no constraint; any other mode is a PoemConstraint boost (None: deadline only)
DEFAULT = "default"  # a mode: as minigpt generate --strict writes by default (generate.strict_poems)


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
    from minigpt.generate import poem_nll, strict_poems

    written: dict = {m: [] for m in modes}
    block_size = model.config.block_size
    for i, (form, keywords, ids) in enumerate(prompts):
        for mode in modes:
            t0 = time.perf_counter()
            if mode == DEFAULT:  # its own temperature and best-of: --strict's defaults
                [text] = strict_poems(model, tokenizer, ids, form, keywords, seed=i, stop_at_eos=True)
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


def bench_poems(checkpoint: str = "runs/poems-cpu", samples: int = 200, temperature: float = 0.8) -> dict:
    from minigpt import poetry
    from minigpt.constrain import KEYWORD_BOOST
    from minigpt.data import load_poems, poem_corpus
    from minigpt.generate import load_model

    model, tokenizer, ckpt = load_model(checkpoint)
    corpus = poem_corpus()
    if corpus.tokenizer.to_dict() != ckpt["tokenizer"]:
        raise ValueError(f"checkpoint {ckpt['path']} was not trained on this poem corpus (vocabularies differ)")
    val_loss, count = validation_loss(model, corpus)
    prompts, skipped = sample_prompts(corpus, samples)
    t0 = time.perf_counter()
    modes = write_poems(model, tokenizer, prompts, (FREE, KEYWORD_BOOST, DEFAULT), temperature)
    seconds = time.perf_counter() - t0
    real = poetry.baseline(load_poems())
    by_form = {f: sum(1 for p in prompts if p[0] == f) for f in poetry.FORMS}
    weight = {f: n / max(1, len(prompts)) for f, n in by_form.items()}  # the baseline, weighted as the samples
    baseline = {"form": 1.0, "keywords": 1.0,
                "rhyme": sum(real[f].rhyme_ok * w for f, w in weight.items()),
                "repeat_share": sum(real[f].repeat_share * w for f, w in weight.items()),
                "rhyme_repeated": sum(real[f].rhyme_repeated * w for f, w in weight.items()),
                "odd_doubled": sum(real[f].odd_doubled * w for f, w in weight.items()),
                "seasons": sum(real[f].seasons * w for f, w in weight.items()),
                "rare_rhyme": sum(real[f].rare_rhyme * w for f, w in weight.items()),
                "tone_share": sum(real[f].tone_share * w for f, w in weight.items())}
    return {"checkpoint": ckpt["path"], "step": int(ckpt["step"]), "val_loss": val_loss, "val_tokens": count,
            "samples": len(prompts), "skipped": skipped, "temperature": temperature, "free": modes[FREE],
            "strict": modes[KEYWORD_BOOST], "default": modes[DEFAULT], "boost": KEYWORD_BOOST, "baseline": baseline,
            "baseline_by_form": {f: {"rhyme": real[f].rhyme_ok, "tone_share": real[f].tone_share} for f in by_form},
            "seconds": seconds}


def compare_keyword_methods(checkpoint: str = "runs/poems-cpu", samples: int = 100,
                            boosts=(None, 0.0, 1.0, 2.0, 4.0, 8.0)) -> dict:
    """Fluency (NLL per token) and the other checks of free samples and of each way of placing keywords."""
    from minigpt.data import poem_corpus
    from minigpt.generate import load_model

    model, tokenizer, _ = load_model(checkpoint)
    return write_poems(model, tokenizer, sample_prompts(poem_corpus(), samples)[0], (FREE, *boosts))


def report(say, options) -> None:
    """The [poems] section of minigpt bench."""
    from minigpt.checkpoint import resolve
    from minigpt.generate import STRICT_BEST_OF, STRICT_TEMPERATURE

    if not resolve(options.poems_checkpoint).is_file():
        say(f"\n[poems] skipped: no checkpoint at {resolve(options.poems_checkpoint)} "
            f"(train one: minigpt train --preset poems-cpu)")
    else:
        r = bench_poems(options.poems_checkpoint, samples=options.samples)
        say(f"\n[poems] {r['checkpoint']} after {r['step']} steps")
        say(f"  validation loss {r['val_loss']:.4f} nats/char over {r['val_tokens']:,} tokens "
            f"(perplexity {math.exp(r['val_loss']):.1f})")
        passed = f" ({r['skipped']} passed over: --strict refuses their keywords)" if r["skipped"] else ""
        say(f"  {r['samples']} samples at temperature {r['temperature']}, as many per form, from validation poems' "
            f"forms and keywords{passed}; sample i with seed i, batch 1; NLL: the model's loss on its poem")
        say(f"  {'':<11}{'form':>7}{'rhyme':>8}{'tone share':>12}{'keywords':>10}{'repeats':>9}{'rhyme 2x':>9}"
            f"{'odd 叠字':>8}{'春+秋':>7}{'rare rhyme':>11}{'NLL/token':>11}{'tokens/s':>10}")
        free, strict, real = r["free"]["all"], r["strict"]["all"], r["baseline"]
        default = r["default"]["all"]
        for name, m in (("free", free), ("strict 1x", strict), ("--strict", default)):
            slower = f"  ({free['tokens_per_s'] / m['tokens_per_s']:.2f}x slower)" if m is not free else ""
            say(f"  {name:<11}{m['form']:>7.1%}{m['rhyme']:>8.1%}{m['tone_share']:>12.3f}{m['keywords']:>10.1%}"
                f"{m['repeat_share']:>9.1%}{m['rhyme_repeated']:>9.1%}{m['odd_doubled']:>10.1%}{m['seasons']:>8.1%}"
                f"{m['rare_rhyme']:>11.1%}"
                f"{m['nll']:>11.3f}{m['tokens_per_s']:>10,.0f}{slower}")
        say(f"  {'real poems':<11}{real['form']:>7.1%}{real['rhyme']:>8.1%}{real['tone_share']:>12.3f}"
            f"{'(own)':>10}{real['repeat_share']:>9.1%}{real['rhyme_repeated']:>9.1%}{real['odd_doubled']:>10.1%}"
            f"{real['seasons']:>8.1%}{real['rare_rhyme']:>11.1%}")
        say(f"  strict 1x: one draw at temperature {r['temperature']} under the rules; --strict: as minigpt generate "
            f"--strict writes by default (temperature {STRICT_TEMPERATURE}, the most likely of {STRICT_BEST_OF})")
        say("  repeats: characters that repeat an earlier one in their poem (叠字 included); rhyme 2x: poems that "
            "end two even lines in the same character; odd 叠字: poems that double a character the Tang poems seldom "
            "double (别别; src/minigpt/doubles.txt); 春+秋: poems that write both; rare rhyme: poems that rhyme "
            "only by a reading the poems seldom rhyme in (逢 with 江; src/minigpt/rare_rhymes.txt)")
        strict = default  # the targets are the default command's
        hit = all(strict[k] == 1.0 for k in ("form", "rhyme", "keywords"))
        say(f"  --strict targets: form, rhyme, keywords 100%: {say.mark(hit)}; tone share >= real poems: "
            f"{say.mark(strict['tone_share'] >= real['tone_share'])}; repeats <= real poems', no rhyme twice: "
            f"{say.mark(strict['repeat_share'] <= real['repeat_share'] and strict['rhyme_repeated'] == 0)}")
        say("  rhyme / tone share by form (free, --strict, real): " + "; ".join(
            f"{f} {r['free'][f]['rhyme']:.0%}/{r['free'][f]['tone_share']:.2f}, "
            f"{r['default'][f]['rhyme']:.0%}/{r['default'][f]['tone_share']:.2f}, "
            f"{b['rhyme']:.0%}/{b['tone_share']:.2f}" for f, b in r["baseline_by_form"].items()))
        say(f"  ({r['seconds']:.0f} s)")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    checkpoint = sys.argv[1] if len(sys.argv) > 1 else "runs/poems-cpu"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    for mode, r in compare_keyword_methods(checkpoint, n).items():
        a = r["all"]
        name = mode if mode == FREE else "deadline only" if mode is None else f"boost {mode:g}"
        print(f"{name:<14} NLL/token {a['nll']:.3f}  form {a['form']:.0%}  rhyme {a['rhyme']:.0%}  "
              f"tones {a['tone_share']:.3f}  keywords {a['keywords']:.0%}  {a['tokens_per_s']:.0f} tokens/s")
