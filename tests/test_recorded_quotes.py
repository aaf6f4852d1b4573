"""A recorded output that pages quote in several places is quoted as it was recorded: each quote is a ```text
fence equal to the record's file. The recorded poem and lesson 12's comparison of the course's poems-cpu checkpoint
with the window model stand on the home page, in README.md and in lesson 12 (#in-the-model), the poem also at the top
of lesson 17, and the samples of a shakespeare-cpu run at the top of lesson 14, in both languages; when a record is
made again, this test names every place to replace."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "benchmarks" / "records"
RECORD = RECORDS / "2026-12-06-poems-cpu"
QUOTED = {  # a record's file, from benchmarks/records/ -> the pages that quote it
    "2026-12-06-poems-cpu/poem.txt": ["README.md", "docs/en/index.md", "docs/zh/index.md",
                                      "docs/en/attention/gpt.md", "docs/zh/attention/gpt.md",
                                      "docs/en/train/poem-rules.md", "docs/zh/train/poem-rules.md"],
    "2026-12-06-poems-cpu/against-window.txt": ["docs/en/attention/gpt.md", "docs/zh/attention/gpt.md"],
    "2026-12-06-shakespeare-samples/samples.txt": ["docs/en/train/loop.md", "docs/zh/train/loop.md"],
}
TEXT_FENCE = re.compile(r"^(?P<indent>[ \t]*)```text\n(?P<body>.*?)^(?P=indent)```", re.M | re.S)


def text_fences(page: str) -> list[str]:
    """The bodies of the page's ```text fences, dedented as the site shows them."""
    out = []
    for m in TEXT_FENCE.finditer(page):
        indent = len(m.group("indent"))
        out.append("\n".join(line[indent:] for line in m.group("body").rstrip("\n").split("\n")))
    return out


@pytest.mark.parametrize("record,page", [(r, p) for r, pages in QUOTED.items() for p in pages])
def test_a_quoted_record_is_quoted_as_recorded(record, page):
    recorded = (RECORDS / record).read_text(encoding="utf-8").rstrip("\n")
    fences = text_fences((ROOT / page).read_text(encoding="utf-8"))
    assert recorded in fences, f"{page} quotes no ```text block equal to {RECORDS.relative_to(ROOT)}/{record}"


def test_a_changed_quote_fails():
    """Control: the same check on a page whose quote lost one character."""
    recorded = (RECORD / "poem.txt").read_text(encoding="utf-8").rstrip("\n")
    page = "Before.\n\n```text\n" + recorded[:-1] + "\n```\n"
    assert recorded not in text_fences(page)
    assert recorded in text_fences("```text\n" + recorded + "\n```\n")
