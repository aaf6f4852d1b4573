"""Every code block that comes from a file names that file, and says whether it runs.

An mkdocs hook (mkdocs.yml, `hooks:`). Pages write an included block as a plain fence whose body is
only an include line (`--8<-- "snippets/storage/02_strided.py"`); the page tests reject hand-written
titles, so the title is added here, at build time, for every page at once:

- a script (`snippets/<slug>/NN_what.py`, whole file) gets the command that runs it from the
  repository root as its title, `python snippets/storage/02_strided.py`, and the class `runnable`;
- a named section (`src/minigpt/tensor.py:view`, `snippets/autograd/tensor.py:backward`) gets
  `src/minigpt/tensor.py · view — shown, not run` (仅展示，不运行 on Chinese pages) and the class
  `shown-only`, which extra.css draws differently.

The title is a `<span class="filename">` outside the `<code>` the copy button copies.
tests/test_site.py checks the built pages.
"""

from __future__ import annotations

import re

FENCE = re.compile(
    r'^(?P<indent>[ \t]*)```python[ \t]*\n'
    r'(?P<body>(?:(?P=indent)--8<-- "[^"\n]+"[ \t]*\n)+)'
    r'(?P=indent)```[ \t]*$', re.M)
INCLUDE = re.compile(r'--8<-- "([^"\n]+)"')
SCRIPT = re.compile(r"^snippets/[^/]+/\d\d_[^/:]+\.py$")
SHOWN = {"zh": "仅展示，不运行", "en": "shown, not run"}


def language(page) -> str:
    return "en" if page.file.src_uri.startswith("en/") else "zh"


def title_of(paths: list[str], lang: str) -> tuple[str, str]:
    """(title, class) of a block that includes ``paths``."""
    if all(SCRIPT.match(p) for p in paths):
        return " · ".join(f"python {p}" for p in paths), "runnable"
    names = [p.replace(":", " · ", 1) for p in paths]
    return f"{', '.join(names)} — {SHOWN[lang]}", "shown-only"


def on_page_markdown(markdown: str, page, config, files) -> str:
    lang = language(page)

    def titled(m: re.Match) -> str:
        paths = INCLUDE.findall(m.group("body"))
        title, cls = title_of(paths, lang)
        indent = m.group("indent")
        return f'{indent}``` {{ .python .{cls} title="{title}" }}\n{m.group("body")}{indent}```'

    return FENCE.sub(titled, markdown)
