"""A lesson's figure, drawn once per language: Chinese labels for docs/assets/figures, English for
docs/en/assets/figures.

    for lang, fig in figures.bilingual("loop-lr-schedule.png", size=(4.4, 3.1), font_size=12):
        ax = fig.subplots()
        ax.set_xlabel(LABELS[lang])

The loop body draws on a fresh ``fig``; the helper picks the fonts, lays the figure out, saves it under
``$MINIGPT_DOCS`` (default: the ``docs/`` of the repository the script runs from) and prints
``saved docs/<folder>/<name>``, the line a page shows.
"""

import os
import sys
from collections.abc import Iterator
from pathlib import Path

from matplotlib import font_manager, rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

FOLDERS = {"zh": "assets/figures", "en": "en/assets/figures"}  # under docs/: the page's language
FONTS = {  # Chinese text in Noto Sans CJK (fonts-noto-cjk); English in DejaVu Sans, CJK characters falling back
    "zh": ["Noto Sans CJK SC", "DejaVu Sans"],
    "en": ["DejaVu Sans", "Noto Sans CJK SC"],
}


def docs_dir() -> Path:
    """``$MINIGPT_DOCS``, else ``docs/`` beside the running script's ``snippets/`` (the repository it runs
    from), else ``docs/`` under the working directory."""
    if "MINIGPT_DOCS" in os.environ:
        return Path(os.environ["MINIGPT_DOCS"])
    main = getattr(sys.modules.get("__main__"), "__file__", None)
    if main:
        script = Path(main).resolve()  # snippets/<slug>/NN_what.py
        if script.parent.parent.name == "snippets":
            return script.parent.parent.parent / "docs"
    return Path.cwd() / "docs"


def bilingual(name: str, size: tuple[float, float], *, dpi: int = 150, font_size: float | None = None,
              fonts: dict[str, list[str]] | None = None, rect: tuple | None = None) -> Iterator[tuple[str, Figure]]:
    """Yield ``(lang, fig)`` for "zh", then "en"; after each body, ``fig.tight_layout(rect=rect)`` and save
    ``docs/<folder>/<name>`` without a Software tag (the same bytes on every run)."""
    fonts = fonts or FONTS
    cjk = font_manager.FontProperties(family=["Noto Sans CJK SC"])
    font_manager.findfont(cjk, fallback_to_default=False)  # raises without fonts-noto-cjk
    docs = docs_dir()
    for lang, folder in FOLDERS.items():
        rc = {"font.family": fonts[lang]} | ({"font.size": font_size} if font_size else {})
        with rc_context(rc):
            fig = Figure(figsize=size, dpi=dpi)
            FigureCanvasAgg(fig)
            yield lang, fig
            fig.tight_layout(rect=rect)
            (docs / folder).mkdir(parents=True, exist_ok=True)
            fig.savefig(docs / folder / name, metadata={"Software": None})
        print(f"saved docs/{folder}/{name}")
