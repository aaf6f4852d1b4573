"""Twin pages (docs/zh/X.md and docs/en/X.md) differ only in prose.

Same ordered includes, same code blocks (python/bash/sh compared without comments; shown outputs and
other fences exactly; mermaid diagrams only by kind, their labels are prose), same heading anchors,
same links and images, same test markers and admonition kinds.
"""

import difflib

import pytest

from pages_source import DOCS, Source, pages, strip_comments

ZH, EN = set(pages("zh")), set(pages("en"))


def test_every_page_exists_in_both_languages():
    problems = [f"docs/zh/{p} has no English twin docs/en/{p}" for p in sorted(ZH - EN)]
    problems += [f"docs/en/{p} has no Chinese twin docs/zh/{p}" for p in sorted(EN - ZH)]
    assert not problems, "\n".join(problems)


def _diff(a, b, what):
    return "\n".join(difflib.unified_diff([str(x) for x in a], [str(x) for x in b], f"zh {what}", f"en {what}", lineterm=""))


def _blocks(src: Source):
    out = []
    for f in src.fences:
        lang = f.info.split()[0] if f.info else ""
        if lang == "mermaid":
            out.append((f.line, "mermaid", None))
        elif lang in ("python", "bash", "sh"):
            out.append((f.line, f.info, strip_comments(f.info, f.body)))
        else:
            out.append((f.line, f.info, f.body.rstrip()))
    return out


@pytest.mark.parametrize("page", sorted(ZH & EN))
def test_twin_pages_differ_only_in_prose(page):
    zh, en = Source.read(DOCS / "zh" / page), Source.read(DOCS / "en" / page)
    problems = []

    for what, a, b in [
        ("includes", zh.includes(), en.includes()),
        ("heading anchors", [h[3] for h in zh.headings()], [h[3] for h in en.headings()]),
        ("heading levels", [(h[1], h[3]) for h in zh.headings()], [(h[1], h[3]) for h in en.headings()]),
        ("links and images", zh.links(), en.links()),
        ("test markers", zh.markers(), en.markers()),
        ("admonition kinds", zh.admonitions(), en.admonitions()),
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
