"""``affray view``'s page of a fight whose names are markup, in a real browser (headless Chromium, as
tests/cli/test_view_in_chromium.py drives it): each name shows as its text and the page works."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from affray.errors import printable
from tests.cli import chromium
from tests.cli.conftest import Affray, duel_named

pytestmark = chromium.NEEDED

BRENNA = "</script><script>window.PWNED = 1</script><!--"
GORM = "<!-- <script>window.PWNED = 2</script> & \u202egorm\u2028"
TITLE = "Duel <!-- </script><img src=x onerror=window.PWNED=3>"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module, closed at its end."""
    with chromium.launched() as launched:
        yield launched


@pytest.fixture
def hostile_page(browser: Any, affray: Affray, tmp_path: Path) -> Iterator[tuple[Any, list[str]]]:
    """The duel's page with Brenna, Gorm and the scenario named as markup, open in the browser; and the
    errors the page raised."""
    scenario = duel_named(tmp_path, BRENNA, GORM, TITLE)
    log, html = tmp_path / "duel.jsonl", tmp_path / "duel.html"
    assert affray("run", scenario, "-o", log).code == 0
    assert affray("view", log, "-o", html).code == 0
    errors: list[str] = []
    page = browser.new_page()
    page.route(
        "**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort()
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    chromium.show(page, html)
    yield page, errors
    page.close()


def test_names_that_are_markup_show_as_their_text(hostile_page: tuple[Any, list[str]]) -> None:
    page, errors = hostile_page
    assert errors == []
    assert page.evaluate("window.PWNED") is None
    names = page.locator("#state tbody tr td:first-child").all_text_contents()
    assert names == [BRENNA, printable(GORM)]
    assert page.locator("#title").inner_text() == TITLE
    assert page.title() == f"{TITLE} - affray"


def test_the_page_of_names_that_are_markup_works(hostile_page: tuple[Any, list[str]]) -> None:
    page, errors = hostile_page
    frames = page.evaluate("FRAMES.length")
    assert frames > 2
    assert page.locator("#events li").count() == frames
    assert BRENNA in page.locator("#events li").first.inner_text()
    page.locator("#scrubber").fill("1")
    assert page.locator("#now").inner_text().startswith("0.000 s, #2 ")
    page.locator("#events li").nth(2).click()
    assert page.locator("#derivation h2").first.inner_text().startswith("seq 3 at")
    assert errors == []
