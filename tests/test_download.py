"""The downloader against a local HTTP server, and its npm source against the real package (npm pack
through the npm on this machine, the tarball cached between runs; skipped where npm is not installed)."""

import contextlib
import hashlib
import http.server
import os
import shutil
import socket
import tarfile
import threading
from pathlib import Path
from urllib.parse import unquote

import pytest

from minigpt import download as dl
from minigpt import manifest
from minigpt.manifest import MANIFEST, SHAKESPEARE_FILE, default_files, read_manifest, song_files, user_cache_dir

from cli_run import run

LICENSE = "chinese-poetry/LICENSE"
AUTHORS = "chinese-poetry/全唐诗/authors.tang.json"
POEMS_0 = "chinese-poetry/全唐诗/poet.tang.0.json"
TANG300 = "chinese-poetry/全唐诗/唐诗三百首.json"
SONG_0 = "chinese-poetry/全唐诗/poet.song.0.json"
GOOD = [LICENSE, SHAKESPEARE_FILE]


@pytest.fixture(scope="module")
def source() -> Path:
    value = os.environ.get("MINIGPT_DATA", "").strip()
    if not value:
        pytest.fail("MINIGPT_DATA is not set: point it at the data folder, e.g. MINIGPT_DATA=../shared/data")
    return Path(value)


@contextlib.contextmanager
def serving(files: dict[str, bytes], dropped=frozenset()):
    """A mirror on 127.0.0.1 that serves ``files`` (path -> bytes); for the ``dropped`` paths the
    connection drops halfway through. Yields its base URL."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            path = unquote(self.path).lstrip("/")
            body = files.get(path)
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if path in dropped:  # promise the whole file, send half, hang up
                self.wfile.write(body[: len(body) // 2])
                self.close_connection = True
                return
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def server(source):
    """A mirror with good files, a corrupted one, a truncated one, and one whose connection drops."""
    files = {path: (source / path).read_bytes() for path in [*GOOD, AUTHORS, POEMS_0, TANG300]}
    files[TANG300] = files[TANG300].replace("詩".encode(), "诗".encode(), 1)  # corrupted
    files[POEMS_0] = files[POEMS_0][: len(files[POEMS_0]) // 2]  # truncated
    with serving(files, dropped={AUTHORS}) as url:
        yield url


def leftovers(dest: Path) -> list[Path]:
    """Temporary files of atomic_write (.NAME.xxx.tmp) and npm's work folders (.npm-xxx)."""
    return [p for p in dest.rglob("*") if p.name.endswith((".part", ".tmp")) or p.name.startswith(".npm-")]


def test_package_manifest_is_the_data_folders(source):
    """The data folder's SHA256SUMS, plus the optional Song poems (their checksums come from the npm package)."""
    lines = (source / "SHA256SUMS").read_text(encoding="utf-8").split("\n")
    expected = {line.split()[1].removeprefix("./"): line.split()[0] for line in lines if line.strip()}
    assert read_manifest() == MANIFEST
    assert {p: MANIFEST[p] for p in default_files()} == expected
    assert len(MANIFEST) == 62 + 255 and len(default_files()) == 62


def test_song_files_are_optional():
    song = song_files()
    assert len(song) == 255 and song[0] == SONG_0 and song[-1] == "chinese-poetry/全唐诗/poet.song.254000.json"
    assert not set(song) & set(default_files()) and set(song) | set(default_files()) == set(MANIFEST)
    assert dl.npm_member(SONG_0) == "package/dist/quantangshi/poet.song.0.json"


def test_upstream_urls_are_pinned(monkeypatch):
    monkeypatch.delenv("MINIGPT_DATA_URL", raising=False)
    assert dl.source_url(SHAKESPEARE_FILE) == (
        "https://raw.githubusercontent.com/karpathy/char-rnn/6f9487a6fe5b420b7ca9afb0d7c078e37c1d1b4e"
        "/data/tinyshakespeare/input.txt")
    assert dl.source_url(POEMS_0) == (
        "https://raw.githubusercontent.com/chinese-poetry/chinese-poetry/99ebbef7e1345c0985c44b9fd96a3f9e776f117b"
        "/%E5%85%A8%E5%94%90%E8%AF%97/poet.tang.0.json")
    assert dl.source_url(POEMS_0, "http://mirror/x/") == (
        "http://mirror/x/chinese-poetry/%E5%85%A8%E5%94%90%E8%AF%97/poet.tang.0.json")
    monkeypatch.setenv("MINIGPT_DATA_URL", "http://127.0.0.1:9")
    assert dl.source_url(LICENSE) == "http://127.0.0.1:9/chinese-poetry/LICENSE"


