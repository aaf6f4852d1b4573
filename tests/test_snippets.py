"""Every file in snippets/ is on a page: each script is run by a page (conftest.py runs it, once), each
lesson module is shown on a page or imported by its lesson's scripts. Nothing lies around unused."""

import re
from pathlib import Path

from course_pages import DOCS, LANGS, Site, pages, read_page

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "snippets").glob("*/[0-9][0-9]_*.py"))
MODULES = sorted(p for p in (ROOT / "snippets").glob("*/*.py") if not re.match(r"\d\d_", p.name))


def _run_and_shown() -> tuple[set[str], set[str]]:
    site, run, shown = Site(ROOT), set(), set()
    for lang in LANGS:
        for page in pages(lang):
            for b in read_page(DOCS / lang / page, site).blocks:
                if b.run_key and b.run_key[0] == "script":
                    run.add(b.run_key[1])
                shown.update(inc.split(":")[0] for inc in b.includes)
    return run, shown


def test_every_script_is_run_by_a_page():
    run, _ = _run_and_shown()
    unused = [str(p.relative_to(ROOT)) for p in SCRIPTS if str(p.relative_to(ROOT)) not in run]
    assert SCRIPTS and not unused, f"no page runs these scripts: {unused}"


def test_every_lesson_module_is_shown_or_imported():
    _, shown = _run_and_shown()
    unused = []
    for module in MODULES:
        rel = str(module.relative_to(ROOT))
        imported = any(re.search(rf"^\s*(from|import) {module.stem}\b", s.read_text(encoding="utf-8"), re.M)
                       for s in module.parent.glob("[0-9][0-9]_*.py"))
        if rel not in shown and not imported:
            unused.append(rel)
    assert not unused, f"lesson modules neither shown on a page nor imported by their lesson's scripts: {unused}"
