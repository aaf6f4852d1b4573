"""What the data is and where it lives.

The package carries ``SHA256SUMS.txt``: every corpus file, by its path inside the data folder,
with its sha256. The folder is laid out exactly like the two upstream repositories, pinned at
the commits below, so a copy of the data folder and a fresh download are interchangeable.

The Song poems (``全唐诗/poet.song.*.json``, 255 files, about 109 MB) are optional: the course
needs only the Tang poems and tiny Shakespeare (``default_files``); the corpus ``poems+song``
needs the Song files too (``song_files``), fetched by ``minigpt data download --song``. Their
checksums were taken from the npm package ``chinese-poetry@2.0.1``, whose Tang files are
byte-identical to the pinned commit's.
"""

from __future__ import annotations

import os
import sys
from importlib import resources
from pathlib import Path

# folder inside the data dir -> (raw URL of the upstream repository at the pinned commit, path there)
SOURCES: dict[str, tuple[str, str]] = {
    "chinese-poetry": (
        "https://raw.githubusercontent.com/chinese-poetry/chinese-poetry/"
        "99ebbef7e1345c0985c44b9fd96a3f9e776f117b",
        "",
    ),
    "tinyshakespeare": (
        "https://raw.githubusercontent.com/karpathy/char-rnn/"
        "6f9487a6fe5b420b7ca9afb0d7c078e37c1d1b4e",
        "data/tinyshakespeare",
    ),
}

POEM_DIR = "chinese-poetry/全唐诗"
SHAKESPEARE_FILE = "tinyshakespeare/input.txt"
SONG_PREFIX = POEM_DIR + "/poet.song."
DOWNLOAD_HINT = "run `minigpt data download` (or set MINIGPT_DATA to a folder that has the files)"
SONG_HINT = "run `minigpt data download --song` (or set MINIGPT_DATA to a folder that has the files)"


class DataNotFoundError(FileNotFoundError):
    """A corpus file is missing; the message says which command fetches it."""


def read_manifest() -> dict[str, str]:
    """{relative path: sha256} for every corpus file (the optional Song poems too), in a stable order."""
    text = resources.files("minigpt").joinpath("SHA256SUMS.txt").read_text(encoding="utf-8")
    manifest = {}
    for line in text.splitlines():
        if line.strip():
            digest, path = line.split(maxsplit=1)
            manifest[path.strip().removeprefix("./")] = digest
    return manifest


MANIFEST: dict[str, str] = read_manifest()


def poem_files() -> list[str]:
    """The 58 ``poet.tang.*.json`` files, in numeric order (poem 0 first)."""
    files = [p for p in MANIFEST if p.startswith(POEM_DIR + "/poet.tang.")]
    return sorted(files, key=lambda p: int(p.rsplit(".", 2)[1]))


def song_files() -> list[str]:
    """The 255 ``poet.song.*.json`` files (optional), in numeric order (poem 0 first)."""
    files = [p for p in MANIFEST if p.startswith(SONG_PREFIX)]
    return sorted(files, key=lambda p: int(p.rsplit(".", 2)[1]))


def default_files() -> list[str]:
    """What ``minigpt data download`` fetches: every file of the manifest but the optional Song poems."""
    return [p for p in MANIFEST if not p.startswith(SONG_PREFIX)]


def user_cache_dir() -> Path:
    """The per-user cache folder: $XDG_CACHE_HOME/minigpt, ~/.cache/minigpt (or the OS's own)."""
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "minigpt"
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "minigpt"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "minigpt"
    return Path.home() / ".cache" / "minigpt"


def data_dir() -> Path:
    """Where the corpora live: $MINIGPT_DATA if set and non-empty, else the per-user cache folder."""
    env = os.environ.get("MINIGPT_DATA", "").strip()
    return Path(env).expanduser() if env else user_cache_dir()


def processed_dir() -> Path:
    """Where cleaned corpora are cached: $MINIGPT_CACHE if set and non-empty, else
    ``<user cache>/processed``. Never inside the data folder, which may be shared or read-only."""
    env = os.environ.get("MINIGPT_CACHE", "").strip()
    return Path(env).expanduser() if env else user_cache_dir() / "processed"


def require(files: list[str], data: Path, what: str, hint: str = DOWNLOAD_HINT) -> None:
    """Raise DataNotFoundError naming the command that fetches ``files`` (``hint``) if any is missing."""
    missing = [f for f in files if not (data / f).is_file()]
    if missing:
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        raise DataNotFoundError(f"{what} not found in {data} (missing {missing[0]}{more}): {hint}")
