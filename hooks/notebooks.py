"""The labs (docs/<lang>/labs/*.ipynb) render as notebooks, with their stored outputs.

An mkdocs hook (mkdocs.yml, `hooks:`). mkdocs-jupyter turns a notebook into a documentation page in
its `on_files` (its NotebookFile); the i18n plugin rebuilds the file list after it, the notebook
becomes a static file again, and its page is the raw JSON while `--strict` passes. Here, after the
i18n plugin, the notebooks are wrapped again, at the address the i18n plugin gave them (the default
language's at the site root); mkdocs-jupyter then renders them with its own settings (mkdocs.yml:
`execute: false`, `allow_errors: false`, `include_source: true` copies the .ipynb beside the page).
Each lab page gets a download link to that copy, plots get alt text in the page's language, and
nbconvert's MathJax tag without a URL goes.
tests/test_labs.py checks the built pages.
"""

from __future__ import annotations

import html
import os
import re

from mkdocs.plugins import event_priority

EMPTY_SCRIPT = re.compile(r'<script src="">\s*</script>')
DOWNLOAD = {"zh": "下载这个笔记本", "en": "Download this notebook"}
# nbconvert gives every plot this English alt text; the page's language says what it is instead
NO_ALT = 'alt="No description has been provided for this image"'
COPY = {"zh": 'aria-label="复制代码"', "en": 'aria-label="Copy the code"'}
PLOT_ALT = {"zh": 'alt="上面的代码单元画出的图"', "en": 'alt="The plot the code cell above draws"'}


def _is_notebook(page) -> bool:
    return page.file.src_uri.endswith(".ipynb")


@event_priority(-200)  # after the i18n plugin's on_files (-100), which rebuilt the file list
def on_files(files, config):
    from mkdocs_jupyter.plugin import NotebookFile

    # in place: the i18n plugin's own Files class resolves links to assets across languages
    for f in list(files):
        if f.src_uri.endswith(".ipynb") and not isinstance(f, NotebookFile):
            nb = NotebookFile(f, use_directory_urls=config.use_directory_urls, site_dir=config.site_dir)
            lang_dir = f.src_uri.split("/", 1)[0] + "/"
            if not f.dest_uri.startswith(lang_dir) and nb.dest_path.startswith(lang_dir):
                # the default language lives at the site root: zh/labs/x.ipynb -> labs/x/
                nb.dest_path = nb.dest_path[len(lang_dir):]
                nb.abs_dest_path = os.path.normpath(os.path.join(config.site_dir, nb.dest_path))
                nb.url = nb.url[len(lang_dir):]
            files.remove(f)
            files.append(nb)
    return files


@event_priority(-100)
def on_page_content(content, page, config, files):
    if not _is_notebook(page):
        return content
    if "jp-Notebook" not in content:
        raise ValueError(f"{page.file.src_uri}: mkdocs-jupyter did not render the notebook")
    # search ranks a lab below the lessons: a lab's title names its part's topic ("attention"), and a reader who
    # searches a word wants the lesson that teaches it first (Material reads the boost from page.meta)
    page.meta.setdefault("search", {})["boost"] = 0.1
    name = os.path.basename(page.file.src_uri)
    lang = page.file.src_uri.split("/", 1)[0]
    link = (f'<p class="lab-download"><a href="{html.escape(name)}" download>'
            f'{DOWNLOAD.get(lang, DOWNLOAD["en"])}: {html.escape(name)}</a></p>\n')
    content = content.replace(NO_ALT, PLOT_ALT.get(lang, PLOT_ALT["en"]))
    content = content.replace('aria-label="Copy to Clipboard"', COPY.get(lang, COPY["en"]))
    return link + EMPTY_SCRIPT.sub("", content)


SWITCHER = re.compile(r'<a href="([^"]*)" hreflang="(\w+)" class="md-select__link">')


def on_post_page(output, page, config):
    """The language switcher of a lab page leads to its twin (the i18n plugin, which does not know
    the notebook as a page, points it at the other language's home)."""
    if not _is_notebook(page):
        return output
    parts = page.file.src_uri.split("/")  # zh/labs/tensor.ipynb
    path = "/".join(parts[1:])[: -len(".ipynb")] + "/"  # labs/tensor/
    up = "../" * page.url.rstrip("/").count("/") + "../"  # from the page to the site root
    i18n = config.plugins.get("i18n")
    default = next((lang.locale for lang in i18n.config.languages if lang.default), "zh") if i18n else "zh"

    def twin(m):
        lang = m.group(2)
        target = up + ("" if lang == default else lang + "/") + path
        return f'<a href="{target}" hreflang="{lang}" class="md-select__link">'

    return SWITCHER.sub(twin, output)
