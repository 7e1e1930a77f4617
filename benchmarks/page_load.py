"""``affray view``'s page in a browser: how long a big battle's page takes to be ready, to scrub and to step.

Writes the fixture of ``lines.py`` (``--per-side`` fighters a side) into a new temporary folder, runs it and
writes its page (``affray run``, ``affray view``, as processes of their own), then opens the page
``--runs`` times in headless Chromium (Debian's package, driven by Playwright, the network refused) and
prints the medians: from ``goto`` until the page has read its fight (``data-ready``), a scrub to the middle
frame, and one step with the arrow key, each until the next frame is painted. Needs ``chromium`` on the
PATH and Playwright for Python (``.ci/run`` installs both).

    python benchmarks/page_load.py [--per-side N] [--runs R] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from lines import write_lines

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
PAINTED = "() => new Promise(done => requestAnimationFrame(() => done(null)))"


def affray(folder: Path, *args: str) -> None:
    """One ``affray`` command in ``folder``, as its own process."""
    subprocess.run([sys.executable, "-m", "affray", *args], cwd=folder, capture_output=True, check=True)


def timed(page: Any, act: str) -> float:
    """Seconds from ``act`` (JavaScript) until the next frame is painted."""
    started = time.perf_counter()
    page.evaluate(act)
    page.evaluate(PAINTED)
    return time.perf_counter() - started


def once(browser: Any, html: Path) -> dict[str, float]:
    """One opening of the page: ready, a scrub to the middle, a step."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.route(
        "**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort()
    )
    started = time.perf_counter()
    page.goto(html.as_uri())
    page.wait_for_function("document.body.dataset.ready === 'yes'", timeout=120_000)
    ready = time.perf_counter() - started
    scrub = timed(
        page,
        "() => { const s = scrubber; s.value = Math.floor(s.max / 2); s.dispatchEvent(new Event('input')); }",
    )
    step = timed(
        page,
        "() => document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}))",
    )
    page.close()
    return {"ready": ready, "scrub": scrub, "step": step}


def main() -> int:
    """Parse the options, write the page, open it, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-side", type=int, default=150, help="fighters on each side (default 150)")
    parser.add_argument("--runs", type=int, default=3, help="openings of the page; the medians count")
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of the table")
    args = parser.parse_args()
    if args.runs < 1 or args.per_side < 1:
        parser.error("--runs and --per-side must be at least 1")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        parser.error("no chromium on the PATH (Debian's package: apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        parser.error("Playwright for Python is not installed (pip install playwright)")

    with tempfile.TemporaryDirectory(prefix="affray-page-") as name:
        folder = Path(name)
        write_lines(folder / "lines.toml", args.per_side)
        affray(folder, "run", "lines.toml", "-o", "lines.jsonl")
        affray(folder, "view", "lines.jsonl", "-o", "page.html")
        frames = sum(1 for _ in (folder / "lines.jsonl").open("rb")) - 2
        size = (folder / "page.html").stat().st_size / 1e6
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium, args=FLAGS, timeout=60_000)
            runs = [once(browser, folder / "page.html") for _ in range(args.runs)]
            browser.close()
    figures = {key: statistics.median(run[key] for run in runs) for key in ("ready", "scrub", "step")}
    if args.json:
        print(
            json.dumps(
                {"per_side": args.per_side, "events": frames, "page_mb": size, "runs": args.runs, **figures}
            )
        )
        return 0
    print(
        f"page_load: {args.per_side} a side, {frames:,} events, a {size:.2f} MB page; medians of {args.runs}"
    )
    print(f"  ready     {figures['ready']:6.2f} s  (from goto until the page has read its fight)")
    print(f"  scrub     {figures['scrub']:6.2f} s  (to the middle frame, until painted)")
    print(f"  step      {figures['step']:6.2f} s  (one arrow key, until painted)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
