"""Serve a built site the way GitHub Pages does, on 127.0.0.1, for the browser tests and benchmarks.

The site lives under the path of its site_url (`/minigpt/` when published as a project page), a
folder is served by its index.html (a folder without its final `/` is redirected), and a missing
address gets the site's root 404.html with status 404.
"""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, site: Path, prefix: str, **kwargs):
        self.site, self.prefix = site, prefix
        super().__init__(*args, directory=str(site), **kwargs)

    def log_message(self, *args):  # quiet: the tests report what matters
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "max-age=600")  # as GitHub Pages sends
        super().end_headers()

    def send_head(self):
        path = unquote(urlsplit(self.path).path)
        if not path.startswith(self.prefix):
            self.send_error(404)
            return None
        local = (self.site / path[len(self.prefix):]).resolve()
        if self.site.resolve() not in (local, *local.parents):
            self.send_error(404)
            return None
        if local.is_dir() and not path.endswith("/"):
            self.send_response(301)
            self.send_header("Location", path + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if local.is_dir():
            local = local / "index.html"
        if not local.is_file():
            body = (self.site / "404.html").read_bytes()
            self.server.served.append((path, self.site / "404.html", len(body)))
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return _Body(body)
        self.path = "/" + local.relative_to(self.site.resolve()).as_posix()
        self.server.served.append((path, local, local.stat().st_size))
        return super().send_head()


class _Body:
    """A file-like object for copyfile()."""

    def __init__(self, data: bytes):
        self.data = data

    def read(self, size=-1):
        data, self.data = self.data, b""
        return data

    def close(self):
        pass


class _Server(http.server.ThreadingHTTPServer):
    served: list  # (address, file, bytes) of every file sent, in order: what a page cost

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a tab that moved on
            super().handle_error(request, client_address)


class SiteServer:
    """`with SiteServer(site, "/minigpt/") as server: server.url("en/")`; `server.served` lists
    every file sent (address, file, bytes)."""

    def __init__(self, site: Path, prefix: str = "/"):
        if not (site / "index.html").is_file():
            raise FileNotFoundError(f"{site} is not a built site (no index.html)")
        self.prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
        handler = functools.partial(_Handler, site=Path(site), prefix=self.prefix)
        self.httpd = _Server(("127.0.0.1", 0), handler)
        self.httpd.served = []
        self.httpd.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.httpd.server_port}"
        self.root = self.origin + self.prefix

    @property
    def served(self) -> list:
        return self.httpd.served

    def url(self, path: str = "") -> str:
        return self.root + path.lstrip("/")

    def __enter__(self) -> "SiteServer":
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
