"""`make labs`: execute every lab notebook (docs/<lang>/labs/*.ipynb) and store its outputs.

    python scripts/labs.py                 # every lab, both languages
    python scripts/labs.py docs/zh/labs/tensor.ipynb
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import labs  # noqa: E402


def main(argv: list[str]) -> int:
    paths = [Path(a).resolve() for a in argv] or [labs.DOCS / lang / p for lang in labs.LANGS for p in labs.labs(lang)]
    for path in paths:
        start = time.perf_counter()
        nb = labs.execute(path)
        labs.clean(nb)
        import nbformat

        nbformat.write(nb, path)
        print(f"{path.relative_to(labs.ROOT)}: {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
