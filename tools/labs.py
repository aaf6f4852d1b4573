"""The labs: one notebook per part, docs/<lang>/labs/<part>.ipynb, in both languages.

Their outputs are stored in the notebooks (the site renders them without running anything);
`make labs` (scripts/labs.py) re-executes them and stores the new outputs, and tests/test_labs.py
executes them and compares. Code cells are identical in both languages except the first cell's
`LANG = "zh"` / `LANG = "en"` line, which picks the language of the plots' labels.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LANGS = ("zh", "en")
CELL_TIMEOUT = int(os.environ.get("MINIGPT_LAB_CELL_TIMEOUT", "300"))
LANG_LINE = re.compile(r'^LANG = "(zh|en)"[^\n]*$', re.M)


def labs(lang: str) -> list[str]:
    """Lab paths relative to docs/<lang>/, sorted."""
    return sorted(p.relative_to(DOCS / lang).as_posix() for p in (DOCS / lang / "labs").glob("*.ipynb"))


def read(path: Path):
    import nbformat

    return nbformat.read(path, as_version=4)


def code_cells(nb) -> list[str]:
    """The code cells' sources, with the language line made neutral."""
    return [LANG_LINE.sub('LANG = "…"', c.source) for c in nb.cells if c.cell_type == "code"]


def execute(path: Path, timeout: int = CELL_TIMEOUT):
    """Run a lab in a fresh kernel, from its own folder, with this checkout's src/ on the path;
    a cell that raises fails (nbclient's CellExecutionError). Returns the executed notebook."""
    from nbclient import NotebookClient

    nb = read(path)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
               PYTHONHASHSEED="0", MPLBACKEND="module://matplotlib_inline.backend_inline")
    old = dict(os.environ)
    os.environ.update(env)  # the kernel inherits this process's environment
    try:
        NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=False,
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    finally:
        os.environ.clear()
        os.environ.update(old)
    return nb


def execute_apart(path: Path, timeout: int = CELL_TIMEOUT):
    """``execute`` in a process of its own, one thread, as a page command runs: the tests start every lab
    this way when they collect it (conftest.py), so that labs run beside the rest of the suite and nothing
    changes this process's environment. A failing cell raises RuntimeError with the lab's error."""
    import subprocess
    import sys
    import tempfile

    import nbformat

    env = dict(os.environ)
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(name, "1")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / Path(path).name
        done = subprocess.run([sys.executable, __file__, str(path), str(out), str(timeout)], env=env,
                              capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            raise RuntimeError(f"{path}: the lab failed\n{done.stderr[-3000:]}")
        return nbformat.read(out, as_version=4)


def texts(nb) -> list[list[str]]:
    """Per code cell, its text outputs (stream text and text/plain results), trailing spaces cut.
    Consecutive stream outputs of one stream are joined: the kernel splits printed text into chunks
    by timing (a slow cell's two prints arrive as two outputs or as one)."""
    out = []
    for cell in (c for c in nb.cells if c.cell_type == "code"):
        found = []
        last = None
        for o in cell.get("outputs", []):
            if o.output_type == "stream" and last == o.name:
                found[-1] += o.text
                continue
            last = o.name if o.output_type == "stream" else None
            if o.output_type == "stream":
                found.append(f"{o.name}: {o.text}")
            elif o.output_type in ("execute_result", "display_data") and "image/png" not in o.data:
                found.append(str(o.data.get("text/plain", "")))
            elif o.output_type == "error":
                found.append(f"error: {o.ename}: {o.evalue}")
        out.append(["\n".join(ln.rstrip() for ln in t.rstrip().split("\n")) for t in found])
    return out


def texts_match(ran, stored) -> bool:
    """The run's text outputs are the stored ones, exactly: the labs train in float64, which every CPU
    computes to the same printed digits."""
    return texts(ran) == texts(stored)


def images(nb) -> list[int]:
    """Per code cell, how many PNG images it shows."""
    return [sum("image/png" in o.get("data", {}) for o in c.get("outputs", []))
            for c in nb.cells if c.cell_type == "code"]


def clean(nb) -> None:
    """What a stored lab keeps: outputs, no execution timestamps or counts that change on every run."""
    for i, cell in enumerate(nb.cells):
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.execution_count = None
            for o in cell.get("outputs", []):
                if "execution_count" in o:
                    o.execution_count = None
    nb.metadata.pop("widgets", None)


if __name__ == "__main__":  # python tools/labs.py LAB OUT [TIMEOUT]: execute LAB, write the result to OUT
    import sys

    import nbformat

    nbformat.write(execute(Path(sys.argv[1]), int(sys.argv[3]) if len(sys.argv) > 3 else CELL_TIMEOUT), sys.argv[2])
