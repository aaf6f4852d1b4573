"""Fetch the corpora from upstream, check them, and say what is there.

``download`` fetches every file of the manifest (``SHA256SUMS.txt``) from the upstream
repositories at the pinned commits, or from a mirror laid out like the data folder
(``base_url=`` or ``$MINIGPT_DATA_URL``). Each file is streamed into a temporary file in
the target's folder, its sha256 checked, and only then renamed onto the target
(``os.replace``), so an interrupted or corrupted download never leaves a file that passes
for good. Files already present with the right checksum are skipped.
"""

from __future__ import annotations

import hashlib
import http.client
import os
import socket
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

from minigpt.files import atomic_write
from minigpt.manifest import (
    DOWNLOAD_HINT,
    MANIFEST,
    SHAKESPEARE_FILE,
    SOURCES,
    data_dir,
    poem_files,
    processed_dir,
)

CHUNK = 1 << 16


class DownloadError(RuntimeError):
    """A file could not be fetched, or what was fetched does not match its checksum."""


def sha256_file(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def source_url(path: str, base_url: str | None = None) -> str:
    """Where ``path`` (relative to the data folder) is fetched from.

    ``base_url`` (else ``$MINIGPT_DATA_URL``): a mirror laid out like the data folder.
    Without either, the upstream repository's raw URL at the pinned commit.
    """
    base = base_url if base_url is not None else os.environ.get("MINIGPT_DATA_URL", "").strip()
    if base:
        return base.rstrip("/") + "/" + quote(path)
    folder, rest = path.split("/", 1)
    if folder not in SOURCES:
        raise ValueError(f"path must start with one of {', '.join(SOURCES)}, got {path!r}")
    repo, prefix = SOURCES[folder]
    return repo + "/" + quote(f"{prefix}/{rest}" if prefix else rest)


def _select(files) -> list[str]:
    if files is None:
        return list(MANIFEST)
    if isinstance(files, str):
        files = [files]
    files = [str(f).removeprefix("./") for f in files]
    unknown = [f for f in files if f not in MANIFEST]
    if unknown:
        raise ValueError(f"files must be paths listed in SHA256SUMS.txt; unknown: {', '.join(unknown)}")
    return files


def _fetch(url: str, target: Path, expected: str, timeout: float, bar) -> None:
    """Stream ``url`` into a temp file beside ``target``; it replaces ``target`` only if the sha256 matches."""
    request = urllib.request.Request(url, headers={"User-Agent": "minigpt-data"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response, atomic_write(target) as out:
            size = response.headers.get("Content-Length")
            if bar is not None:
                bar.reset(total=int(size) if size and size.isdigit() else None)
            h, got = hashlib.sha256(), 0
            while block := response.read(CHUNK):
                out.write(block)
                h.update(block)
                got += len(block)
                if bar is not None:
                    bar.update(len(block))
            if size and size.isdigit() and got != int(size):
                raise DownloadError(f"incomplete download of {url}: got {got} of {size} bytes "
                                    f"(the connection dropped; nothing was written)")
            if h.hexdigest() != expected:
                raise DownloadError(f"checksum mismatch for {url}: expected {expected}, got {h.hexdigest()} "
                                    f"(corrupted or truncated download; nothing was written)")
    except urllib.error.HTTPError as e:
        raise DownloadError(f"HTTP {e.code} {e.reason} for {url}") from e
    except urllib.error.URLError as e:
        raise DownloadError(f"cannot fetch {url}: {e.reason}") from e
    except (TimeoutError, socket.timeout) as e:
        raise DownloadError(f"timed out after {timeout} s fetching {url}") from e
    except (OSError, http.client.HTTPException) as e:  # e.g. the connection dropped mid-file
        raise DownloadError(f"failed fetching {url}: {e!r}") from e


def download(dest: str | Path | None = None, progress: bool = True, files=None,
             base_url: str | None = None, timeout: float = 30.0) -> dict[str, list[str]]:
    """Fetch the corpus files into ``dest`` (default ``data_dir()``) and check every checksum.

    ``files``: a subset of the manifest's paths (default: all). Returns
    ``{"downloaded": [...], "skipped": [...]}`` (skipped: already present and good). Raises
    DownloadError naming every file that failed, after trying all of them.
    """
    from tqdm.auto import tqdm

    dest = Path(dest) if dest is not None else data_dir()
    todo, skipped, failures = [], [], []
    for path in _select(files):
        target = dest / path
        if target.is_file() and sha256_file(target) == MANIFEST[path]:
            skipped.append(path)
        else:
            todo.append(path)
    bar = tqdm(total=0, unit="B", unit_scale=True, disable=not progress, leave=False) if todo else None
    try:
        for n, path in enumerate(todo, 1):
            if bar is not None:
                bar.set_description(f"[{n}/{len(todo)}] {path}")
            try:
                _fetch(source_url(path, base_url), dest / path, MANIFEST[path], timeout, bar)
            except DownloadError as e:
                failures.append(str(e))
    finally:
        if bar is not None:
            bar.close()
    if failures:
        raise DownloadError(f"{len(failures)} of {len(todo)} file(s) failed:\n" + "\n".join(failures))
    return {"downloaded": todo, "skipped": skipped}


def verify(dest: str | Path | None = None, files=None) -> list[str]:
    """Problems with the corpus files in ``dest`` (default ``data_dir()``); empty when all are good."""
    dest = Path(dest) if dest is not None else data_dir()
    problems = []
    for path in _select(files):
        target = dest / path
        if not target.is_file():
            problems.append(f"missing: {path}")
        elif (got := sha256_file(target)) != MANIFEST[path]:
            problems.append(f"checksum mismatch: {path} (expected {MANIFEST[path][:12]}…, got {got[:12]}…)")
    return problems


def info(dest: str | Path | None = None) -> dict:
    """Where the data lives and which corpora are there (no checksums: see ``verify``)."""
    source = ("argument" if dest is not None else "MINIGPT_DATA" if os.environ.get("MINIGPT_DATA", "").strip()
              else "per-user cache (set MINIGPT_DATA to change)")
    dest = Path(dest) if dest is not None else data_dir()
    present = [p for p in MANIFEST if (dest / p).is_file()]
    return {
        "data_dir": str(dest),
        "from": source,
        "processed_dir": str(processed_dir()),
        "files": len(MANIFEST),
        "present": len(present),
        "missing": len(MANIFEST) - len(present),
        "bytes": sum((dest / p).stat().st_size for p in present),
        "corpora": {
            "poems": all((dest / p).is_file() for p in poem_files()),
            "shakespeare": (dest / SHAKESPEARE_FILE).is_file(),
        },
        "sources": {folder: source_url(f"{folder}/") for folder in SOURCES},
        "hint": "" if len(present) == len(MANIFEST) else DOWNLOAD_HINT,
    }
