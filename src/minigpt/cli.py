"""The ``minigpt`` command: data, train, generate, attention; the course package adds lesson, workbook, check
and bench (``plugins``).

Every subcommand has ``--help``. Bad arguments print one line (``minigpt: error: ...``) and exit
with status 2; a missing or damaged file exits with 1; never a traceback (set MINIGPT_DEBUG=1 to
see one).
"""

from __future__ import annotations

import argparse
import os
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
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        try:
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
                            description="Download, verify or describe the corpora (Tang poems, tiny Shakespeare; "
                                        "the Song poems with --song).")
    data_sub = p_data.add_subparsers(dest="data_command", metavar="ACTION", required=True)
    d = data_sub.add_parser("download", help="fetch the corpora from upstream at pinned commits",
                            description="Fetch every corpus file and check its sha256; good files are skipped. "
                                        "The Song poems (255 files, about 109 MB) only come with --song.")
    d.add_argument("--dest", help="data folder (default: $MINIGPT_DATA or the per-user cache)")
    d.add_argument("--base-url", help="a mirror laid out like the data folder (default: upstream)")
    d.add_argument("--source", choices=["auto", "github", "npm"], default="auto",
                   help="where the poems come from: github (upstream, or --base-url), npm (the package "
                        "chinese-poetry@2.0.1 through your own npm client, so its registry and mirror settings "
                        "apply; tiny Shakespeare still comes from GitHub), or auto (default: GitHub, then npm "
                        "for what GitHub could not give)")
    d.add_argument("--song", action="store_true",
                   help="also fetch the Song poems (poet.song.*.json), which only the corpus poems+song needs")
    d.add_argument("--no-progress", action="store_true", help="no progress bar")
    v = data_sub.add_parser("verify", help="check every corpus file's sha256",
                            description="Check that every corpus file is present with the right sha256.")
    v.add_argument("--dest", help="data folder (default: $MINIGPT_DATA or the per-user cache)")
    v.add_argument("--song", action="store_true",
                   help="the Song poems must all be there too (without it, only those present are checked)")
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
    t.add_argument("--diagnostics", action="store_true",
                   help="under each evaluation, the share of dead GELU inputs and of saturated attention rows per "
                        "block and log10 update/weight (torch engine; lesson 15, Is the run healthy?)")

    # generate
    g = sub.add_parser("generate", help="generate text or a poem from a checkpoint",
                       description="Generate from a trained checkpoint: continue PROMPT, or write a poem of "
                                   "--form with --keywords (poems checkpoints).")
    g.add_argument("prompt", nargs="?", default=None, help="text to continue (for poems: the poem's opening)")
    g.add_argument("--checkpoint", "--out", dest="checkpoint",
                   help="ckpt.pt or its run folder (default: runs/poems-cpu with --form/--keywords, "
                        "else runs/shakespeare-cpu), or a GPT-2 folder in Hugging Face's layout (config.json, "
                        "model.safetensors, vocab.json, merges.txt), which continues PROMPT in English")
    g.add_argument("--form", help="poem form: 五言绝句, 七言绝句, 五言律诗, 七言律诗 (or 五绝, 七绝, 五律, 七律; "
                                  "in pinyin wujue, qijue, wulv, qilv)")
    g.add_argument("--keywords", help="1 to 3 words, separated by commas, spaces or 、 (e.g. 月,江)")
    g.add_argument("--max-new-tokens", type=_positive_int, help="tokens to generate (default: 500 for text, "
                                                                "100 for GPT-2, up to the context's end for poems)")
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

    # the commands other packages add (the course: lesson, workbook, check, bench), by entry point
    for plugin in plugins():
        PLUGIN_COMMANDS.update(plugin(sub, ArgumentParser))
    return parser


