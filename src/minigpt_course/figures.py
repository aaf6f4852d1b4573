"""A lesson's figure, drawn once per language: Chinese labels for docs/assets/figures, English for
docs/en/assets/figures.

    for lang, fig in figures.bilingual("loop-lr-schedule.png", size=(4.4, 3.1), font_size=12):
        ax = fig.subplots()
        ax.set_xlabel(LABELS[lang])

The loop body draws on a fresh ``fig``; the helper picks the fonts, lays the figure out, saves it under
``docs_dir()`` (``docs/`` when a lesson's script runs in the repository) and prints
``saved docs/<folder>/<name>``, the line a page shows (a copy of a script draws into a temporary folder and says so).
"""

import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from matplotlib import font_manager, rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

FOLDERS = {"zh": "assets/figures", "en": "en/assets/figures"}  # under docs/: the page's language
FONTS = {  # Chinese text in Noto Sans CJK (fonts-noto-cjk); English in DejaVu Sans, CJK characters falling back
    "zh": ["Noto Sans CJK SC", "DejaVu Sans"],
    "en": ["DejaVu Sans", "Noto Sans CJK SC"],
}


def docs_dir() -> Path:
    """Where figures go: ``$MINIGPT_DOCS`` (``make figures`` and the page tests set it), else ``docs/`` of the
    repository when a lesson's own script runs (``snippets/<slug>/NN_what.py``), else a folder in the system's
    temporary directory: a reader's copy of a script (``my_peek.py``) never overwrites the pages' figures."""
    if "MINIGPT_DOCS" in os.environ:
        return Path(os.environ["MINIGPT_DOCS"])
    main = getattr(sys.modules.get("__main__"), "__file__", None)
    if main:
        script = Path(main).resolve()  # snippets/<slug>/NN_what.py
        if script.parent.parent.name == "snippets" and re.match(r"\d\d_", script.name):
            return script.parent.parent.parent / "docs"
    return Path(tempfile.gettempdir()) / "minigpt-figures"


def _shown(docs: Path) -> str:
    """The folder a ``saved`` line names: ``docs`` for the pages' figures (the line a page shows), else the
    temporary folder a reader's copy of a script draws into."""
    return "docs" if docs.name == "docs" or "MINIGPT_DOCS" in os.environ else str(docs)


def bilingual(name: str, size: tuple[float, float], *, dpi: int = 150, font_size: float | None = None,
              fonts: dict[str, list[str]] | None = None, rect: tuple | None = None,
              quiet: bool = False) -> Iterator[tuple[str, Figure]]:
    """Yield ``(lang, fig)`` for "zh", then "en"; after each body, ``fig.tight_layout(rect=rect)`` and save
    ``docs/<folder>/<name>`` without a Software tag (the same bytes on every run); ``quiet``: print nothing."""
    fonts = fonts or FONTS
    cjk = font_manager.FontProperties(family=["Noto Sans CJK SC"])
    font_manager.findfont(cjk, fallback_to_default=False)  # raises without fonts-noto-cjk
    docs = docs_dir()
    shown = _shown(docs)
    for lang, folder in FOLDERS.items():
        rc = {"font.family": fonts[lang]} | ({"font.size": font_size} if font_size else {})
        with rc_context(rc):
            fig = Figure(figsize=size, dpi=dpi)
            FigureCanvasAgg(fig)
            yield lang, fig
            fig.tight_layout(rect=rect)
            (docs / folder).mkdir(parents=True, exist_ok=True)
            fig.savefig(docs / folder / name, metadata={"Software": None})
        if not quiet:
            print(f"saved {shown}/{folder}/{name}")


# Step-by-step figures (hello-algo's tabs): one PNG per step of an operation, drawn with boxes of numbers.
PALETTE = ["#a6cee3", "#fdbf6f", "#b2df8a", "#fb9a99", "#cab2d6", "#ffff99", "#d9d9d9"]  # per head / position
CODE_FONT = "DejaVu Sans Mono"


def steps(name: str, count: int, size: tuple[float, float], **kwargs) -> Iterator[tuple[int, str, Figure]]:
    """Yield ``(step, lang, fig)`` for steps 1..count, each drawn once per language as ``bilingual`` draws
    (``kwargs`` are its options) and saved as ``<name>-<step>.png``; then print one line per language,
    ``saved docs/<folder>/<name>-{1..count}.png``."""
    for step in range(1, count + 1):
        for lang, fig in bilingual(f"{name}-{step}.png", size, quiet=True, **kwargs):
            yield step, lang, fig
    shown = _shown(docs_dir())
    for folder in FOLDERS.values():
        print(f"saved {shown}/{folder}/{name}-{{1..{count}}}.png")


def canvas(fig: Figure, width: float, height: float):
    """One frameless axes whose units are boxes: x from 0 to width, y from 0 (bottom) to height."""
    ax = fig.subplots()
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax


def box(ax, x: float, y: float, text: str = "", color: str = "white", *, w: float = 1.0, h: float = 1.0,
        edge: str = "#555555", lw: float = 0.8, ls: str = "-", hatch: str | None = None,
        text_color: str = "black", size: float | None = None, weight: str = "normal") -> None:
    """A box with its lower-left corner at (x, y), filled with ``color``, ``text`` in its middle."""
    ax.add_patch(Rectangle((x, y), w, h, facecolor=color, edgecolor=edge, linewidth=lw, linestyle=ls,
                           hatch=hatch))
    if text:
        ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", color=text_color, fontsize=size,
                fontweight=weight)
