"""The site builds with `mkdocs build --strict`, and the built pages are what a reader should get.

One strict build per session (`make build` into a temporary folder, tools/browser/build.py) is shared
by every check here and by the browser tests (tests/test_browser.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from browser.build import built_site
from course_pages import DOCS, LANGS, ROOT, Site, pages, read_page

# Tags that make the browser fetch something when the page loads.
LOADS = re.compile(
    r"""<(script|link|img|iframe|source|audio|video|embed|object)\b[^>]*?\b(src|href|data)\s*=\s*["']([^"']*)["']""",
    re.I,
)
EXTERNAL = re.compile(r"^(https?:)?//", re.I)
ZH_WORDS = ("训练", "注意力", "掩码")
EN_WORDS = ("attention", "tensor", "gradient")


def build(config_dir: Path, site_dir: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config_dir / "mkdocs.yml"),
         "--site-dir", str(site_dir)],
        cwd=config_dir, env=env, capture_output=True, text=True, timeout=600,
    )


@pytest.fixture(scope="session")
def site() -> Path:
    return built_site()


def page_url(lang: str, page: str) -> str:
    """Where a docs/<lang>/<page> ends up in the site (use_directory_urls)."""
    stem = page[: -len(".md")]
    path = "" if stem == "index" else (stem[: -len("/index")] if stem.endswith("/index") else stem) + "/"
    return ("" if lang == "zh" else "en/") + path


def html_of(site: Path, lang: str, page: str) -> str:
    return (site / page_url(lang, page) / "index.html").read_text(encoding="utf-8")


def all_html(site: Path):
    return sorted(site.rglob("*.html"))


def test_every_page_is_built_in_both_languages(site):
    missing = [
        f"docs/{lang}/{page} -> {page_url(lang, page)}index.html"
        for lang in LANGS for page in pages(lang)
        if not (site / page_url(lang, page) / "index.html").exists()
    ]
    assert not missing, "not in the built site:\n" + "\n".join(missing)


def test_no_page_loads_anything_from_another_host(site):
    problems = []
    for path in all_html(site):
        html = path.read_text(encoding="utf-8")
        for m in LOADS.finditer(html):
            tag, url = m.group(1).lower(), m.group(3)
            rel = re.search(r"""\brel\s*=\s*["']([^"']*)["']""", m.group(0))
            if tag == "link" and rel and rel.group(1) in ("alternate", "canonical", "prev", "next"):
                continue  # navigation hints, not loaded
            if EXTERNAL.match(url):
                problems.append(f"{path.relative_to(site)}: <{tag}> loads {url}")
        if 'class="md-source"' in html:
            problems.append(f"{path.relative_to(site)}: repo_url makes Material fetch facts from the forge's API")
        if "fonts.googleapis.com" in html or "fonts.gstatic.com" in html:
            problems.append(f"{path.relative_to(site)}: Google Fonts (set theme.font: false)")
    for css in site.rglob("*.css"):
        for url in re.findall(r"""(?:url\(|@import\s+)["']?((?:https?:)?//[^"')\s]+)""", css.read_text(errors="replace")):
            problems.append(f"{css.relative_to(site)}: fetches {url}")
    assert not problems, "\n".join(problems[:50])


def test_scripts_and_styles_a_page_loads_are_in_the_site(site):
    problems = []
    for lang in LANGS:
        for page in pages(lang):
            base = site / page_url(lang, page)
            for m in LOADS.finditer(html_of(site, lang, page)):
                url = m.group(3).split("#")[0].split("?")[0]
                if m.group(1).lower() in ("script", "link", "img") and url and not EXTERNAL.match(url):
                    if url.endswith("/") or url.startswith(("data:", "mailto:")):
                        continue
                    if not (base / url).resolve().exists():
                        problems.append(f"{page_url(lang, page)}: {url} is missing")
    assert not problems, "\n".join(problems)


def test_mermaid_and_mathjax_come_from_the_site_itself(site):
    # Material's bundle fetches mermaid from unpkg unless a global `mermaid` already exists, so the
    # vendored build must be a plain (not async, not module) script on every page with a diagram;
    # pages without a diagram or a formula do not load those scripts (overrides/main.html).
    bundle = next((site / "assets/javascripts").glob("bundle.*.min.js")).read_text(encoding="utf-8")
    assert 'typeof mermaid=="undefined"' in bundle, "Material's mermaid loader changed: re-check the CDN fallback"
    for lang in LANGS:
        for page in pages(lang):
            html = html_of(site, lang, page)
            tags = {m.group(3).rsplit("/", 1)[-1]: m.group(0) for m in LOADS.finditer(html) if m.group(1) == "script"}
            diagram, formula = 'class="mermaid"' in html, 'class="arithmatex"' in html
            assert ("mermaid.min.js" in tags) == diagram, f"{page_url(lang, page)}: mermaid loaded: {not diagram}"
            if diagram:
                assert not re.search(r"\b(async|defer|type=.module.)", tags["mermaid.min.js"]), tags["mermaid.min.js"]
            assert ("startup.js" in tags) == formula, f"{page_url(lang, page)}: MathJax loaded: {not formula}"
            if formula:
                order = [m.group(3).rsplit("/", 1)[-1] for m in LOADS.finditer(html) if m.group(1) == "script"]
                assert order.index("mathjax.js") < order.index("startup.js"), "MathJax config must come first"
    vendor = site / "assets/vendor"
    assert (vendor / "mathjax/output/chtml/fonts/woff-v2/MathJax_Main-Regular.woff").exists()
    for piece in ("core", "input/tex", "output/chtml", "output/chtml/fonts/tex", "a11y/assistive-mml"):
        assert (vendor / f"mathjax/{piece}.js").exists(), f"MathJax's {piece} component is not vendored"
    mermaid = (vendor / "mermaid/mermaid.min.js").read_text(encoding="utf-8", errors="replace")
    assert "import(" not in mermaid[:2000] and len(mermaid) > 1_000_000, "expected mermaid's self-contained build"


def test_mermaid_and_math_render_as_elements_the_scripts_pick_up(site):
    html = html_of(site, "zh", "index.md")
    assert '<pre class="mermaid"><code>flowchart LR' in html
    assert '<div class="arithmatex">\\[' in html


def test_language_switcher_links_each_page_to_its_twin(site):
    problems = []
    for lang in LANGS:
        other = "en" if lang == "zh" else "zh"
        for page in pages(lang):
            html = html_of(site, lang, page)
            m = re.search(rf'<a href="([^"]+)" hreflang="{other}" class="md-select__link">', html)
            if not m:
                problems.append(f"{page_url(lang, page)}: no link to the {other} version")
                continue
            href = m.group(1)
            here = site / page_url(lang, page)
            target = (site / href.lstrip("/") if href.startswith("/") else here / href).resolve()
            if target != (site / page_url(other, page)).resolve():
                problems.append(f"{page_url(lang, page)}: switcher goes to {href}, not its twin")
    assert not problems, "\n".join(problems)


def test_nav_titles_are_translated(site):
    zh = html_of(site, "zh", "setup.md")
    en = html_of(site, "en", "setup.md")
    assert "术语表" in zh and "Glossary" not in re.sub(r"<[^>]+>", " ", zh.split('class="md-nav')[1])[:2000]
    assert re.search(r'md-nav__link[^>]*>\s*(<[^>]+>\s*)*Glossary', en), "en nav lacks 'Glossary'"
    assert re.search(r'md-nav__link[^>]*>\s*(<[^>]+>\s*)*Setup', en), "en nav lacks 'Setup'"
    assert '<html lang="en"' in en and '<html lang="zh"' in zh


def test_headings_keep_their_english_anchors(site):
    problems = []
    for lang in LANGS:
        for page in pages(lang):
            html = html_of(site, lang, page)
            for line, _level, text, anchor in read_page(DOCS / lang / page, site_config()).headings():
                if anchor and f'id="{anchor}"' not in html:
                    problems.append(f"docs/{lang}/{page}:{line}: #{anchor} is not in the HTML")
            bad = re.findall(r'<h[1-6] id="(_[0-9]*)"', html)
            if bad:
                problems.append(f"docs/{lang}/{page}: headings with generated ids {bad}")
    assert not problems, "\n".join(problems)


def test_includes_and_test_markers_leave_no_trace_on_the_page(site):
    problems = []
    for path in all_html(site):
        html = path.read_text(encoding="utf-8")
        text = re.sub(r"<!--.*?-->", "", html, flags=re.S)
        if "--8&lt;--" in text or "--8<--" in text:
            problems.append(f"{path.relative_to(site)}: an include was not expanded")
        if re.search(r"pytest-codeblocks:|pytest\.mark\.", text):
            problems.append(f"{path.relative_to(site)}: a test marker is visible")
    index = (site / "search/search_index.json").read_text(encoding="utf-8")
    if re.search(r"pytest-codeblocks:|pytest\.mark\.", index):
        problems.append("search index holds test markers")
    assert not problems, "\n".join(problems)


def _search_tokens(site: Path, chinese: bool) -> set[str]:
    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    sep = re.compile(index["config"]["separator"])
    tokens = set()
    for doc in index["docs"]:
        if doc["location"].startswith("en/") == chinese:
            continue
        text = re.sub(r"<[^>]+>", " ", doc["title"] + " " + doc["text"])
        tokens.update(t.lower() for t in sep.split(text) if t)
    return tokens


def test_search_finds_chinese_words_in_the_middle_of_a_sentence(site):
    # jieba splits Chinese at build time with U+200B; the separator must split there too.
    tokens = _search_tokens(site, chinese=True)
    missing = [w for w in ZH_WORDS if w not in tokens]
    assert not missing, f"the search index has no token {missing} for Chinese pages (jieba installed? separator?)"
    # and these words really sit mid-sentence on some Chinese page, not only as whole headings
    text = "\n".join((DOCS / "zh" / p).read_text(encoding="utf-8") for p in pages("zh"))
    for w in ZH_WORDS:
        assert re.search(rf"[\u4e00-\u9fff]{w}[\u4e00-\u9fff]", text), f"{w} never appears mid-sentence"


def test_search_finds_english_words_on_english_pages(site):
    tokens = _search_tokens(site, chinese=False)
    missing = [w for w in EN_WORDS if w not in tokens]
    assert not missing, f"the search index has no token {missing} for English pages"


def test_a_missing_snippet_or_section_fails_the_strict_build(tmp_path):
    # A copy of the real configuration on a one-page site: check_paths must turn a missing include
    # into a failed build, not an empty code block.
    (tmp_path / "snippets").mkdir()
    (tmp_path / "src").mkdir()  # watched by mkdocs.yml
    (tmp_path / "snippets/there.py").write_text("# --8<-- [start:a]\nprint(1)\n# --8<-- [end:a]\n")
    for folder in ("hooks", "overrides"):  # named by mkdocs.yml
        shutil.copytree(ROOT / folder, tmp_path / folder)
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = re.sub(r"\nnav:\n(  .*\n)+", "\n", config)
    config = re.sub(r"\nextra_(javascript|css):\n(  .*\n)+", "\n", config)
    (tmp_path / "mkdocs.yml").write_text(config, encoding="utf-8")
    results = {}
    for case, include in [("ok", "snippets/there.py:a"), ("file", "snippets/gone.py"), ("section", "snippets/there.py:b")]:
        shutil.rmtree(tmp_path / "docs", ignore_errors=True)
        for lang in LANGS:
            (tmp_path / "docs" / lang).mkdir(parents=True)
            (tmp_path / "docs" / lang / "index.md").write_text(
                f'# T {{ #t }}\n\n```python\n--8<-- "{include}"\n```\n', encoding="utf-8"
            )
        results[case] = build(tmp_path, tmp_path / f"site-{case}")
    assert results["ok"].returncode == 0, results["ok"].stderr[-3000:]
    assert "print" in (tmp_path / "site-ok/index.html").read_text(encoding="utf-8")
    for case in ("file", "section"):
        assert results[case].returncode != 0, f"a missing {case} did not fail the build"
        assert "gone.py" in results[case].stderr or "'b'" in results[case].stderr, results[case].stderr[-2000:]


def _code_titles():
    sys.path.insert(0, str(ROOT / "hooks"))
    try:
        import code_titles
    finally:
        sys.path.remove(str(ROOT / "hooks"))
    return code_titles


TITLED = re.compile(r'<div class="language-python (runnable|shown-only) highlight"><span class="filename">([^<]*)</span>'
                    r'<pre>(?:(?!</pre>).)*</pre>', re.S)


def test_every_included_block_names_its_file_and_says_whether_it_runs(site):
    """hooks/code_titles.py: a script's block is titled with the command that runs it from the repository
    root and has the class `runnable`; a section's block names file · section, says it is shown and not
    run in the page's language, and has the class `shown-only`; the title stays outside the copied code."""
    import html as html_lib

    hook = _code_titles()
    problems, seen = [], 0
    for lang in LANGS:
        for page in pages(lang):
            text = (DOCS / lang / page).read_text(encoding="utf-8")
            fences = [hook.INCLUDE.findall(m.group("body")) for m in hook.FENCE.finditer(text)]
            fenced_includes = sum(map(len, fences))
            all_includes = len(re.findall(r'^\s*--8<-- "', text, re.M))
            if fenced_includes != all_includes:
                problems.append(f"{lang}/{page}: {all_includes - fenced_includes} include(s) not in a ```python "
                                "fence of include lines only, so not titled")
            expected = []
            for paths in fences:
                if all(hook.SCRIPT.match(p) for p in paths):
                    expected.append(("runnable", " · ".join(f"python {p}" for p in paths)))
                    problems += [f"{lang}/{page}: {p} is not a file" for p in paths if not (ROOT / p).is_file()]
                else:
                    shown = {"zh": "仅展示，不运行", "en": "shown, not run"}[lang]
                    expected.append(("shown-only", ", ".join(p.replace(":", " · ") for p in paths) + f" — {shown}"))
            built = html_of(site, lang, page)
            got = [(cls, html_lib.unescape(title)) for cls, title in TITLED.findall(built)]
            if got != expected:
                problems.append(f"{lang}/{page}: titles {got} != expected {expected}")
            if len(re.findall(r'class="filename"', built)) != len(got):
                problems.append(f"{lang}/{page}: a title sits somewhere else than before its block's <pre>")
            for block in TITLED.finditer(built):
                code = block.group(0).split("<pre>", 1)[1]
                if any(s in code for s in ("filename", "shown, not run", "仅展示", "python snippets/")):
                    problems.append(f"{lang}/{page}: a title leaked into the code of a block")
            seen += len(got)
    assert not problems, "\n".join(problems[:30])
    assert seen > 400  # every lesson's blocks, both languages


def test_the_title_hook_titles_include_fences_only():
    """Titles come from the hook at build time, on include fences only (the page tests reject hand-written
    ```python title=... fences in a page's Markdown); indented fences in folded blocks get theirs too."""
    import textwrap
    hook = _code_titles()
    one = hook.on_page_markdown(textwrap.dedent('''\
        ```python
        --8<-- "snippets/storage/02_strided.py"
        ```

        ```python
        print(1)
        ```

        ??? note "x"
            ```python
            --8<-- "src/minigpt/tensor.py:view"
            ```
        '''), type("P", (), {"file": type("F", (), {"src_uri": "zh/tensor/storage.md"})()})(), None, None)
    assert '``` { .python .runnable title="python snippets/storage/02_strided.py" }' in one
    assert "```python\nprint(1)" in one  # hand-written code is left alone
    assert '    ``` { .python .shown-only title="src/minigpt/tensor.py · view — 仅展示，不运行" }' in one


def site_config() -> Site:
    return Site(ROOT)


def test_the_page_tests_expand_includes_with_the_same_configuration():
    site = site_config()
    assert site.snippet_config.get("check_paths") is True
    assert [os.path.abspath(b) for b in site.snippet_config["base_path"]] == [str(ROOT)]
    lines = site.expand('```python\n--8<-- "snippets/setup/01_check_install.py"\n```')
    assert "import minigpt" in lines
    with pytest.raises(Exception, match="could not be found"):
        site.expand('--8<-- "snippets/setup/no_such_file.py"')