# ---- commands -----------------------------------------------------------------------------------
def cmd_data(args) -> int:
    from minigpt import download

    if args.data_command == "download":
        result = download.download(args.dest, progress=not args.no_progress and sys.stderr.isatty(),
                                   base_url=args.base_url, source=args.source, song=args.song)
        print(f"downloaded {len(result['downloaded'])} file(s), {len(result['skipped'])} already present "
              f"into {args.dest or download.data_dir()}")
        return 0
    if args.data_command == "verify":
        problems = download.verify(args.dest, song=args.song)
        for line in problems:
            print(line)
        where = Path(args.dest) if args.dest else download.data_dir()
        song = sum((where / p).is_file() for p in download.song_files())
        if problems:
            fix = "minigpt data download --song" if args.song or song else "minigpt data download"
            print(f"minigpt: error: {len(problems)} problem(s) in {where}; run `{fix}`", file=sys.stderr)
            return EXIT_FAILURE
        print(f"all {len(download.default_files()) + song} files in {where} match their checksums"
              + ("" if song in (0, len(download.song_files())) else
                 f" ({song} of {len(download.song_files())} Song files: `minigpt data download --song` "
                 f"fetches the rest)"))
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
    from minigpt.distributed import env_rank, env_world_size
    from minigpt.presets import get_preset
    from minigpt.train import precision, train

    if args.preset is None and args.resume and args.out_dir:
        config = TrainConfig.from_dict(load_checkpoint(args.out_dir)["train_config"])
    else:
        config = get_preset(args.preset or "shakespeare-cpu")
    config = replace(config, **{f.name: getattr(args, f.name) for f in fields(TrainConfig)
                                if getattr(args, f.name) is not None})
    say = print if env_rank() == 0 else _quiet  # under torchrun, rank 0 alone prints
    procs = env_world_size()
    per_rank = f" per process x {procs} processes" if procs > 1 else ""
    say(f"training {config.corpus}: {config.n_layer} layers x {config.n_embd} wide, context {config.block_size}, "
        f"batch {config.batch_size}{per_rank}, {config.max_steps} steps, engine {config.engine}, {precision(config)}"
        f"{'' if config.optimizer == 'adamw' else ', optimizer ' + config.optimizer} -> {config.out_dir}")
    if procs > 1 and config.engine != "torch":
        raise UsageError("training under torchrun needs --engine torch (the numpy engine is one process)")
    if args.diagnostics and config.engine != "torch":
        raise UsageError("--diagnostics needs --engine torch")
    result = train(config, resume=args.resume, progress=False if args.no_progress else None, log=print,
                   diagnostics=args.diagnostics)
    if not result.losses:
        say(f"nothing to do: the checkpoint is at step {result.step} and --max-steps is {config.max_steps}")
        return 0
    say(f"done: step {result.step}, val loss {result.val_loss:.4f}, {result.tokens_per_s:,.0f} tokens/s, "
        f"{result.elapsed:.1f} s; checkpoint {result.checkpoint}")
    return 0


def cmd_generate(args) -> int:
    from minigpt import gpt2, poetry
    from minigpt.config import POEM_CORPORA
    from minigpt.generate import corpus_of, crop, describe_check, encode_prompt, load_model, write
    from minigpt.presets import PRESETS

    wants_poem = args.form is not None or args.keywords is not None
    path = args.checkpoint or PRESETS["poems-cpu" if wants_poem else "shakespeare-cpu"].out_dir
    if gpt2.is_hf_folder(path):  # Hugging Face's layout: GPT-2
        return generate_gpt2(args, Path(path).expanduser())
    model, tokenizer, ckpt = load_model(path, args.device)
    step, max_steps = ckpt["step"], ckpt["train_config"].get("max_steps")
    if isinstance(max_steps, int) and step < max_steps:
        print(f"minigpt: note: the checkpoint is from step {step} of {max_steps}; training has not finished, "
              f"so the text may be poorer than the finished model's", file=sys.stderr)
    form = poetry.normalize_form(args.form) if args.form is not None else None  # unknown -> lists the forms
    is_poems = corpus_of(ckpt) in POEM_CORPORA
    if args.strict and (form is None or args.keywords is None):
        raise UsageError("--strict needs --form and --keywords (e.g. --form 五绝 --keywords 月,江)")
    if wants_poem and not is_poems:
        raise UsageError(f"--form and --keywords need a checkpoint trained on poems; this one was trained on "
                         f"{corpus_of(ckpt)}")
    if form is not None and args.keywords is None:
        raise UsageError("--form needs --keywords too (1 to 3 words, e.g. --keywords 月,江)")
    ids = encode_prompt(tokenizer, ckpt, args.prompt, form, args.keywords)
    block_size = model.config.block_size
    ids, dropped = crop(ids, block_size)
    if dropped:
        print(f"minigpt: note: the prompt is {len(ids) + dropped} tokens, longer than the context of {block_size}; "
              f"using its last {block_size}", file=sys.stderr)
    texts = write(model, tokenizer, ids, strict=args.strict, form=form, keywords=args.keywords,
                  opening=args.prompt or "", num_samples=args.num_samples, temperature=args.temperature,
                  best_of_n=args.best_of, max_new_tokens=args.max_new_tokens or (None if is_poems else 500),
                  top_k=args.top_k, top_p=args.top_p, seed=args.seed, use_cache=not args.no_cache,
                  stop_at_eos=is_poems)  # poems end with <eos>
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


