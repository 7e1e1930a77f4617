"""``affray replay --format markdown`` of a fight whose names are markup: rendered (markdown-it-py,
CommonMark with GitHub's tables), the export holds no link, image or HTML, and shows each name as its text."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from affray.errors import printable
from tests.cli.conftest import Affray, duel_named

BRENNA = "<img src=x onerror=alert(1)> ![x](http://example.com/track.png)"
GORM = "[click](javascript:alert(1)) <!-- *Gorm* | \u001b[2J\nthe Axeman"
TITLE = "Duel <script>alert(1)</script> &amp; [x](http://example.com)"
MARKUP = {"html_inline", "html_block", "link_open", "image", "em_open", "strong_open", "code_inline"}


@pytest.fixture
def exported(affray: Affray, tmp_path: Path) -> str:
    """The markdown export of the duel with Brenna, Gorm and the scenario named as markup."""
    scenario, log = duel_named(tmp_path, BRENNA, GORM, TITLE), tmp_path / "duel.jsonl"
    assert affray("run", scenario, "-o", log).code == 0
    result = affray("replay", log, "--format", "markdown")
    assert result.code == 0, result
    return result.out


def _rendered(markdown: str) -> tuple[set[str], list[str]]:
    """The types of every token of ``markdown``, and the text of each inline run."""
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    kinds = {t.type for t in tokens} | {c.type for t in tokens for c in t.children or []}
    shown = ["".join(c.content for c in t.children or []) for t in tokens if t.type == "inline"]
    return kinds, shown


def test_names_that_are_markup_render_no_markup(exported: str) -> None:
    kinds, _ = _rendered(exported)
    assert kinds & MARKUP == set()


def test_names_that_are_markup_render_as_their_text(exported: str) -> None:
    _, shown = _rendered(exported)
    assert shown[0] == f"{TITLE}: ruleset energion v7, seed 1130"
    joined = [text for text in shown if " joins side " in text]
    assert joined[0].startswith(f"brenna ({BRENNA}) joins side ford")
    assert joined[1].startswith(f"gorm ({printable(GORM)}) joins side raiders")


def test_every_table_row_of_names_that_are_markup_keeps_its_cells(exported: str) -> None:
    tokens = MarkdownIt("commonmark").enable("table").parse(exported)
    widths: list[int] = []
    for token in tokens:
        if token.type == "tr_open":
            widths.append(0)
        elif token.type in ("th_open", "td_open"):
            widths[-1] += 1
    assert set(widths) == {3, 5}
