"""Debian's Chromium, headless, driven by Playwright, for the tests of ``affray view``'s page: where it is,
the flags it is started with on a machine with no network, and a launch closed when done."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
NEEDED = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium: install Debian's chromium (.ci/run does)")
"""The mark of a test that needs Chromium."""


@contextmanager
def launched() -> Iterator[Any]:
    """A headless Chromium, closed at the end of the ``with``."""
    playwright = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS, timeout=60_000)
        try:
            yield browser
        finally:
            browser.close()


def show(page: Any, html: Path) -> None:
    """Open the page ``html`` in ``page`` and wait until it has read its fight (it unpacks its data after
    loading, and marks the body ``data-ready`` then)."""
    page.goto(html.as_uri())
    page.wait_for_function("document.body.dataset.ready === 'yes'", timeout=30_000)
