"""The ``minigpt`` command: data, train, generate, attention, bench, lesson, workbook, check.

Every subcommand has ``--help``. Bad arguments print one line (``minigpt: error: ...``) and exit
with status 2; a missing or damaged file exits with 1; never a traceback (set MINIGPT_DEBUG=1 to
see one).
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
from pathlib import Path

EXIT_USAGE = 2  # bad arguments, as argparse
EXIT_FAILURE = 1  # missing data, damaged checkpoint, a failed lesson snippet...


class UsageError(ValueError):
    """An argument combination the parser cannot catch by itself."""


# ---- parsers ----------------------------------------------------------------------------------
class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line: ``minigpt train: error: ... (see minigpt train --help)``."""

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _number(convert, accept, rule: str):
    """An argparse type: ``convert(text)`` must succeed and pass ``accept``, else one clear line."""

    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            value = None
        if value is None or not accept(value):
            raise argparse.ArgumentTypeError(f"{rule}, got {text!r}")
        return value

    return parse


_positive_int = _number(int, lambda v: v >= 1, "expected a positive integer")
_nonneg_int = _number(int, lambda v: v >= 0, "expected an integer >= 0")


def _sampling(name: str):
    """An argparse type for --temperature or --top-p, checked by minigpt.sampling's own rule."""

    def parse(text: str) -> float:
        from minigpt.sampling import check_sampling

        try:
            value = float(text)
            check_sampling(**{name: value})
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e).split(", got")[0] + f", got {text!r}") from None
        return value

    return parse


def _field(name: str, convert):
    """An argparse type for a TrainConfig field: ``convert(text)``, then the field's own check."""

    def parse(text: str):
        from minigpt.config import check_field

        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {'an integer' if convert is int else 'a number'}, "
                                             f"got {text!r}") from None
        try:
            check_field(name, value)
        except ValueError as e:
            rule = str(e).split(", got")[0].split("; got")[0].split(" ", 1)[1]  # without "TrainConfig.<name> "
            raise argparse.ArgumentTypeError(f"{rule}, got {text!r}") from None
        return value

    return parse


