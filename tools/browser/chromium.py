"""Headless Chromium from the system (Debian's `chromium` package), driven by Playwright.

Playwright's own browser download does not work everywhere this project runs, so it is pointed
at the system's browser. What the browser tests need is installed by `make browser-deps` (CI's
.ci/run calls it). Without it they skip locally, saying so, and fail under CI (`CI` set).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "tests" / "node" / "node_modules"
AXE = NODE_MODULES / "axe-core" / "axe.min.js"
INSTALL = "install with `make browser-deps` (apt-get install chromium; npm ci in tests/node)"

# Without these a closed network makes Chromium stall on first-run, sync and update traffic.
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def executable() -> str | None:
    """$CHROMIUM, else the first Chromium on PATH."""
    names = [os.environ["CHROMIUM"]] if os.environ.get("CHROMIUM") else ["chromium", "chromium-browser"]
    return next(filter(None, map(shutil.which, names)), None)


def missing(what: str) -> None:
    """Skip (locally) or fail (CI) because `what` is not installed."""
    message = f"{what} is not installed: {INSTALL}"
    if os.environ.get("CI"):
        pytest.fail(f"{message} (CI never skips the browser tests)", pytrace=False)
    pytest.skip(message)


def require_playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright (the `test` extra of pyproject.toml)")
    return sync_playwright


def launch(playwright):
    """A fresh headless Chromium (Playwright gives each launch a new --user-data-dir) that can reach
    127.0.0.1 only: a request to any other host fails at once, as on a closed network, and the
    tests see it."""
    path = executable()
    if path is None:
        missing("Chromium")
    only_local = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
    return playwright.chromium.launch(executable_path=path, args=[*FLAGS, only_local], headless=True)


def axe_script() -> Path:
    if not AXE.is_file():
        missing("axe-core")
    return AXE
