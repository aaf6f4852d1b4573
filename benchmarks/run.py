"""``minigpt bench`` (or ``python benchmarks/run.py``): speed and quality measured side by side, on this
machine, in one run. The benchmarks live beside the package, not in it; ``make bench`` runs them.

Each section is a module of this folder whose ``report(say, options)`` measures and prints, plus one
entry in ``SECTIONS`` below: adding a benchmark is a file and a line. ``minigpt bench engine generate``
picks sections; the default runs the quick ones; ``minigpt bench --help`` lists them all.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling modules, however this file is run

from minigpt.cli import ArgumentParser, _positive_int  # noqa: E402  (arguments checked as the CLI's are)


@dataclass(frozen=True)
class Section:
    module: str  # benchmarks/<module>.py, whose report(say, options) measures and prints
    quick: bool  # part of the default run
    what: str  # one line for --help


SECTIONS = {
    "engine": Section("engine", True, "ms per training step (forward + backward + AdamW) of the numpy GPT and "
                                      "the PyTorch GPT at GPTConfig(), batch 8, float32, and their ratio"),
    "shakespeare": Section("training", True, "tokens/s, ms/step and peak memory (RSS) of the shakespeare-cpu "
                                             "preset in a fresh process; --full also trains the whole preset "
                                             "(validation loss, wall time)"),
    "generate": Section("generation", True, "tokens/s with and without the KV cache on the poems model's "
                                            "shape, and whether greedy decoding gives the same tokens both ways"),
    "learning": Section("learning", True, "mean validation loss of a fixed small run (tiny Shakespeare, 300 "
                                          "steps, 3 seeds) against the bound tests/test_learning_guard.py "
                                          "asserts, with a control that must miss; --full adds bfloat16"),
    "nanogpt": Section("nanogpt", False, "a nanoGPT-shaped reference (its laptop run of shakespeare_char) beside "
                                         "shakespeare-cpu and beside minigpt at nanoGPT's settings, 3 seeds: loss "
                                         "on the whole validation split, wall time and peak memory (about 7 minutes)"),
    "poems": Section("poems", False, "a trained poems-cpu checkpoint's validation loss, and its poems at "
                                     "temperature 0.8, free and with --strict, next to real poems: form, rhyme, "
                                     "tone share, keywords, fluency and speed"),
}
DEFAULT_SECTIONS = tuple(name for name, section in SECTIONS.items() if section.quick)


class Say:
    """What a section prints through: ``say(line)``, and ``say.mark(ok)`` next to a target."""

    def __init__(self, out=None):
        self.out = out or sys.stdout

    def __call__(self, line: str = "") -> None:
        print(line, file=self.out, flush=True)

    @staticmethod
    def mark(ok: bool) -> str:
        return "ok" if ok else "MISSED"


def run(sections, options: argparse.Namespace, out=None) -> int:
    """Run the chosen sections (in SECTIONS' order) and print the report; returns 0."""
    say = Say(out)
    if options.threads:
        torch.set_num_threads(options.threads)
    say(f"minigpt bench on {platform.machine()} {platform.system()}, {os.cpu_count()} CPUs, python "
        f"{platform.python_version()}, torch {torch.__version__} ({torch.get_num_threads()} threads), numpy "
        f"{np.__version__}")
    for name, section in SECTIONS.items():
        if name in sections:
            importlib.import_module(section.module).report(say, options)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="minigpt bench", description=__doc__.split("\n\n")[0],
                       epilog="sections:\n" + "\n".join(f"  {name:<12} {s.what}" for name, s in SECTIONS.items()),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("sections", nargs="*", metavar="SECTION",
                   help=f"any of: {', '.join(SECTIONS)} (default: {' '.join(DEFAULT_SECTIONS)})")
    p.add_argument("--full", action="store_true", help="shakespeare: also train the full preset run; learning: also under bfloat16")
    p.add_argument("--poems-checkpoint", default="runs/poems-cpu", help="poems: checkpoint or run folder")
    p.add_argument("--samples", type=_positive_int, default=200, help="poems: samples for the form check")
    p.add_argument("--threads", type=_positive_int, help="torch CPU threads (default: torch's choice)")
    return p


def main(argv: list[str] | None = None) -> int:
    p = build_parser()
    options = p.parse_args(argv)
    unknown = [s for s in options.sections if s not in SECTIONS]
    if unknown:
        p.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    return run(options.sections or DEFAULT_SECTIONS, options)


if __name__ == "__main__":
    raise SystemExit(main())