def test_download_good_files_then_skip_them(server, source, tmp_path):
    report = dl.download(tmp_path, progress=False, files=GOOD, base_url=server)
    assert report == {"downloaded": GOOD, "skipped": []}
    for path in GOOD:
        assert (tmp_path / path).read_bytes() == (source / path).read_bytes()
    assert dl.verify(tmp_path, files=GOOD) == []
    assert not leftovers(tmp_path)
    before = {p: (tmp_path / p).stat().st_mtime_ns for p in GOOD}
    again = dl.download(tmp_path, progress=True, files=GOOD, base_url="http://127.0.0.1:1")  # no server needed
    assert again == {"downloaded": [], "skipped": GOOD}
    assert {p: (tmp_path / p).stat().st_mtime_ns for p in GOOD} == before


def test_a_bad_file_on_disk_is_replaced(server, tmp_path):
    (tmp_path / LICENSE).parent.mkdir(parents=True)
    (tmp_path / LICENSE).write_text("not the license")
    assert dl.verify(tmp_path, files=[LICENSE])[0].startswith("checksum mismatch: " + LICENSE)
    report = dl.download(tmp_path, progress=False, files=[LICENSE], base_url=server)
    assert report["downloaded"] == [LICENSE]
    assert dl.verify(tmp_path, files=[LICENSE]) == []


@pytest.mark.parametrize("path", [TANG300, POEMS_0], ids=["corrupted", "truncated"])
def test_corrupted_or_truncated_download_leaves_nothing(server, tmp_path, path):
    with pytest.raises(dl.DownloadError, match="checksum mismatch") as e:
        dl.download(tmp_path, progress=False, files=[path], base_url=server, source="github")
    assert path.rsplit("/", 1)[1] in unquote(str(e.value))
    assert not (tmp_path / path).exists()
    assert not leftovers(tmp_path)


def test_connection_dropped_mid_file_leaves_nothing(server, tmp_path):
    with pytest.raises(dl.DownloadError, match="incomplete download.* of [0-9]+ bytes") as e:
        dl.download(tmp_path, progress=False, files=[AUTHORS], base_url=server, source="github")
    assert "authors.tang.json" in unquote(str(e.value))
    assert not (tmp_path / AUTHORS).exists()
    assert not leftovers(tmp_path)


def test_failure_mid_write_leaves_no_file(server, tmp_path, monkeypatch):
    """Interrupt the download after the first block: the target never appears."""

    class Boom(Exception):
        pass

    real_open = dl.urllib.request.urlopen

    def flaky_urlopen(*args, **kwargs):
        response = real_open(*args, **kwargs)
        real_read, calls = response.read, []

        def read(n=-1):
            calls.append(n)
            if len(calls) > 1:
                raise Boom("interrupted")
            return real_read(n)

        response.read = read
        return response

    monkeypatch.setattr(dl.urllib.request, "urlopen", flaky_urlopen)
    with pytest.raises(Boom):
        dl.download(tmp_path, progress=False, files=[SHAKESPEARE_FILE], base_url=server)
    assert not (tmp_path / SHAKESPEARE_FILE).exists()
    assert not leftovers(tmp_path)


def test_http_errors_are_clear_and_other_files_still_come(server, tmp_path, monkeypatch):
    monkeypatch.setenv("MINIGPT_DATA_URL", server)  # base URL from the environment
    missing_upstream = "chinese-poetry/全唐诗/poet.tang.1000.json"  # the mirror does not have it
    with pytest.raises(dl.DownloadError) as e:
        dl.download(tmp_path, progress=False, files=[missing_upstream, LICENSE], source="github")
    assert "HTTP 404" in str(e.value) and "1 of 2" in str(e.value)
    assert dl.verify(tmp_path, files=[LICENSE]) == []
    assert dl.verify(tmp_path, files=[missing_upstream]) == [f"missing: {missing_upstream}"]