def generate_gpt2(args, folder) -> int:
    """minigpt generate with a GPT-2 folder in Hugging Face's layout: continue the prompt in English."""
    from minigpt import gpt2
    from minigpt.device import resolve_device
    from minigpt.generate import TEMPERATURE

    used = [flag for flag, value in (("--form", args.form), ("--keywords", args.keywords), ("--strict", args.strict),
                                     ("--best-of", args.best_of)) if value]
    if used:
        raise UsageError(f"{' and '.join(used)} need a poems checkpoint; {folder} holds a GPT-2 model, which "
                         f"continues a prompt")
    model = gpt2.load_gpt2(folder, resolve_device(args.device))
    tokenizer = gpt2.load_tokenizer(folder)
    texts = gpt2.generate(model, tokenizer, args.prompt or "", max_new_tokens=args.max_new_tokens or 100,
                          temperature=TEMPERATURE if args.temperature is None else args.temperature, top_k=args.top_k,
                          top_p=args.top_p, seed=args.seed, num_samples=args.num_samples, use_cache=not args.no_cache)
    for n, text in enumerate(texts):
        if n:
            print("---")
        print((args.prompt or "") + text)
    return 0


def cmd_attention(args) -> int:
    import json

    from minigpt.attention_maps import PROMPTS, export, poem_titles
    from minigpt.checkpoint import resolve
    from minigpt.config import POEM_CORPORA
    from minigpt.files import atomic_write
    from minigpt.generate import corpus_of, load_model
    from minigpt.train import load_corpus

    if args.poems > len(PROMPTS):
        raise UsageError(f"--poems can be at most {len(PROMPTS)}, got {args.poems}")
    model, tokenizer, ckpt = load_model(args.checkpoint, args.device)
    if corpus_of(ckpt) not in POEM_CORPORA:
        raise UsageError(f"the attention explorer needs a checkpoint trained on poems; {ckpt['path']} was trained "
                         f"on {corpus_of(ckpt)}")
    name = args.name or resolve(args.checkpoint).parent.name
    result = export(model, tokenizer, ckpt, load_corpus(corpus_of(ckpt)), args.poems, args.real, args.seed, name,
                    titles=poem_titles() if args.real else None)
    text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(out) as f:
        f.write(text.encode("utf-8"))
    print(f"{out}: {len(result['poems'])} poems, {result['model']['n_layer']} layers x {result['model']['n_head']} "
          f"heads, {out.stat().st_size / 1024:.0f} KiB")
    return 0


COMMANDS = {"data": cmd_data, "train": cmd_train, "generate": cmd_generate, "attention": cmd_attention}
PLUGIN_COMMANDS = {}  # name -> handler(args, rest), filled by build_parser from plugins()
PLUGINS = "minigpt.commands"  # the entry-point group of the packages that add subcommands


def plugins() -> list:
    """The installed packages' subcommand registrars (entry points in ``minigpt.commands``): each takes the
    subparsers and this module's ArgumentParser class, adds its parsers, and returns {name: handler}, a
    handler taking (args, rest) where rest is what the parser left over. The library imports none of them
    by name: the course package (``minigpt_course``) adds lesson, workbook, check and bench this way."""
    from importlib.metadata import entry_points

    return [entry_point.load() for entry_point in entry_points(group=PLUGINS)]


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``minigpt`` console script; returns the exit status."""
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)  # usage errors: one line, exit 2
    if args.command in COMMANDS and rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        if args.command in COMMANDS:
            return COMMANDS[args.command](args)
        return PLUGIN_COMMANDS[args.command](args, rest)
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