def add_config_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per TrainConfig field (``--max-steps`` for max_steps; ``--out`` for out_dir), each with the
    field's comment as help; a flag left out keeps the preset's value."""
    from dataclasses import fields

    from minigpt.config import CHOICES, TrainConfig, field_help

    helps = field_help(TrainConfig)
    for f in fields(TrainConfig):
        flag = "--out" if f.name == "out_dir" else "--" + f.name.replace("_", "-")
        kind = f.type.removesuffix(" | None")
        if f.name in CHOICES:
            parser.add_argument(flag, dest=f.name, choices=CHOICES[f.name], help=helps[f.name])
        elif kind == "bool":
            parser.add_argument(flag, dest=f.name, action=argparse.BooleanOptionalAction, help=helps[f.name])
        else:
            convert = {"int": int, "float": float, "str": str}[kind]
            parser.add_argument(flag, dest=f.name, type=_field(f.name, convert), help=helps[f.name])


def build_parser() -> argparse.ArgumentParser:
    from minigpt.config import DEVICES
    from minigpt.presets import PRESETS

    parser = ArgumentParser(
        prog="minigpt",
        description="Build a GPT from an empty file: data, training, generation, benchmarks and lessons.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    # data
    p_data = sub.add_parser("data", help="download, verify or describe the corpora",
                            description="Download, verify or describe the two corpora (Tang poems, tiny Shakespeare).")
    data_sub = p_data.add_subparsers(dest="data_command", metavar="ACTION", required=True)
    d = data_sub.add_parser("download", help="fetch the corpora from upstream at pinned commits",
                            description="Fetch every corpus file and check its sha256; good files are skipped.")
    d.add_argument("--dest", help="data folder (default: $MINIGPT_DATA or the per-user cache)")
    d.add_argument("--base-url", help="a mirror laid out like the data folder (default: upstream)")
    d.add_argument("--source", choices=["auto", "github", "npm"], default="auto",
                   help="where the poems come from: github (upstream, or --base-url), npm (the package "
                        "chinese-poetry@2.0.1 through your own npm client, so its registry and mirror settings "
                        "apply; tiny Shakespeare still comes from GitHub), or auto (default: GitHub, then npm "
                        "for what GitHub could not give)")
    d.add_argument("--no-progress", action="store_true", help="no progress bar")
    v = data_sub.add_parser("verify", help="check every corpus file's sha256",
                            description="Check that every corpus file is present with the right sha256.")
    v.add_argument("--dest", help="data folder (default: $MINIGPT_DATA or the per-user cache)")
    i = data_sub.add_parser("info", help="where the data lives and what is there",
                            description="Print where the data lives, which corpora are present, and sizes.")
    i.add_argument("--dest", help="data folder (default: $MINIGPT_DATA or the per-user cache)")

    # train
    epilog = "presets:\n" + "\n".join(
        f"  {name:<16} {c.corpus}, {c.n_layer} layers x {c.n_embd} wide, context {c.block_size}, "
        f"batch {c.batch_size}, {c.max_steps} steps, lr {c.lr:g}" for name, c in PRESETS.items())
    t = sub.add_parser("train", help="train a GPT from a preset", epilog=epilog,
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Train a GPT. Start from --preset; each flag overrides one field. "
                                   "Writes ckpt.pt, log.csv and loss.png into --out.")
    t.add_argument("--preset", choices=list(PRESETS), help="starting point (default: shakespeare-cpu, or the "
                                                            "checkpoint's own config with --resume)")
    t.add_argument("--resume", action="store_true", help="continue from OUT/ckpt.pt exactly where it stopped")
    add_config_flags(t)
    t.add_argument("--no-progress", action="store_true", help="no progress bar")

    # generate
    g = sub.add_parser("generate", help="generate text or a poem from a checkpoint",
                       description="Generate from a trained checkpoint: continue PROMPT, or write a poem of "
                                   "--form with --keywords (poems checkpoints).")
    g.add_argument("prompt", nargs="?", default=None, help="text to continue (for poems: the poem's opening)")
    g.add_argument("--checkpoint", "--out", dest="checkpoint",
                   help="ckpt.pt or its run folder (default: runs/poems-cpu with --form/--keywords, "
                        "else runs/shakespeare-cpu)")
    g.add_argument("--form", help="poem form: 五言绝句, 七言绝句, 五言律诗, 七言律诗 (or 五绝, 七绝, 五律, 七律)")
    g.add_argument("--keywords", help="1 to 3 words, separated by commas, spaces or 、 (e.g. 月,江)")
    g.add_argument("--max-new-tokens", type=_positive_int, help="tokens to generate (default: 500 for text, "
                                                                "up to the context's end for poems)")
    g.add_argument("--temperature", type=_sampling("temperature"),
                   help="0 is greedy (default 0.8; 0.6 with --strict)")
    g.add_argument("--top-k", type=_positive_int, help="sample among the k most likely tokens")
    g.add_argument("--top-p", type=_sampling("top_p"), help="sample among the most likely tokens whose probability "
                                                "reaches p, in (0, 1]")
    g.add_argument("--num-samples", type=_positive_int, default=1, help="how many samples (default 1)")
    g.add_argument("--seed", type=_nonneg_int, default=0, help="sampling seed (default 0)")
    g.add_argument("--strict", action="store_true",
                   help="with --form and --keywords: mask the logits at every step so the poem surely has "
                        "the form's shape, rhymes in one 平声 group, follows a standard 平仄 pattern "
                        "(一三五不论) and contains every keyword, with no character twice but as a 叠字 the Tang "
                        "poems use (one per four lines), not both 春 and 秋, and no rhyme by a reading the poems "
                        "never rhyme in; the model still picks among the allowed characters")
    g.add_argument("--best-of", type=_positive_int, metavar="N",
                   help="draw N candidates for each sample and print the one the model itself finds most likely "
                        "(lowest loss per token); default 1, 8 with --strict")
    g.add_argument("--no-cache", action="store_true", help="recompute the whole context each step (no KV cache)")
    g.add_argument("--device", choices=DEVICES, default="cpu", help="default cpu")

    # attention
    at = sub.add_parser("attention", help="export a poems model's attention weights for the attention explorer",
                        description="Write a few poems with the model (as minigpt generate --strict writes them, "
                                    "seeded), take a few real quatrains of the validation split, run each through "
                                    "the model and write, per poem, its tokens and the attention weights of every "
                                    "layer and head (in thousandths, lower triangle) into one JSON file: the data "
                                    "of the course's attention explorer page.")
    at.add_argument("checkpoint", help="ckpt.pt of a poems model (either engine), or its run folder")
    at.add_argument("out", help="the JSON file to write")
    at.add_argument("--poems", type=_nonneg_int, default=3, help="poems the model writes (default 3, at most "
                                                                 "6: 五言绝句 月,江; 七言绝句 春,风; ...)")
    at.add_argument("--real", type=_nonneg_int, default=3, help="real quatrains from the validation split (default 3)")
    at.add_argument("--seed", type=_nonneg_int, default=0, help="sampling seed, and which real poems (default 0)")
    at.add_argument("--name", help="what the page calls the model (default: the checkpoint's run folder)")
    at.add_argument("--device", choices=DEVICES, default="cpu", help="default cpu")

    # bench: the benchmarks live beside the package (benchmarks/run.py) and parse their own arguments
    sub.add_parser("bench", add_help=False, help="measure speed and quality side by side on this machine "
                                                 "(minigpt bench --help for the sections)")

    # lesson
    les = sub.add_parser("lesson", help="run a lesson's scripts in order",
                         description="Run snippets/<slug>/NN_*.py in order, printing a header per file. "
                                     "Exercise answers (NN_answer_*.py) are left out unless --answers. "
                                     "Run it from the repository: the lessons are its mkdocs.yml nav's.")
    les.add_argument("slug", nargs="?", help="lesson slug (omit to list them in course order)")
    les.add_argument("--answers", action="store_true", help="also run the exercise answers")

    # workbook, check
    wb = sub.add_parser("workbook", help="create your own workbook: the files the course grows",
                        description="Create your own project, the files the course grows from empty "
                                    "(tensor.py, functional.py, nn.py, optim.py, ...), and a README.")
    wb_sub = wb.add_subparsers(dest="workbook_command", required=True, parser_class=ArgumentParser)
    wi = wb_sub.add_parser("init", help="create the workbook in a new or empty folder")
    wi.add_argument("dir", nargs="?", default="minigpt-workbook", help="the folder (default: minigpt-workbook)")
    wi.add_argument("--lang", choices=["zh", "en"], help="README language (default: from the locale)")
    wt = wb_sub.add_parser("train", help="train your own GPT from your workbook and sample from it",
                           description="Train the GPT of your workbook's gpt.py with your optim.py's AdamW (your "
                                       "data.py's get_batch and train.py's lr_at once written) for a few steps, "
                                       "print the loss, then sample a poem (or a line of Shakespeare).")
    wt.add_argument("dir", nargs="?", default="minigpt-workbook", help="the folder (default: minigpt-workbook)")
    wt.add_argument("--corpus", choices=["poems", "shakespeare"], default="poems", help="what to train on")
    wt.add_argument("--steps", type=int, default=200, help="optimizer steps (default: 200)")
    wt.add_argument("--seed", type=int, default=1337, help="seeds the weights, the batches and the sample")
    wt.add_argument("--lang", choices=["zh", "en"], help="message language (default: from the locale)")
    ck = sub.add_parser("check", help="check your workbook against a lesson's checks",
                        description="Import your workbook's files and run a lesson's checks on them: one line "
                                    "per check; exit status 0 when all pass, 1 otherwise.")
    ck.add_argument("lesson", nargs="?", help="lesson slug, as minigpt lesson lists them")
    ck.add_argument("--all", action="store_true", help="a table of every lesson in course order")
    ck.add_argument("--workbook", default="minigpt-workbook", help="the workbook folder (default: minigpt-workbook)")
    ck.add_argument("--lang", choices=["zh", "en"], help="message language (default: from the locale)")
    return parser


# ---- commands -----------------------------------------------------------------------------------
def cmd_data(args) -> int:
    from minigpt import download

    if args.data_command == "download":
        result = download.download(args.dest, progress=not args.no_progress and sys.stderr.isatty(),
                                   base_url=args.base_url, source=args.source)
        print(f"downloaded {len(result['downloaded'])} file(s), {len(result['skipped'])} already present "
              f"into {args.dest or download.data_dir()}")
        return 0
    if args.data_command == "verify":
        problems = download.verify(args.dest)
        for line in problems:
            print(line)
        where = args.dest or download.data_dir()
        if problems:
            print(f"minigpt: error: {len(problems)} problem(s) in {where}; run `minigpt data download`",
                  file=sys.stderr)
            return EXIT_FAILURE
        print(f"all {len(download.MANIFEST)} files in {where} match their checksums")
        return 0
    info = download.info(args.dest)
    for key, value in info.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k}: {v}" for k, v in value.items())
        print(f"{key:<14} {value}")
    return 0


def _quiet(*args, **kwargs) -> None:
    """print's stand-in on the ranks that keep quiet."""