def test_timeout(tmp_path):
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        with pytest.raises(dl.DownloadError, match="timed out"):
            dl.download(tmp_path, progress=False, files=[LICENSE], base_url=url, timeout=0.3, source="github")
    assert not (tmp_path / LICENSE).exists()
    assert not leftovers(tmp_path)


def test_download_defaults_to_the_data_dir(server, tmp_path, monkeypatch):
    monkeypatch.setenv("MINIGPT_DATA", str(tmp_path / "data"))
    dl.download(progress=False, files=LICENSE, base_url=server)
    assert (tmp_path / "data" / LICENSE).is_file()
    assert dl.verify(files=[LICENSE]) == []


def test_unknown_files_are_refused(tmp_path):
    with pytest.raises(ValueError, match="unknown: nope.txt"):
        dl.download(tmp_path, progress=False, files=["nope.txt"])
    with pytest.raises(ValueError, match="unknown"):
        dl.verify(tmp_path, files=["../etc/passwd"])


def test_verify_and_info(source, tmp_path, monkeypatch):
    assert dl.verify(source) == []
    problems = dl.verify(tmp_path)
    assert len(problems) == 62 and all(p.startswith("missing: ") for p in problems)  # the Song poems are optional
    assert len(dl.verify(tmp_path, song=True)) == 62 + 255
    empty = dl.info(tmp_path)
    assert empty["present"] == 0 and empty["missing"] == 62 and empty["from"] == "argument"
    assert empty["corpora"] == {"poems": False, "shakespeare": False, "song": False}
    assert empty["song_files"].startswith("0 of 255 ") and "--song" in empty["song_files"]
    assert "minigpt data download" in empty["hint"]
    monkeypatch.setenv("MINIGPT_DATA", str(source))
    full = dl.info()
    assert full["data_dir"] == str(source) and full["from"] == "MINIGPT_DATA"
    assert full["present"] == 62 and full["missing"] == 0 and full["hint"] == ""
    assert full["corpora"] == {"poems": True, "shakespeare": True, "song": False}
    assert full["bytes"] > 27_000_000


# --------------------------------------------------------------------------- the npm source

POEM_FILES = [p for p in MANIFEST if p.startswith("chinese-poetry/")]  # the Song poems too
NPM_CACHE = user_cache_dir() / "npm"  # the tarball is kept here between test runs (85 MB)


@pytest.fixture(scope="module")
def npm_tarball(tmp_path_factory) -> Path:
    """chinese-poetry-2.0.1.tgz packed by the real npm once, then reused from the user cache."""
    cached = NPM_CACHE / dl.NPM_TARBALL
    if cached.is_file():
        return cached
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed: install Node.js, which brings npm (https://nodejs.org), "
                    "to test the npm source for real")
    packed = dl.npm_pack(tmp_path_factory.mktemp("npm"))
    NPM_CACHE.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(packed, cached.with_suffix(".part"))
    os.replace(cached.with_suffix(".part"), cached)
    return cached


