"""Run the `minigpt` command line in-process, as the CLI tests do."""

from __future__ import annotations


def run(capsys, *argv) -> tuple[int, str, str]:
    """main(argv) -> (exit code, stdout, stderr); argparse's SystemExit counts as a return."""
    from minigpt.cli import main

    try:
        code = main(list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err
