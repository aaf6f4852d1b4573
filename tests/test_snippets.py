"""Every file in snippets/ is shown on a page and runs on its own, as the setup page promises.

Twin pages, anchors and shown outputs are checked for every page by test_parity.py, test_pages.py
and the page harness; this adds what only a snippet file can show: that it is used, and that
``python snippets/<lesson>/NN_what.py`` from the repository root prints exactly what the page shows.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from pages_source import DOCS, Source, pages

ROOT = Path(__file__).resolve().parents[1]
SNIPPETS = sorted((ROOT / "snippets").glob("*/*.py"))


def _pages_including(rel: str) -> list[Source]:
    found = []
    for lang in ("zh", "en"):
        for page in pages(lang):
            src = Source.read(DOCS / lang / page)
            if any(inc.split(":")[0] == rel for inc in src.includes()):
                found.append(src)
    return found


def test_snippets_exist():
    assert SNIPPETS, "no snippets found"


@pytest.mark.parametrize("snippet", SNIPPETS, ids=lambda p: str(p.relative_to(ROOT)))
def test_snippet_is_shown_and_runs_as_a_script(snippet):
    rel = str(snippet.relative_to(ROOT))
    shown_on = _pages_including(rel)
    assert shown_on, f"{rel} is not included by any page"
    proc = subprocess.run([sys.executable, rel], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"python {rel} failed:\n{proc.stderr}"
    assert proc.stdout.strip(), f"{rel} prints nothing; a snippet prints what its page shows"
    for src in shown_on:
        outputs = [f.body + "\n" for f in src.fences if f.info == "text"]
        assert proc.stdout in outputs, f"what python {rel} prints is not shown on {src.rel}"
