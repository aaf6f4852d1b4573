"""The downloader against a local HTTP server: never the network."""

import http.server
import os
import socket
import threading
from pathlib import Path
from urllib.parse import unquote

import pytest

from minigpt import download as dl
from minigpt.manifest import MANIFEST, SHAKESPEARE_FILE, read_manifest

LICENSE = "chinese-poetry/LICENSE"
AUTHORS = "chinese-poetry/全唐诗/authors.tang.json"
POEMS_0 = "chinese-poetry/全唐诗/poet.tang.0.json"
TANG300 = "chinese-poetry/全唐诗/唐诗三百首.json"
GOOD = [LICENSE, SHAKESPEARE_FILE]


@pytest.fixture(scope="module")
def source() -> Path:
    value = os.environ.get("MINIGPT_DATA", "").strip()
    if not value:
        pytest.fail("MINIGPT_DATA is not set: point it at the data folder, e.g. MINIGPT_DATA=../shared/data")
    return Path(value)


@pytest.fixture(scope="module")
def server(source, tmp_path_factory):
    """A mirror on 127.0.0.1 with good files, a corrupted one, a truncated one, and one whose
    connection drops halfway through (``dropped`` paths)."""
    files = {path: (source / path).read_bytes() for path in [*GOOD, AUTHORS, POEMS_0, TANG300]}
    files[TANG300] = files[TANG300].replace("詩".encode(), "诗".encode(), 1)  # corrupted
    files[POEMS_0] = files[POEMS_0][: len(files[POEMS_0]) // 2]  # truncated
    dropped = {AUTHORS}

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
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def leftovers(dest: Path) -> list[Path]:
    return [p for p in dest.rglob("*") if p.name.endswith(".part")]


def test_package_manifest_is_the_data_folders(source):
    lines = (source / "SHA256SUMS").read_text(encoding="utf-8").split("\n")
    expected = {line.split()[1].removeprefix("./"): line.split()[0] for line in lines if line.strip()}
    assert read_manifest() == MANIFEST == expected
    assert len(MANIFEST) == 62


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
        dl.download(tmp_path, progress=False, files=[path], base_url=server)
    assert path.rsplit("/", 1)[1] in unquote(str(e.value))
    assert not (tmp_path / path).exists()
    assert not leftovers(tmp_path)


def test_connection_dropped_mid_file_leaves_nothing(server, tmp_path):
    with pytest.raises(dl.DownloadError, match="incomplete download.* of [0-9]+ bytes") as e:
        dl.download(tmp_path, progress=False, files=[AUTHORS], base_url=server)
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
        dl.download(tmp_path, progress=False, files=[missing_upstream, LICENSE])
    assert "HTTP 404" in str(e.value) and "1 of 2" in str(e.value)
    assert dl.verify(tmp_path, files=[LICENSE]) == []
    assert dl.verify(tmp_path, files=[missing_upstream]) == [f"missing: {missing_upstream}"]


def test_timeout(tmp_path):
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        with pytest.raises(dl.DownloadError, match="timed out"):
            dl.download(tmp_path, progress=False, files=[LICENSE], base_url=url, timeout=0.3)
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
    assert len(problems) == 62 and all(p.startswith("missing: ") for p in problems)
    empty = dl.info(tmp_path)
    assert empty["present"] == 0 and empty["missing"] == 62 and empty["from"] == "argument"
    assert empty["corpora"] == {"poems": False, "shakespeare": False}
    assert "minigpt data download" in empty["hint"]
    monkeypatch.setenv("MINIGPT_DATA", str(source))
    full = dl.info()
    assert full["data_dir"] == str(source) and full["from"] == "MINIGPT_DATA"
    assert full["present"] == 62 and full["missing"] == 0 and full["hint"] == ""
    assert full["corpora"] == {"poems": True, "shakespeare": True}
    assert full["bytes"] > 27_000_000
