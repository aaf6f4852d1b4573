"""Twin pages (docs/zh/X.md and docs/en/X.md) differ only in prose.

Same ordered includes, same code blocks (python/bash/sh compared without comments; shown outputs and
other fences exactly, except the output of a script that prints check reports, which each page shows in its own
language; mermaid diagrams only by kind, their labels are prose), same heading anchors,
same links and images, same test markers and admonition kinds (an English page's gloss of a poem aside).
"""

import difflib
import io
import re
import tokenize

import pytest

from course_pages import DOCS, Site, pages, prints_reports, read_page

ZH, EN = set(pages("zh")), set(pages("en"))
GLOSS = "gloss"  # a poem glossed for English readers: a fold on English pages only
SITE = Site()


def strip_comments(lang: str, body: str) -> str:
    """Code without its comments and trailing spaces: comments are prose, and prose may differ."""
    if lang == "python":
        try:
            toks = [t for t in tokenize.generate_tokens(io.StringIO(body + "\n").readline) if t.type != tokenize.COMMENT]
            body = tokenize.untokenize(toks)
        except (tokenize.TokenError, IndentationError, SyntaxError):
            body = "\n".join(re.sub(r"(^|\s)#.*$", "", ln) for ln in body.split("\n"))
    else:
        body = "\n".join(re.sub(r"(^|\s)#(?!!).*$", "", ln) for ln in body.split("\n"))
    return "\n".join(ln.rstrip() for ln in body.split("\n") if ln.strip())


def test_every_page_exists_in_both_languages():
    problems = [f"docs/zh/{p} has no English twin docs/en/{p}" for p in sorted(ZH - EN)]
    problems += [f"docs/en/{p} has no Chinese twin docs/zh/{p}" for p in sorted(EN - ZH)]
    assert not problems, "\n".join(problems)


def _diff(a, b, what):
    return "\n".join(difflib.unified_diff([str(x) for x in a], [str(x) for x in b], f"zh {what}", f"en {what}", lineterm=""))


def _blocks(page):
    out = []
    for b in page.blocks:
        if b.lang == "mermaid":  # a diagram's labels are prose
            out.append((b.line, "mermaid", None))
        elif b.lang in ("python", "bash", "sh"):
            out.append((b.line, b.lang, strip_comments(b.lang, b.code)))
        else:
            out.append((b.line, b.lang, b.code.rstrip()))
        if b.expected is not None:  # a check report is shown in each page's language: the runner checks both
            out.append((b.line, "output", None if prints_reports(b.run_key) else b.expected.rstrip()))
    return out


@pytest.mark.parametrize("page", sorted(ZH & EN))
def test_twin_pages_differ_only_in_prose(page):
    zh, en = read_page(DOCS / "zh" / page, SITE), read_page(DOCS / "en" / page, SITE)
    problems = []

    for what, a, b in [
        ("includes", zh.includes(), en.includes()),
        ("heading anchors", [h[3] for h in zh.headings()], [h[3] for h in en.headings()]),
        ("heading levels", [(h[1], h[3]) for h in zh.headings()], [(h[1], h[3]) for h in en.headings()]),
        ("links and images", zh.links(), en.links()),
        ("test markers", zh.markers(), en.markers()),
        ("admonition kinds", zh.admonitions(), [k for k in en.admonitions() if k != GLOSS]),
    ]:
        if a != b:
            problems.append(f"{what} differ:\n{_diff(a, b, what)}")

    zb, eb = _blocks(zh), _blocks(en)
    if len(zb) != len(eb):
        problems.append(
            f"{len(zb)} code blocks in zh, {len(eb)} in en:\n"
            + _diff([f"```{b[1]}" for b in zb], [f"```{b[1]}" for b in eb], "fences")
        )
    for (zl, zi, zc), (el, ei, ec) in zip(zb, eb):
        if zi != ei:
            problems.append(f"block at zh line {zl} is ```{zi} but its twin at en line {el} is ```{ei}")
        elif zc != ec:
            problems.append(
                f"block at zh line {zl} and its twin at en line {el} differ (comments aside):\n"
                + _diff(zc.split("\n"), ec.split("\n"), "code")
            )
    assert not problems, f"docs/zh/{page} vs docs/en/{page}:\n" + "\n\n".join(problems)