def cmd_train(args) -> int:
    from dataclasses import fields, replace

    from minigpt.checkpoint import load_checkpoint
    from minigpt.config import TrainConfig
    from minigpt.presets import get_preset
    from minigpt.train import train

    if args.preset is None and args.resume and args.out_dir:
        config = TrainConfig.from_dict(load_checkpoint(args.out_dir)["train_config"])
    else:
        config = get_preset(args.preset or "shakespeare-cpu")
    config = replace(config, **{f.name: getattr(args, f.name) for f in fields(TrainConfig)
                                if getattr(args, f.name) is not None})
    say = print if os.environ.get("RANK", "0") == "0" else _quiet  # under torchrun, rank 0 alone prints
    procs = int(os.environ.get("WORLD_SIZE", "1"))
    per_rank = f" per process x {procs} processes" if procs > 1 else ""
    say(f"training {config.corpus}: {config.n_layer} layers x {config.n_embd} wide, context {config.block_size}, "
        f"batch {config.batch_size}{per_rank}, {config.max_steps} steps, engine {config.engine}"
        f"{'' if config.optimizer == 'adamw' else ', optimizer ' + config.optimizer} -> {config.out_dir}")
    result = train(config, resume=args.resume, progress=False if args.no_progress else None, log=print)
    if not result.losses:
        say(f"nothing to do: the checkpoint is at step {result.step} and --max-steps is {config.max_steps}")
        return 0
    say(f"done: step {result.step}, val loss {result.val_loss:.4f}, {result.tokens_per_s:,.0f} tokens/s, "
        f"{result.elapsed:.1f} s; checkpoint {result.checkpoint}")
    return 0


