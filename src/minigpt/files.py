"""Writing a file so that a crash never leaves half of it: the one helper every writer here uses."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "wb", encoding: str | None = None):
    """Open a temporary file beside ``path``; when the block ends without an error, flush it to disk
    and rename it onto ``path`` (``os.replace`` is atomic). On an error the temporary file is removed
    and ``path`` keeps its old content. Text modes take ``encoding`` (default UTF-8).

        with atomic_write("runs/x/ckpt.pt") as f:
            torch.save(state, f)
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        text = "b" not in mode
        with os.fdopen(fd, mode, encoding=(encoding or "utf-8") if text else None,
                       newline="" if text else None) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # mkstemp made it private; the result is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)  # make the rename itself durable


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # Windows cannot open folders; the rename is still atomic there
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
