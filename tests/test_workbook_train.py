"""minigpt workbook train: the reader's own GPT, from their workbook, trains and samples; an unfinished
workbook or a reader's exception is one message, never a traceback."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from minigpt import cli
from minigpt_course import workbook
from test_workbook import fill

pytestmark = pytest.mark.skipif(not (Path(os.environ.get("MINIGPT_DATA", "/nonexistent")) / "tinyshakespeare").is_dir(),
                                reason="needs the corpora (MINIGPT_DATA)")


def train(capsys, wb: Path, *extra) -> tuple[int, str]:
    code = cli.main(["workbook", "train", str(wb), "--corpus", "shakespeare", "--lang", "en", *extra])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_the_readers_gpt_trains_and_samples(tmp_path, capsys):
    wb = tmp_path / "wb"
    workbook.init(wb, "en")
    fill(wb)
    code, out = train(capsys, wb, "--steps", "20")
    assert code == 0, out
    assert "training your GPT (gpt.py GPT, optim.py AdamW, data.py get_batch, train.py lr_at)" in out
    first, last = map(float, re.search(r"loss (\d+\.\d+) -> (\d+\.\d+)", out).groups())
    assert last < first - 0.5, out  # from about ln 69 = 4.23 towards the bigram's 2.5
    sample = out.split("your GPT writes (ROMEO:):\n")[1]
    assert len(sample.strip()) > 0 and "Traceback" not in out


def test_an_unfinished_workbook_says_what_is_missing(tmp_path, capsys):
    wb = tmp_path / "wb"
    workbook.init(wb, "en")
    code, out = train(capsys, wb, "--steps", "2")
    assert code == 1 and "gpt.py has no GPT yet: lesson 12 (gpt) adds it" in out, out
    assert "Traceback" not in out


def test_a_readers_exception_is_their_file_and_line(tmp_path, capsys):
    wb = tmp_path / "wb"
    workbook.init(wb, "en")
    fill(wb)
    text = (wb / "gpt.py").read_text(encoding="utf-8")
    right = "        x = self.ln_f(x)  # (B, T, C)\n"
    assert right in text
    (wb / "gpt.py").write_text(text.replace(right, right + "        x = x @ x\n"), encoding="utf-8")
    code, out = train(capsys, wb, "--steps", "2")
    assert code == 1 and "your code raised" in out and "ValueError: matmul" in out, out
    assert "Traceback" not in out
