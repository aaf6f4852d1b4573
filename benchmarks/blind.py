"""A blind reading: poems written by a checkpoint and real Tang poems, shuffled into one numbered list for a
reader of classical poetry who is not told which is which; then the reader's scores as a table.

    python benchmarks/blind.py write runs/poems-cpu /tmp/reading-1 --seed 1    # --strict's defaults
    python benchmarks/blind.py write runs/poems-cpu /tmp/reading-0 --seed 0 --old --temperature 0.8 --best-of 1
                                                                      # --strict as it was before issue 22
    python benchmarks/blind.py write runs/poems-cpu /tmp/reading-4 --seed 4 --no-idiom    # before the idiom rules
    # the reader fills /tmp/reading-1/scores.csv: number,sense,craft,accepted,machine
    python benchmarks/blind.py score /tmp/reading-1

Generated: four forms x five keyword sets, one poem each, written as ``minigpt generate --strict`` writes
them (sample k with seed ``seed * 100 + k``). Real: five validation poems per form (the model never
trained on them), drawn with ``seed``, so each reading uses poems no earlier reading used. The list shows
only the form and the poem; ``key.json`` says which is which and how each was made.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

KEYWORDS = ["月,江", "春风", "山,雨", "秋,雁", "故乡"]


def real_poems(corpus, per_form: int, seed: int) -> list[tuple[str, str]]:
    """(form, text) of ``per_form`` validation poems of each form, drawn with ``seed``."""
    from minigpt import poetry

    tok, val = corpus.tokenizer, corpus.val.tolist()
    poems: dict[str, list[str]] = {f: [] for f in poetry.FORMS}
    starts = [i for i, t in enumerate(val) if t == tok.bos_id]
    for s, e in zip(starts, starts[1:] + [len(val)]):
        ids = val[s:e]
        if ids.count(tok.sep_id) < 2 or tok.eos_id not in ids:
            continue
        sep1 = ids.index(tok.sep_id)
        form = tok.decode(ids[1:sep1])
        body = ids[ids.index(tok.sep_id, sep1 + 1) + 1 : ids.index(tok.eos_id)]
        if form in poems:
            poems[form].append(tok.decode(body))
    rng = random.Random(seed)
    return [(f, t) for f, texts in poems.items() for t in rng.sample(texts, min(per_form, len(texts)))]


def write(args) -> None:
    from minigpt import poetry
    from minigpt.constrain import PoemConstraint
    from minigpt.data import poem_corpus
    from minigpt.generate import best_of, encode_prompt, load_model

    model, tok, ckpt = load_model(args.checkpoint)
    items = []
    for f, form in enumerate(poetry.FORMS):
        for k, keywords in enumerate(KEYWORDS):
            seed = args.seed * 100 + f * len(KEYWORDS) + k
            ids = encode_prompt(tok, ckpt, None, form, keywords)
            make = lambda: PoemConstraint(tok, form, keywords, no_repeat=not args.old,  # noqa: E731
                                          idiom=not (args.old or args.no_idiom))
            [(text, nll)] = best_of(model, tok, ids, args.best_of, make_constraint=make, temperature=args.temperature,
                                    top_p=args.top_p, seed=seed, max_new_tokens=model.config.block_size - len(ids))
            items.append({"form": form, "text": text, "source": "model", "keywords": keywords, "seed": seed,
                          "nll": round(nll, 4)})
    items += [{"form": f, "text": t, "source": "real"} for f, t in real_poems(poem_corpus(), 5, args.seed)]
    random.Random(args.seed).shuffle(items)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lines = [f"{n}. {it['form']}\n\n" + "\n".join("    " + line for line in poetry.format_poem(it["text"]).splitlines())
             for n, it in enumerate(items, 1)]
    (out / "list.md").write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    how = {"checkpoint": str(args.checkpoint), "temperature": args.temperature, "top_p": args.top_p,
           "best_of": args.best_of, "no_repeat": not args.old, "idiom": not (args.old or args.no_idiom),
           "seed": args.seed}
    (out / "key.json").write_text(json.dumps({"how": how, "items": items}, ensure_ascii=False, indent=1),
                                  encoding="utf-8")
    print(f"{len(items)} poems -> {out / 'list.md'} (key: {out / 'key.json'})")


def score(args) -> None:
    from minigpt.evaluate import blind_reading_table

    try:
        print("\n".join(blind_reading_table(args.out)))
    except ValueError as e:
        sys.exit(str(e))


def main(argv=None) -> None:
    from minigpt.generate import STRICT_BEST_OF, STRICT_TEMPERATURE

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write", help="write the shuffled list and its key")
    w.add_argument("checkpoint")
    w.add_argument("out")
    w.add_argument("--seed", type=int, default=0)
    w.add_argument("--temperature", type=float, default=STRICT_TEMPERATURE)
    w.add_argument("--top-p", type=float, default=None)
    w.add_argument("--best-of", type=int, default=STRICT_BEST_OF)
    w.add_argument("--old", action="store_true", help="--strict without the no-repeat and idiom rules (as it was)")
    w.add_argument("--no-idiom", action="store_true",
                   help="--strict without the idiom rules (叠字, seasons and rhymes as the poems have them), as before")
    s = sub.add_parser("score", help="the table of a filled scores.csv")
    s.add_argument("out")
    args = p.parse_args(argv)
    write(args) if args.cmd == "write" else score(args)


if __name__ == "__main__":
    main()