def cmd_generate(args) -> int:
    from minigpt import poetry
    from minigpt.generate import (STRICT_BEST_OF, STRICT_TEMPERATURE, TEMPERATURE, best_of, corpus_of, crop,
                                  describe_check, encode_prompt, generate_text, load_model, strict_constraint)
    from minigpt.presets import PRESETS

    wants_poem = args.form is not None or args.keywords is not None
    path = args.checkpoint or PRESETS["poems-cpu" if wants_poem else "shakespeare-cpu"].out_dir
    model, tokenizer, ckpt = load_model(path, args.device)
    step, max_steps = ckpt["step"], ckpt["train_config"].get("max_steps")
    if isinstance(max_steps, int) and step < max_steps:
        print(f"minigpt: note: the checkpoint is from step {step} of {max_steps}; training has not finished, "
              f"so the text may be poorer than the finished model's", file=sys.stderr)
    form = poetry.normalize_form(args.form) if args.form is not None else None  # unknown -> lists the forms
    constraint = None
    if args.strict:
        if form is None or args.keywords is None:
            raise UsageError("--strict needs --form and --keywords (e.g. --form 五绝 --keywords 月,江)")
        if corpus_of(ckpt) == "poems":  # else encode_prompt says it needs a poems checkpoint
            constraint = strict_constraint(tokenizer, form, args.keywords)
    ids = encode_prompt(tokenizer, ckpt, args.prompt, form, args.keywords)
    block_size = model.config.block_size
    ids, dropped = crop(ids, block_size)
    if dropped:
        print(f"minigpt: note: the prompt is {len(ids) + dropped} tokens, longer than the context of {block_size}; "
              f"using its last {block_size}", file=sys.stderr)
    is_poems = corpus_of(ckpt) == "poems"
    max_new = args.max_new_tokens or (None if is_poems else 500)
    if constraint is not None:
        constraint.check_room(max_new or max(1, block_size - len(ids)), opening=args.prompt or "")
    strict = constraint is not None
    temperature = args.temperature if args.temperature is not None else STRICT_TEMPERATURE if strict else TEMPERATURE
    n_best = args.best_of if args.best_of is not None else STRICT_BEST_OF if strict else 1
    options = dict(max_new_tokens=max_new, temperature=temperature, top_k=args.top_k, top_p=args.top_p,
                   seed=args.seed, use_cache=not args.no_cache, stop_at_eos=is_poems)  # poems end with <eos>
    if n_best > 1:
        rebuild = (lambda: strict_constraint(tokenizer, form, args.keywords)) if constraint is not None else None
        texts = [text for text, _ in best_of(model, tokenizer, ids, n_best, args.num_samples,
                                             make_constraint=rebuild, **options)]
    else:
        texts = generate_text(model, tokenizer, ids, num_samples=args.num_samples, constraint=constraint, **options)
    for n, text in enumerate(texts):
        if n:
            print("---")
        if is_poems:
            text = (args.prompt or "") + text
            print(poetry.format_poem(text))
            if form is not None:
                print(f"[{describe_check(text, form, args.keywords)}]", file=sys.stderr)
        else:
            print((args.prompt or "") + text)
    return 0


