"""Text from a log in ``affray replay --format markdown`` (affray.replays.export.markdown_text): rendered by
a Markdown parser (markdown-it-py, CommonMark with GitHub's tables and strikethrough), it is its own
characters, made printable, and no markup."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from affray.errors import printable
from affray.replays.export import markdown_text, row

PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"])
PLAIN = {"text", "text_special", "softbreak"}
"""The inline tokens that are text: anything else (a link, an image, raw HTML, emphasis, code) is markup."""
HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "![x](http://example.com/track.png)",
    "[click](javascript:alert(1))",
    "<http://example.com> <a@b.c>",
    "<!-- hidden -->",
    "<script>alert(1)</script>",
    "*em* **strong** _em_ `code` ~~gone~~",
    "a | b \\| c",
    "&lt; &amp; &#60; &copy;",
    "line\nbreak\r\nhere  \nand\\",
    "Brenna\u001b[2J\u001b]0;PWNED\u0007\u009b31m\u202eXY\u2028",
    "$x^2$ {: onclick=alert(1)} www.example.com http://example.com joe@example.com",
    "\\",
    "[x]: http://example.com",
]
MARKUP_TEXT = st.lists(
    st.sampled_from([*"<>&![]()*_`~|\\$^{}:/.@#-+=\"' \n\t\rax1", "www.", "://", "<!--", "\u001b", "\u202e"])
).map("".join)


def _inline(document: str) -> list[Token]:
    return [child for token in PARSER.parse(document) if token.children for child in token.children]


def _markup(document: str) -> list[str]:
    """The types of every token of ``document`` that is neither a paragraph, a heading or a table of ours
    nor text."""
    blocks = [t.type for t in PARSER.parse(document) if t.type != "inline"]
    inline = [t.type for t in _inline(document) if t.type not in PLAIN]
    ours = ("paragraph_", "heading_", "table_", "thead_", "tbody_", "tr_", "th_", "td_")
    return [kind for kind in blocks + inline if not kind.startswith(ours)]


def _shown(document: str) -> str:
    return "".join(t.content for t in _inline(document) if t.type in PLAIN)


@pytest.mark.parametrize("text", HOSTILE)
def test_a_text_in_a_line_renders_as_its_printable_characters(text: str) -> None:
    assert _markup(f"Said: {markdown_text(text)} (end)") == []
    assert _shown(f"Said: {markdown_text(text)} (end)") == f"Said: {printable(text)} (end)"


@pytest.mark.parametrize("text", HOSTILE)
def test_a_text_in_a_table_cell_renders_as_its_printable_characters(text: str) -> None:
    table = "\n".join([row("a", "b"), "| --- | --- |", row(text, "x")])
    cells = [t for t in PARSER.parse(table) if t.type == "inline"]
    assert _markup(table) == []
    assert [c.children[0].content if c.children else "" for c in cells][2:] == [printable(text), "x"]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_text_in_a_heading_renders_as_its_printable_characters(text: str) -> None:
    heading = f"## {markdown_text(text)}: ruleset energion v3, seed 1"
    assert _markup(heading) == []
    assert _shown(heading) == f"{printable(text)}: ruleset energion v3, seed 1"


def test_what_github_links_by_itself_is_broken() -> None:
    written = markdown_text("www.example.com http://example.com joe@example.com")
    assert written == "www\\.example.com http\\://example.com joe\\@example.com"


def test_a_text_without_markup_is_written_as_it_is() -> None:
    told = "brenna attacks gorm: 82.5% (skill 70 +12.5) - roll 11 @brenna/hit#1 = quality 51.5 -> x0.6"
    assert markdown_text(told) == told


@given(MARKUP_TEXT)
def test_any_text_renders_as_its_printable_characters_and_no_markup(text: str) -> None:
    assert _markup(f"Said: {markdown_text(text)} (end)") == []
    assert _shown(f"Said: {markdown_text(text)} (end)") == f"Said: {printable(text)} (end)"
