"""A trained poems-cpu checkpoint: validation loss, and what its poems get right, free and with ``--strict``.

Samples: the first ``samples / 4`` validation poems of each form give the prompts (their form and their
own keywords); sample ``i`` is drawn with seed ``i`` at temperature 0.8, one poem at a time (batch 1, as
``minigpt generate`` writes them), once freely and once under ``PoemConstraint``. Each poem is checked by
``minigpt.poetry``: form, rhyme, tone share (over the poems with the right form, as the real-poem
baseline), keywords; fluency is the model's own loss on it: the mean negative log-likelihood per token
of the poem (characters and punctuation, ``<eos>`` left out) given its prompt, under the *unconstrained*
model at temperature 1 (``minigpt.evaluate`` holds these measures). ``python benchmarks/poems.py`` compares ways of placing the keywords.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

from minigpt.evaluate import (  # noqa: F401  the measures, in the library; tests import them from here too
    DEFAULT, FREE, Sample, sample_prompts, summarize, validation_loss, write_poems)


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