def dead_url() -> str:
    """A URL nothing answers on: the connection is refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def test_npm_paths():
    assert dl.npm_member(POEMS_0) == "package/dist/quantangshi/poet.tang.0.json"
    assert dl.npm_member(TANG300) == "package/dist/quantangshi/唐诗三百首.json"
    assert dl.npm_member(LICENSE) == "package/LICENSE"
    assert dl.npm_member(SHAKESPEARE_FILE) is None
    assert len(POEM_FILES) == 61 + 255 and all(dl.npm_member(p) for p in POEM_FILES)


def test_npm_source_gives_every_pinned_poem_file(npm_tarball, source, tmp_path):
    """The Song poems too: their checksums in the manifest were taken from this package."""
    report = dl.download(tmp_path, progress=False, files=POEM_FILES, source="npm", npm_tarball=npm_tarball)
    assert report == {"downloaded": POEM_FILES, "skipped": []}
    assert dl.verify(tmp_path, files=POEM_FILES) == []
    for path in (LICENSE, POEMS_0, TANG300):  # the LICENSE too: its whitespace is the pinned file's
        assert (tmp_path / path).read_bytes() == (source / path).read_bytes()
    assert not leftovers(tmp_path)
    assert sorted(p.name for p in (tmp_path / "chinese-poetry").iterdir()) == ["LICENSE", "全唐诗"]


def test_auto_falls_back_to_npm_when_github_fails(npm_tarball, tmp_path):
    files = [LICENSE, POEMS_0, TANG300, SHAKESPEARE_FILE]
    with pytest.raises(dl.DownloadError) as e:  # tiny Shakespeare is on GitHub only
        dl.download(tmp_path, progress=False, files=files, base_url=dead_url(), npm_tarball=npm_tarball)
    message = str(e.value)
    assert message.startswith("1 of 4 file(s) could not be fetched; first error from github: cannot fetch ")
    assert "input.txt" in message and "npm" not in message.split("Try")[0].replace("(left to npm)", "")
    assert dl.verify(tmp_path, files=[LICENSE, POEMS_0, TANG300]) == []
    assert not leftovers(tmp_path)


def _fake_tarball(path: Path, members: dict[str, bytes]) -> Path:
    import io

    with tarfile.open(path, "w:gz", encoding="utf-8") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def test_npm_checksums_are_checked_and_nothing_bad_is_written(source, tmp_path):
    license_text = (source / LICENSE).read_bytes()
    tgz = _fake_tarball(tmp_path / dl.NPM_TARBALL, {
        "package/LICENSE": b"\n" + license_text.rstrip(b"\n"),  # as the real package has it
        "package/dist/quantangshi/poet.tang.0.json": (source / POEMS_0).read_bytes()[:-10],  # damaged
        "package/dist/quantangshi/../../../evil.json": b"{}",  # never written: not a file we asked for
    })
    dest = tmp_path / "data"
    with pytest.raises(dl.DownloadError) as e:
        dl.download(dest, progress=False, files=[LICENSE, POEMS_0, TANG300], source="npm", npm_tarball=tgz)
    message = str(e.value)
    assert message.startswith("2 of 3 file(s) could not be fetched; first error from npm: checksum mismatch "
                              "for package/dist/quantangshi/poet.tang.0.json")
    assert "Try `--source github`, or copying" in message and "`--source npm`" not in message
    assert (dest / LICENSE).read_bytes() == license_text
    assert not (dest / POEMS_0).exists() and not (dest / TANG300).exists()
    assert not (tmp_path / "evil.json").exists() and not leftovers(dest)


def test_every_source_failing_gives_one_short_summary(tmp_path, monkeypatch):
    monkeypatch.setattr(dl.shutil, "which", lambda name: None)  # no npm on this machine
    with pytest.raises(dl.DownloadError) as e:
        dl.download(tmp_path, progress=False, base_url=dead_url())
    message = str(e.value)
    assert message.startswith("62 of 62 file(s) could not be fetched; first error from github: cannot fetch ")
    assert "first error from npm: npm not found: install Node.js" in message
    assert message.count("http://") == 1 and len(message) < 600, message
    assert "MINIGPT_DATA" in message and not leftovers(tmp_path)


def test_cli_source_flag(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(dl.shutil, "which", lambda name: None)
    code, out, err = run(capsys, "data", "download", "--dest", str(tmp_path), "--source", "npm",
                         "--base-url", dead_url(), "--no-progress")
    assert code == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("minigpt: error: 62 of 62 file(s) could not be fetched; "), err
    assert "first error from npm: npm not found" in lines[0] and "first error from github: cannot" in lines[0]
    code, _, err = run(capsys, "data", "download", "--source", "ftp")
    assert code == 2 and "invalid choice: 'ftp'" in err


# --------------------------------------------------------------------------- the Song poems (optional)

SONG_1000 = "chinese-poetry/全唐诗/poet.song.1000.json"


@pytest.fixture
def fake_song(monkeypatch):
    """A manifest of one Tang file and two Song files with made-up contents (the shared data folder
    has no Song poems), and a mirror that serves them. Yields (files, base URL)."""
    files = {POEMS_0: '[{"author": "甲", "paragraphs": ["春江花月夜，"], "title": "唐"}]'.encode(),
             SONG_0: '[{"author": "乙", "paragraphs": ["梅竹松菊霜，"], "title": "宋"}]'.encode(),
             SONG_1000: b"[]"}
    fake = {path: hashlib.sha256(body).hexdigest() for path, body in files.items()}
    monkeypatch.setattr(manifest, "MANIFEST", fake)
    monkeypatch.setattr(dl, "MANIFEST", fake)
    with serving(files) as url:
        yield files, url


def test_song_poems_come_only_on_request(fake_song, tmp_path):
    files, url = fake_song
    assert dl.download(tmp_path, progress=False, base_url=url) == {"downloaded": [POEMS_0], "skipped": []}
    assert dl.verify(tmp_path) == []  # absent Song files are no problem unless asked for
    assert dl.verify(tmp_path, song=True) == [f"missing: {SONG_0}", f"missing: {SONG_1000}"]
    assert dl.info(tmp_path)["corpora"]["song"] is False and dl.info(tmp_path)["song_files"].startswith("0 of 2")
    report = dl.download(tmp_path, progress=False, base_url=url, song=True)
    assert report == {"downloaded": [SONG_0, SONG_1000], "skipped": [POEMS_0]}
    assert all((tmp_path / path).read_bytes() == body for path, body in files.items())
    assert dl.verify(tmp_path, song=True) == [] and dl.info(tmp_path)["corpora"]["song"] is True
    assert not leftovers(tmp_path)
    (tmp_path / SONG_0).write_bytes(b"[]")  # a Song file that is there is checked, asked for or not
    assert [p.split(" (")[0] for p in dl.verify(tmp_path)] == [f"checksum mismatch: {SONG_0}"]


def test_song_checksums_are_checked(fake_song, tmp_path):
    files, _ = fake_song
    with serving({**files, SONG_0: files[SONG_0].replace("梅".encode(), "桃".encode())}) as url:
        with pytest.raises(dl.DownloadError, match="1 of 3 file.*checksum mismatch.*poet.song.0.json"):
            dl.download(tmp_path, progress=False, base_url=url, source="github", song=True)
    assert not (tmp_path / SONG_0).exists() and (tmp_path / SONG_1000).is_file() and not leftovers(tmp_path)


def test_song_poems_from_npm(fake_song, tmp_path):
    files, _ = fake_song
    tgz = _fake_tarball(tmp_path / dl.NPM_TARBALL, {
        dl.npm_member(path): body for path, body in files.items()})
    report = dl.download(tmp_path / "data", progress=False, source="npm", npm_tarball=tgz, song=True)
    assert report == {"downloaded": [POEMS_0, SONG_0, SONG_1000], "skipped": []}
    assert dl.verify(tmp_path / "data", song=True) == []


def test_cli_song_flag(fake_song, capsys, tmp_path):
    _, url = fake_song
    where = str(tmp_path)
    code, out, err = run(capsys, "data", "verify", "--dest", where, "--song")
    assert code == 1 and out.count("missing: ") == 3
    assert err.strip().endswith("run `minigpt data download --song`"), err
    code, out, _ = run(capsys, "data", "download", "--dest", where, "--base-url", url, "--no-progress")
    assert code == 0 and out.startswith("downloaded 1 file(s), 0 already present")
    code, out, _ = run(capsys, "data", "verify", "--dest", where)
    assert (code, out) == (0, f"all 1 files in {where} match their checksums\n")
    code, out, _ = run(capsys, "data", "download", "--dest", where, "--base-url", url, "--no-progress", "--song")
    assert code == 0 and out.startswith("downloaded 2 file(s), 1 already present")
    code, out, _ = run(capsys, "data", "verify", "--dest", where, "--song")
    assert (code, out) == (0, f"all 3 files in {where} match their checksums\n")
    (tmp_path / SONG_1000).unlink()
    code, out, _ = run(capsys, "data", "verify", "--dest", where)
    assert code == 0 and "all 2 files" in out and "(1 of 2 Song files: `minigpt data download --song`" in out
    code, out, _ = run(capsys, "data", "info", "--dest", where)
    assert code == 0 and "song_files     1 of 2" in out and "song: False" in out