def cmd_attention(args) -> int:
    import json

    from minigpt.attention_maps import PROMPTS, export, poem_titles
    from minigpt.checkpoint import resolve
    from minigpt.files import atomic_write
    from minigpt.generate import corpus_of, load_model
    from minigpt.train import load_corpus

    if args.poems > len(PROMPTS):
        raise UsageError(f"--poems can be at most {len(PROMPTS)}, got {args.poems}")
    model, tokenizer, ckpt = load_model(args.checkpoint, args.device)
    if corpus_of(ckpt) != "poems":
        raise UsageError(f"the attention explorer needs a checkpoint trained on poems; {ckpt['path']} was trained "
                         f"on {corpus_of(ckpt)}")
    name = args.name or resolve(args.checkpoint).parent.name
    result = export(model, tokenizer, ckpt, load_corpus("poems"), args.poems, args.real, args.seed, name,
                    titles=poem_titles() if args.real else None)
    text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(out) as f:
        f.write(text.encode("utf-8"))
    print(f"{out}: {len(result['poems'])} poems, {result['model']['n_layer']} layers x {result['model']['n_head']} "
          f"heads, {out.stat().st_size / 1024:.0f} KiB")
    return 0


def cmd_bench(args, rest: list[str]) -> int:
    script = find_repo_folder("benchmarks") / "run.py"
    return subprocess.run([sys.executable, str(script), *rest]).returncode


def find_repo_folder(name: str) -> Path:
    """``snippets/`` or ``benchmarks/``: in the current folder or a parent, else beside the package's source."""
    here = Path.cwd().resolve()
    for folder in (here, *here.parents, Path(__file__).resolve().parents[2]):
        if (folder / name / "").is_dir():
            return folder / name
    raise FileNotFoundError(f"no {name}/ folder here or above; run this from the minigpt repository")


