"""``affray view``'s page in a real browser: headless Chromium (Debian's package) driven by Playwright.

Each example's page is loaded from a file:// URL with the network refused. The scrubber is moved and the
damage points shown are checked against ``affray state --at`` at those moments; an event is clicked and
its derivation checked against ``affray explain --json``; the keyboard steps and plays; a screenshot is
saved beside the page. Skipped, saying why, only where no Chromium is installed.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from tests.cli import chromium
from tests.cli.conftest import Affray

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ["duel", "skirmish", "archers", "mage-duel", "brawl", "robots", "bar-brawl", "firefight"]
pytestmark = chromium.NEEDED


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module, closed at its end."""
    with chromium.launched() as launched:
        yield launched


class Page:
    """An example's page open in the browser: its log, and the requests and errors it made."""

    def __init__(self, browser: Any, affray: Affray, tmp: Path, name: str, *shown: str) -> None:
        self.log = tmp / f"{name}.jsonl"
        assert affray("run", ROOT / "examples" / f"{name}.toml", "-o", self.log).code == 0
        self.html = tmp / f"{name}.html"
        assert affray("view", self.log, "-o", self.html, *shown).code == 0
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.page.route("**/*", self._only_the_file)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        chromium.show(self.page, self.html)
        self.affray = affray

    def _only_the_file(self, route: Any) -> None:
        self.requests.append(route.request.url)
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            route.abort()

    def frames(self) -> list[tuple[int, int]]:
        """Each frame's seq and time, as the page holds them."""
        return [(f[0], f[1]) for f in self.page.evaluate("FRAMES")]

    def scrub(self, index: int) -> None:
        self.page.locator("#scrubber").fill(str(index))

    def shown_points(self) -> dict[str, str]:
        """The health each listed combatant is shown with ("27.65/32 DP", "6/7 parts")."""
        rows = self.page.locator("#state tbody tr:visible")
        return {
            rows.nth(i).get_attribute("data-combatant") or "": rows.nth(i).locator("td").nth(2).inner_text()
            for i in range(rows.count())
        }

    def state_at(self, t: int) -> dict[str, str]:
        """The health at ``t`` ms, as ``affray state --at`` shows it."""
        return self.state("--at", f"{t / 1000}")

    def state(self, *moment: str) -> dict[str, str]:
        """The health at a moment (``--at T`` or ``--seq N``), as ``affray state`` shows it: the words
        between a row's id and side and its position, "(x, y)"."""
        result = self.affray("state", self.log, *moment)
        assert result.code == 0, result
        shown = {}
        for line in result.out.splitlines()[1:]:
            words = line.split()
            positions = [i for i, word in enumerate(words) if word.startswith("(")]
            if positions and not line.startswith("   "):  # a combatant's row, not a line under it
                shown[words[0]] = " ".join(words[2 : positions[0]])
        return shown


@pytest.fixture
def opened(browser: Any, affray: Affray, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Page]:
    page = Page(browser, affray, tmp_path, request.param)
    yield page
    page.page.screenshot(path=str(page.html.with_suffix(".png")), full_page=True)
    page.page.close()


@pytest.mark.parametrize("opened", EXAMPLES, indirect=True)
def test_the_page_loads_offline_with_no_error(opened: Page) -> None:
    assert opened.errors == []
    assert [url for url in opened.requests if not url.startswith("file://")] == []
    assert opened.page.locator("#events li").count() == len(opened.frames())


