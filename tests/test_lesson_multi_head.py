"""Extra checks for the multi-head attention lesson (docs/*/attention/multi-head.md).

The page harness (conftest.py) already runs every block of both pages and compares outputs.
Here: the two language versions are twins (same anchors, code, outputs, links, includes), every
snippet is used by the pages, and each snippet also runs as a script from the repository root.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = {lang: ROOT / "docs" / lang / "attention" / "multi-head.md" for lang in ("zh", "en")}
SNIPPETS = sorted((ROOT / "snippets" / "multi-head").glob("*.py"))

FENCE = re.compile(r"^[ \t]*```(\w*)\n(.*?)^[ \t]*```$", re.M | re.S)
TEXT_FENCE = re.compile(r"^([ \t]*)```text\n(.*?)^[ \t]*```$", re.M | re.S)
ANCHOR = re.compile(r"^#+ .*\{ #([\w-]+) \}$", re.M)
LINK = re.compile(r"\]\(([^)]+)\)")
INCLUDE = re.compile(r'--8<-- "([^"]+)"')


def _text(lang: str) -> str:
    return PAGES[lang].read_text(encoding="utf-8")


def _shown_outputs(lang: str) -> list[str]:
    """The ```text blocks of a page, with the indentation of their fence removed."""
    out = []
    for indent, body in TEXT_FENCE.findall(_text(lang)):
        out.append("".join(line[len(indent):] if line.startswith(indent) else line
                           for line in body.splitlines(True)))
    return out


def _parts(lang: str) -> dict[str, list]:
    text = _text(lang)
    return {
        "anchors": ANCHOR.findall(text),
        "fences": [(lang_, "\n".join(line.strip() for line in body.splitlines()))
                   for lang_, body in FENCE.findall(text) if lang_ != "mermaid"],
        "links": LINK.findall(text),
        "includes": INCLUDE.findall(text),
        "markers": re.findall(r"<!--pytest-codeblocks:[\w-]+-->", text),
    }


@pytest.mark.parametrize("part", ["anchors", "fences", "links", "includes", "markers"])
def test_pages_are_twins(part):
    zh, en = _parts("zh")[part], _parts("en")[part]
    assert zh == en, f"{part} differ between zh and en:\n zh: {zh}\n en: {en}"


def test_every_heading_has_an_anchor():
    for lang in PAGES:
        for line in _text(lang).splitlines():
            if re.match(r"^#{1,6} ", line):
                assert ANCHOR.match(line), f"{lang}: heading without an explicit anchor: {line}"


def test_every_snippet_is_on_the_page_once():
    used = _parts("zh")["includes"]
    files = [f"snippets/multi-head/{p.name}" for p in SNIPPETS]
    assert sorted(set(used)) == files, f"unused or missing snippets: {set(files) ^ set(used)}"
    assert len(SNIPPETS) >= 10


@pytest.mark.parametrize("snippet", SNIPPETS, ids=lambda p: p.name)
def test_snippet_runs_as_a_script(snippet):
    proc = subprocess.run([sys.executable, str(snippet.relative_to(ROOT))], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip(), "a snippet prints what the page shows"
    # what the script prints is shown on the page (the harness checks it line for line)
    for lang in PAGES:
        assert proc.stdout in _shown_outputs(lang), f"{snippet.name}: its output is not shown on the {lang} page"
