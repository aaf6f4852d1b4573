"""The labs (docs/<lang>/labs/*.ipynb, tools/labs.py): twins, in the nav, linked from their part's
lessons, rendered with their stored outputs, and reproduced when executed.

Executing a lab runs every cell in a fresh kernel with this checkout's src/ on its path; a cell that
raises fails, a text output that differs from the stored one fails (trailing spaces aside), and every
stored plot must be drawn again (images are counted per cell, not compared byte for byte). The Chinese
twin runs; the English one stores the same texts and plots.
`make labs` stores new outputs.
"""

from __future__ import annotations

import collections
import re
from pathlib import Path

import labs
import pytest
import yaml

from browser.build import built_site

LABS = labs.labs("zh")
# each part's lessons link to its lab: a part is a group of the nav, and the folder most of its pages live in names
# the lab (Part 3's pages are attention/*.md: labs/attention.ipynb). A page read in another group than its folder's
# (tensor/storage.md, appendix lesson 22) links the lab of its group, if that group has one.


def _nav_entries(items):
    for item in items:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(value, list):
            yield from _nav_entries(value)
        elif isinstance(value, str):
            yield value


def _nav_tree() -> list:
    """mkdocs.yml's nav as YAML reads it (the file's !python tags left as None)."""
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    return yaml.load((labs.ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)["nav"]


def _nav():
    return list(_nav_entries(_nav_tree()))


def _parts():
    """{lab: the pages of the nav groups it belongs to}, for the groups whose pages' usual folder names a lab."""
    parts = {}
    for item in _nav_tree():
        value = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(value, list):
            pages = [p for p in _nav_entries(value) if p.endswith(".md")]
            folders = collections.Counter(str(Path(p).parent) for p in pages).most_common(1)
            if folders and f"labs/{folders[0][0]}.ipynb" in LABS:  # Part 4 and the systems track share train's lab
                parts.setdefault(f"labs/{folders[0][0]}.ipynb", []).extend(pages)
    return parts


def test_there_are_labs_in_both_languages():
    assert LABS, "no lab under docs/zh/labs/"
    assert labs.labs("zh") == labs.labs("en")


@pytest.mark.parametrize("lab", LABS)
def test_twin_labs_have_the_same_code_and_every_code_cell_says_what_to_change(lab):
    zh, en = (labs.read(labs.DOCS / lang / lab) for lang in labs.LANGS)
    assert labs.code_cells(zh) == labs.code_cells(en), "the code cells differ between zh and en"
    for lang, nb in (("zh", zh), ("en", en)):
        assert [c.source for c in nb.cells if c.cell_type == "code"][0].startswith(f'LANG = "{lang}"')
        for i, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                assert i and nb.cells[i - 1].cell_type == "markdown", f"{lang}: code cell {i} has no prose above it"
        assert nb.cells[0].source.startswith("# "), f"{lang}: the first cell is the lab's title"
        assert not re.search(r"\{ ?#", "".join(c.source for c in nb.cells if c.cell_type == "markdown")), \
            "attribute lists ({ #anchor }) do not render in notebooks"


@pytest.mark.parametrize("lab", LABS)
def test_labs_are_in_the_nav_and_linked_from_their_part(lab):
    assert lab in _nav(), f"mkdocs.yml's nav does not list {lab}"
    pages = _parts()[lab]
    assert len(pages) >= 3, f"{lab}: its part has only {pages}"
    for lang in labs.LANGS:
        for page in pages:
            text = (labs.DOCS / lang / page).read_text(encoding="utf-8")
            assert f"](../{lab})" in text, f"docs/{lang}/{page} does not link to {lab}, the lab of its part"
        assert f"]({lab})" in (labs.DOCS / lang / "index.md").read_text(encoding="utf-8"), f"docs/{lang}/index.md does not list {lab}"


def _url(lang: str, lab: str) -> str:
    return ("" if lang == "zh" else "en/") + lab[: -len(".ipynb")] + "/"


@pytest.mark.parametrize("lang", labs.LANGS)
@pytest.mark.parametrize("lab", LABS)
def test_lab_pages_render_cells_outputs_and_plots(lab, lang):
    site = built_site()
    html = (site / _url(lang, lab) / "index.html").read_text(encoding="utf-8")
    nb = labs.read(labs.DOCS / lang / lab)
    assert '"cell_type"' not in html, "the page shows the notebook's JSON, not the notebook"
    code = sum(c.cell_type == "code" for c in nb.cells)
    assert html.count("jp-CodeCell") >= code, "not every code cell is on the page"
    assert html.count("jp-MarkdownCell") >= sum(c.cell_type == "markdown" for c in nb.cells)
    assert html.count('src="data:image/png;base64,') == sum(labs.images(nb)), "not every plot is on the page"
    for texts in labs.texts(nb):
        for text in texts:
            first = text.split(": ", 1)[1].split("\n")[0].strip()
            assert first.replace("'", "&#39;") in html or first in html, f"output {first!r} is not on the page"
    assert '<script src="">' not in html.replace("> <", "><")
    assert "No description has been provided" not in html, "plots need alt text in the page's language"
    name = Path(lab).name
    assert f'href="{name}" download' in html, "no download link"
    assert (site / _url(lang, lab) / name).read_bytes() == (labs.DOCS / lang / lab).read_bytes()


@pytest.mark.parametrize("lab", LABS)
def test_a_lab_run_reproduces_its_stored_outputs(lab, lab_runs):
    """One run per lab, in Chinese (its plots draw CJK labels), checks both languages' stored outputs: the
    twins' code is the same but for the LANG line, which only picks the plots' labels, so they print the
    same text and draw as many plots (checked on the stored twins too)."""
    stored = {lang: labs.read(labs.DOCS / lang / lab) for lang in labs.LANGS}
    for lang, nb in stored.items():
        assert all(c.get("outputs") for c in [c for c in nb.cells if c.cell_type == "code"][1:]), \
            f"{lang}: a code cell has no stored output: run `make labs`"
    assert labs.texts(stored["zh"]) == labs.texts(stored["en"]), "the twins' stored texts differ: run `make labs`"
    assert labs.images(stored["zh"]) == labs.images(stored["en"]), "the twins draw different numbers of plots"
    ran = lab_runs.result(labs.DOCS / "zh" / lab)  # started when the suite was collected (conftest.py)
    assert labs.texts_match(ran, stored["zh"]), "a text output differs from the stored one: run `make labs` if intended"
    assert labs.images(ran) == labs.images(stored["zh"]), "plots drawn per cell differ from the stored ones"


def test_a_failing_cell_fails_the_run(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import minigpt\nraise ValueError('boom')")])
    path = tmp_path / "bad.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(Exception, match="boom"):
        labs.execute(path, timeout=60)