def cmd_lesson(args) -> int:
    from minigpt import lessons

    root = lessons.repo_root()
    slugs = [lesson.slug for lesson in lessons.lessons(root)]  # in course order
    if args.slug is None:
        print("lessons: " + (", ".join(slugs) if slugs else "(none)"))
        return 0
    if args.slug not in slugs:
        raise UsageError(f"unknown lesson {args.slug!r}; available: {', '.join(slugs) or '(none)'}")
    for file in lessons.scripts(root / "snippets" / args.slug, args.answers):
        print(f"==> {file.relative_to(root)} <==", flush=True)
        done = subprocess.run([sys.executable, str(file)], cwd=root)
        if done.returncode:
            print(f"minigpt: error: {file.name} failed with exit code {done.returncode}", file=sys.stderr)
            return EXIT_FAILURE
        print(flush=True)
    return 0


def cmd_workbook(args) -> int:
    from minigpt import workbook

    lang = workbook.language(args.lang)
    folder = Path(args.dir)
    if args.workbook_command == "train":
        from minigpt import workbook_train

        if not folder.is_dir():
            raise UsageError(f"no workbook folder {args.dir!r}; create it with minigpt workbook init {args.dir}")
        if args.steps < 1:
            raise UsageError(f"--steps must be at least 1, got {args.steps}")
        try:
            losses = workbook_train.train(folder, lang, corpus=args.corpus, steps=args.steps, seed=args.seed)
        except workbook_train.NotReady as e:
            print(str(e), file=sys.stderr)
            return EXIT_FAILURE
        return 0 if all(math.isfinite(x) for x in losses) else EXIT_FAILURE
    try:
        files = workbook.init(folder, lang)
    except FileExistsError as e:
        raise UsageError(str(e)) from None
    print(workbook.TEXT[lang]["created"].format(dir=folder, files=", ".join(files)))
    print(workbook.TEXT[lang]["next"].format(dir=folder))
    return 0


def _course_order() -> list[str]:
    """The lesson slugs in course order: the repository's nav, else the lessons that have checks."""
    from minigpt import lessons, workbook

    try:
        return [lesson.slug for lesson in lessons.lessons(lessons.repo_root())]
    except FileNotFoundError:
        return list(workbook.LESSONS)


def cmd_check(args) -> int:
    from minigpt import workbook

    lang = workbook.language(args.lang)
    folder = Path(args.workbook)
    if (args.lesson is None) == (not args.all):
        raise UsageError("give a lesson or --all, not both" if args.all else "give a lesson or --all")
    if not folder.is_dir():
        raise UsageError(f"no workbook folder {args.workbook!r}; create it with minigpt workbook init "
                         f"{args.workbook}")
    slugs = _course_order()
    if args.all:
        return workbook.check_all(slugs, folder, lang)
    if args.lesson not in slugs and args.lesson not in workbook.LESSONS:
        raise UsageError(f"unknown lesson {args.lesson!r}; available: {', '.join(slugs)}")
    return workbook.check(args.lesson, folder, lang)


COMMANDS = {"data": cmd_data, "train": cmd_train, "generate": cmd_generate, "attention": cmd_attention,
            "lesson": cmd_lesson,
            "workbook": cmd_workbook, "check": cmd_check}


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``minigpt`` console script; returns the exit status."""
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)  # usage errors: one line, exit 2
    if args.command != "bench" and rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        return cmd_bench(args, rest) if args.command == "bench" else COMMANDS[args.command](args)
    except KeyboardInterrupt:
        print("minigpt: interrupted", file=sys.stderr)
        return 130
    except Exception as e:
        if os.environ.get("MINIGPT_DEBUG"):
            raise
        from minigpt.checkpoint import CheckpointError

        message = " ".join(str(e).split()) or type(e).__name__
        if isinstance(e, ValueError) and not isinstance(e, CheckpointError):  # bad input, UsageError too
            print(f"minigpt: error: {message}", file=sys.stderr)
            return EXIT_USAGE
        if isinstance(e, (CheckpointError, OSError, RuntimeError, FloatingPointError)):
            print(f"minigpt: error: {message}", file=sys.stderr)
            return EXIT_FAILURE
        raise