@pytest.mark.parametrize("opened", EXAMPLES, indirect=True)
def test_the_health_shown_is_the_states_at_each_moment(opened: Page) -> None:
    frames = opened.frames()
    # the last frame at each of four moments: the state --at that time is the state after it
    last_at = {t: i for i, (_, t) in enumerate(frames)}
    moments = sorted(last_at.items())
    for t, index in [moments[len(moments) * k // 4] for k in range(1, 4)] + [moments[-1]]:
        opened.scrub(index)
        assert opened.shown_points() == opened.state_at(t), f"at {t} ms (frame {index})"


@pytest.mark.parametrize("opened", ["duel", "bar-brawl", "robots"], indirect=True)
def test_a_click_on_an_event_shows_its_derivation(opened: Page) -> None:
    frames = opened.frames()
    seq = frames[len(frames) // 2][0]
    opened.page.locator(f"#events li[data-seq='{seq}']").click()
    result = opened.affray("explain", opened.log, str(seq), "--json")
    expected = json.loads(result.out)
    shown = opened.page.locator("#derivation table tr")
    assert opened.page.locator("#derivation h2").first.inner_text().startswith(f"seq {seq} at")
    assert shown.count() == len(expected["steps"])
    for i, step in enumerate(expected["steps"]):
        cells = shown.nth(i).locator("td")
        assert (cells.nth(1).inner_text(), cells.nth(2).inner_text()) == (step["what"], step["value"])


@pytest.mark.parametrize("opened", ["duel"], indirect=True)
def test_the_keyboard_steps_and_plays(opened: Page) -> None:
    last = len(opened.frames()) - 1
    opened.page.locator("body").press("ArrowLeft")
    opened.page.locator("body").press("ArrowLeft")
    assert opened.page.locator("#scrubber").input_value() == str(last - 2)
    opened.page.locator("body").press(" ")
    assert opened.page.locator("#play").inner_text() == "pause"
    opened.page.wait_for_function(f"document.getElementById('scrubber').value === '{last}'", timeout=5000)
    assert opened.page.locator("#play").inner_text() == "play"


@pytest.mark.parametrize("opened", ["skirmish"], indirect=True)
def test_the_moments_each_side_of_a_whole_one_kept_are_the_states_then(opened: Page) -> None:
    # the page keeps everyone's figures whole every 64 frames and applies each frame's changes after
    frames = opened.frames()
    assert len(frames) > 100
    for index in (63, 64, 65, 100):
        opened.scrub(index)
        assert opened.shown_points() == opened.state("--seq", str(frames[index][0])), f"frame {index}"


def test_a_stretch_of_the_fight_starts_with_everyone_as_they_are_then(
    browser: Any, affray: Affray, tmp_path: Path
) -> None:
    stretch = Page(browser, affray, tmp_path, "skirmish", "--from", "20", "--to", "30")
    frames = stretch.frames()
    assert (frames[0][1] >= 20_000, frames[-1][1] <= 30_000) == (True, True)
    for index in (0, len(frames) - 1):
        stretch.scrub(index)
        assert stretch.shown_points() == stretch.state("--seq", str(frames[index][0])), f"frame {index}"
    assert stretch.errors == []
    stretch.page.close()


def test_odds_are_drawn_under_the_scrubber_and_a_rolls_luck_shown_with_its_event(
    browser: Any, affray: Affray, tmp_path: Path
) -> None:
    log, odds, html = tmp_path / "duel.jsonl", tmp_path / "odds.json", tmp_path / "duel.html"
    assert affray("run", ROOT / "examples" / "duel.toml", "-o", log).code == 0
    assert affray("odds", log, "--within", "10", "-o", odds).code == 0
    assert affray("view", log, "-o", html, "--odds", odds).code == 0
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    chromium.show(page, html)
    assert page.locator("#odds").is_visible()
    assert [p.get_attribute("data-side") for p in page.locator("#odds path").all()] == ["ford", "raiders"]
    assert page.locator("#now").inner_text().endswith(" - ford 100 %, raiders 0 %")  # the end: the result
    index = page.evaluate("FRAMES.findIndex(f => f[0] === 11)")  # brenna's first blow, brenna/hit#1
    page.locator("#events li").nth(index).click()
    explained = affray("explain", log, "11", "--odds", odds).out.splitlines()
    assert page.locator("#derivation ul.luck li").all_inner_texts() == [explained[-1].strip()]
    assert errors == []
    page.close()


def test_a_players_copys_page_says_sealed_where_a_roll_is_withheld(
    browser: Any, affray: Affray, tmp_path: Path
) -> None:
    referee, copy, html = tmp_path / "referee.jsonl", tmp_path / "players.jsonl", tmp_path / "players.html"
    assert affray("run", ROOT / "examples" / "wolves.toml", "-o", referee).code == 0
    assert affray("redact", referee, "-o", copy).code == 0
    assert affray("view", copy, "-o", html).code == 0
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        chromium.show(page, html)
        assert page.locator(".about").inner_text().endswith("seed sealed")
        page.locator("#events li[data-seq='44']").click()  # wolf-2's first bite: its roll is sealed
        rows = page.locator("#derivation table tr")
        cells = [rows.nth(i).locator("td") for i in range(rows.count())]
        shown = {row.nth(1).inner_text(): row.nth(2).inner_text() for row in cells}
        assert (shown["sealed"], shown["hit.roll"], shown["hit.quality"], shown["damage.damage"]) == (
            "3",
            "sealed",
            "sealed",
            "1.5",
        )
        page.screenshot(path=str(html.with_suffix(".png")), full_page=True)
    finally:
        page.close()


def test_a_long_fight_lists_the_events_around_the_one_shown(
    browser: Any, affray: Affray, tmp_path: Path
) -> None:
    """The duel fought to 4,000 damage points each (1,484 events): the list holds the 1,000 events
    around the one shown, not all of them; it moves with the scrubber and grows by 500 when scrolled to
    either end, and an event listed so is clicked and explained."""
    duel = tomllib.loads((ROOT / "examples" / "duel.toml").read_text())
    for combatant in duel["combatants"]:
        combatant["damage_points"] = 4000
    scenario, log, html = tmp_path / "long.toml", tmp_path / "long.jsonl", tmp_path / "long.html"
    scenario.write_text(tomli_w.dumps({**duel, "max_seconds": 10_000}))
    assert affray("run", scenario, "-o", log).code == 0
    assert affray("view", log, "-o", html).code == 0
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    chromium.show(page, html)
    frames = page.evaluate("FRAMES.length")
    assert frames > 1_200

    def listed() -> list[int]:
        return page.evaluate("[...document.querySelectorAll('#events li')].map(li => +li.dataset.index)")

    assert listed() == list(range(frames - 1_000, frames))  # the last event is shown at first
    page.evaluate("() => { document.getElementById('events').scrollTop = 0; }")
    page.wait_for_function("document.querySelector('#events li').dataset.index === '0'")
    assert listed() == list(range(frames))  # 500 more before, or as many as there are
    chromium.show(page, html)  # afresh
    page.locator("#scrubber").fill("100")
    assert listed() == list(range(1_000))
    assert page.locator("#events li.now").get_attribute("data-index") == "100"
    page.evaluate(
        "() => { const box = document.getElementById('events'); box.scrollTop = box.scrollHeight; }"
    )
    page.wait_for_function("document.querySelectorAll('#events li').length > 1000")
    assert listed() == list(range(min(1_500, frames)))
    page.locator("#events li[data-index='1200']").click()
    seq = page.evaluate("FRAMES[1200][0]")
    assert page.locator("#derivation h2").first.inner_text().startswith(f"seq {seq} at")
    assert errors == []
    page.close()
