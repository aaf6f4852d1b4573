"""Helpers that look at the built site in a real browser (tests/test_browser.py, scripts/screenshots.py,
benchmarks/site.py): one strict build per session, a static server that behaves like GitHub Pages, headless Chromium."""
