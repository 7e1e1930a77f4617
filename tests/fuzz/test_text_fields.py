"""Control, bidi and markup characters in every text field of a scenario that reaches the log (names, the
scenario's name, the reasons of rulings, and any other field that takes free text), run, then read by every
command that shows a log.

The free-text fields of each scenario are found once by loading it with a probe (an escape, a newline and
``<!--``) appended to each of its strings: those it accepts. A drawn hostile text is then appended to all of
them at once, and the scenario run. No command's stdout or stderr (run; replay in every format; explain;
state; diff; verify; view) may hold a character that does not print as itself other than a newline; each
JSON output parses; the Markdown renders no HTML, link or image; and the view page's embedded data holds no
``<``, ``>`` or ``&`` (so no string can end its script element or open a comment) and parses, and the page
has the same elements as the clean fight's.

A second property puts the hostile text into one field of any kind (an id, a weapon, a dice expression)
and runs the scenario: a refusal is one ``error:`` line of text. A third forges the duel's log as a
stranger could, an id and a side (which no scenario may spell so) holding the hostile text in every line
and the chain recomputed: every command still writes text, whatever it finds. The quick profile runs a
few examples of each (a few seconds); ``--hypothesis-profile=long`` a fortieth of its examples, at least 25.
"""

from __future__ import annotations

import base64
import gzip
import json
import shutil
import tempfile
import tomllib
from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from affray import rulesets
from affray.errors import AffrayError
from tests.cli.conftest import rechain
from tests.fuzz.harness import (
    EXAMPLES,
    FieldPath,
    Mutant,
    Outcome,
    affray,
    breach,
    field_paths,
    report,
    shown_path,
)

PIECES = (
    "\x1b[2J",
    "\x1b]0;PWNED\x07",
    "\x1b]52;c;aGk=\x07",
    "\x9b31m",
    "\x85",
    "\x7f",
    "\x00",
    "\r",
    "\n",
    "\t",
    "\u202e",
    "\u2066",
    "\u200f",
    "\u2028",
    "\u2029",
    "\u200b",
    "\ufeff",
    "\U000e0041",
    "<!--",
    "-->",
    "</script>",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "![x](http://track.invalid/t.png)",
    "[click](javascript:alert(1))",
    "<http://x.invalid>",
    "$",
    "Price $5^$ deal",
    "&amp;",
    "&#60;",
    "*",
    "_",
    "`",
    "|",
    "\\",
    "# ",
    "> ",
    "- ",
    "1. ",
    "---",
    "[",
    "]",
    "{{title}}",
    "/*FIGHT*/",
)
"""Escape codes, controls, bidi and separators, and what starts markup in Markdown, HTML or math text."""
ODD_CHARACTERS = st.characters(categories=("Cc", "Cf", "Zl", "Zp", "Zs", "Co"))
HOSTILE_TEXT = st.lists(st.sampled_from(PIECES) | ODD_CHARACTERS, min_size=1, max_size=8).map("".join)
PROBE = "\x1b\n<!--"

FEW = max(25, settings.default.max_examples // 40) if settings.default.max_examples > 100 else 4
"""How many examples each property draws: a few under the quick profile."""

RULING = {"at": 0.0, "combatant": "gorm", "modifier": 1, "reason": "fog on the ford"}


@cache
def scenarios() -> dict[str, dict[str, Any]]:
    """The scenarios drawn from, parsed: the duel with a ruling, a fivestep brawl, robots with special
    damage's rulings."""
    duel = tomllib.loads((EXAMPLES / "duel.toml").read_text())
    duel["rulings"] = [RULING]
    return {
        "duel.toml": duel,
        "bar-brawl.toml": tomllib.loads((EXAMPLES / "bar-brawl.toml").read_text()),
        "robots.toml": tomllib.loads((EXAMPLES / "robots.toml").read_text()),
    }


def _at(document: Any, path: FieldPath) -> Any:
    for step in path:
        document = document[step]
    return document


def _with(document: dict[str, Any], changes: dict[FieldPath, str]) -> dict[str, Any]:
    """``document`` (copied) with the string at each path of ``changes`` replaced."""
    changed: dict[str, Any] = json.loads(json.dumps(document))
    for path, value in changes.items():
        parent = _at(changed, path[:-1])
        parent[path[-1]] = value
    return changed


def text_paths(document: dict[str, Any]) -> list[FieldPath]:
    """Every path of ``document`` that holds a string."""
    return [path for path in field_paths(document) if isinstance(_at(document, path), str)]


def _accepts(document: dict[str, Any], name: str) -> bool:
    """Whether the scenario loads and makes a battle (everything ``run`` checks before simulating)."""
    try:
        ruleset, spec = rulesets.load_mapping(document, name, EXAMPLES)
        ruleset.battle(spec)
    except AffrayError:
        return False
    return True


@cache
def free_text(name: str) -> tuple[FieldPath, ...]:
    """The paths of scenario ``name`` that take any text: those that accept ``PROBE`` appended."""
    document = scenarios()[name]
    return tuple(
        path
        for path in text_paths(document)
        if _accepts(_with(document, {path: _at(document, path) + PROBE}), name)
    )


def written(folder: Path, name: str, document: dict[str, Any]) -> Path:
    """``document`` as scenario file ``name`` in ``folder``, beside the example's own table files."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(tomli_w.dumps(document), encoding="utf-8")
    for tables in ("tables", "table"):
        if (EXAMPLES / tables).is_dir() and not (folder / tables).exists():
            (folder / tables).symlink_to(EXAMPLES / tables)
    return path


# -- what each output must be -----------------------------------------------------------------------------


def unprintable(outcome: Outcome) -> str:
    """What in the outcome's stdout or stderr does not print as itself, other than a newline ("" if none)."""
    found = sorted({char for char in outcome.out + outcome.err if not char.isprintable() and char != "\n"})
    return f"raw characters {found!r} in the output" if found else ""


def not_json(outcome: Outcome) -> str:
    """Which line of the outcome's stdout is not JSON ("" if every one is)."""
    for number, line in enumerate(outcome.out.split("\n"), 1):
        if line:
            try:
                json.loads(line)
            except ValueError as exc:
                return f"stdout line {number} is not JSON ({exc})"
    return ""


MARKUP = {"html_inline", "html_block", "link_open", "image"}


def _tokens(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        yield from _tokens(token.children or [])


def markup(outcome: Outcome) -> str:
    """Which HTML, link or image the Markdown on stdout renders ("" if none: affray's own has none)."""
    found = sorted({t.type for t in _tokens(MarkdownIt("commonmark").enable("table").parse(outcome.out))})
    made = MARKUP.intersection(found)
    return f"the Markdown renders {', '.join(sorted(made))}" if made else ""


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_endtag(self, tag: str) -> None:
        self.tags.append(f"/{tag}")


def elements(page: str) -> list[str]:
    """The page's start and end tags, in order."""
    parser = _Elements()
    parser.feed(page)
    parser.close()
    return parser.tags


DATA_START = '<script id="fight" type="application/octet-stream">'


def page_problem(page: str, clean: str) -> str:
    """What is wrong with the view page ("" if nothing): its data is not base64 of gzip-compressed JSON,
    or that JSON holds ``<``, ``>``, ``&``, U+2028 or U+2029, or it has other elements than the clean
    fight's page."""
    packed = page.partition(DATA_START)[2].partition("</script>")[0]
    try:
        data = gzip.decompress(base64.b64decode(packed, validate=True)).decode()
    except (ValueError, OSError, EOFError) as exc:
        return f"the page's data is not base64 of gzip ({exc})"
    raw = sorted(set(data) & set("<>&\u2028\u2029"))
    if raw:
        return f"the page's data holds {raw!r}"
    try:
        json.loads(data)
    except ValueError as exc:
        return f"the page's data is not JSON ({exc})"
    if elements(page) != elements(clean):
        return "the page has other elements than the clean fight's"
    return ""


# -- the properties ---------------------------------------------------------------------------------------


def _judged(mutant: Mutant, outcome: Outcome, statuses: tuple[int, ...] = (0,), *extra: str) -> str:
    problem = breach(outcome, statuses) or unprintable(outcome) or next((e for e in extra if e), "")
    return report(mutant, outcome, problem) if problem else ""


def read_by_every_command(mutant: Mutant, log: Path, clean: Path, folder: Path) -> Iterator[str]:
    """A report for each command that shows ``log`` wrongly (``clean``: the example's own log)."""
    for args in (("replay", log), ("explain", log, "1"), ("state", log), ("verify", log)):
        yield _judged(mutant, affray(*args))
    for args in (("explain", log, "1", "--json"), ("state", log, "--json")):
        shown = affray(*args)
        yield _judged(mutant, shown, (0,), not_json(shown))
    lines = affray("replay", log, "--format", "json")
    yield _judged(mutant, lines, (0,), not_json(lines))
    table = affray("replay", log, "--format", "markdown")
    yield _judged(mutant, table, (0,), markup(table))
    for args in (("diff", clean, log), ("diff", clean, log, "--json")):
        yield _judged(mutant, affray(*args), (1,))
    page, clean_page = folder / "page.html", folder / "clean.html"
    viewed = affray("view", log, "-o", page)
    assert affray("view", clean, "-o", clean_page).status == 0
    yield _judged(
        mutant,
        viewed,
        (0,),
        (page.is_file() and page_problem(page.read_text(encoding="utf-8"), clean_page.read_text())) or "",
    )


@settings(
    max_examples=FEW,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    deadline=None,
)
@given(name=st.sampled_from(sorted(scenarios())), text=HOSTILE_TEXT)
def test_hostile_text_in_every_free_field_is_shown_as_text_by_every_command(
    tmp_path_factory: pytest.TempPathFactory, name: str, text: str
) -> None:
    folder = tmp_path_factory.mktemp("text")
    document = scenarios()[name]
    paths = free_text(name)
    assert paths, f"{name}: no field takes free text"
    hostile = _with(document, {path: _at(document, path) + text for path in paths})
    scenario = written(folder, name, hostile)
    mutant = Mutant(f"examples/{name}", ", ".join(map(shown_path, paths)), f"{text!r} appended", scenario)
    log, clean = folder / "hostile.jsonl", folder / "clean.jsonl"
    ran = affray("run", scenario, "-o", log)
    found = _judged(mutant, ran)
    assert not found, found
    assert affray("run", written(folder / "clean", name, document), "-o", clean).status == 0
    reports = [found for found in read_by_every_command(mutant, log, clean, folder) if found]
    assert not reports, "\n".join(reports)


@settings(
    max_examples=FEW,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    deadline=None,
)
@given(name=st.sampled_from(sorted(scenarios())), text=HOSTILE_TEXT, data=st.data())
def test_hostile_text_in_any_text_field_is_run_or_refused_in_one_line_of_text(
    tmp_path_factory: pytest.TempPathFactory, name: str, text: str, data: st.DataObject
) -> None:
    document = scenarios()[name]
    path = data.draw(st.sampled_from(text_paths(document)), label="path")
    value = data.draw(st.sampled_from([text, _at(document, path) + text]), label="value")
    scenario = written(tmp_path_factory.mktemp("field"), name, _with(document, {path: value}))
    mutant = Mutant(f"examples/{name}", shown_path(path), f"replaced by {value!r}", scenario)
    found = _judged(mutant, affray("run", scenario, "-o", scenario.with_suffix(".jsonl")), (0, 2))
    assert not found, found


@cache
def duel_lines() -> list[bytes]:
    """The duel's log (header and events, no end line), run once."""
    folder = Path(tempfile.mkdtemp())
    log = folder / "duel.jsonl"
    assert affray("run", EXAMPLES / "duel.toml", "-o", log).status == 0
    lines = log.read_bytes().splitlines()
    shutil.rmtree(folder)
    return lines[:-1]


@settings(
    max_examples=FEW,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    deadline=None,
)
@given(text=HOSTILE_TEXT)
def test_a_forged_log_with_hostile_ids_and_sides_is_shown_as_text(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    folder = tmp_path_factory.mktemp("forged")
    forged = rechain(
        [
            line.replace(b'"gorm"', json.dumps(f"gorm{text}").encode()).replace(
                b'"raiders"', json.dumps(f"raiders{text}").encode()
            )
            for line in duel_lines()
        ]
    )
    log = folder / "forged.jsonl"
    log.write_bytes(forged)
    mutant = Mutant("the duel's log", "gorm and raiders", f"{text!r} appended, re-chained", log)
    clean = folder / "clean.jsonl"
    clean.write_bytes(rechain(duel_lines()))
    reports = []
    for args in (
        ("replay", log),
        ("replay", log, "--format", "markdown"),
        ("replay", log, "--format", "json"),
        ("explain", log, "2"),
        ("explain", log, "2", "--json"),
        ("state", log),
        ("state", log, "--json"),
        ("diff", clean, log),
        ("diff", clean, log, "--json"),
    ):
        shown = affray(*args)
        as_json = "--json" in args or "json" in args
        checked = not_json(shown) if as_json and shown.status == 0 else ""
        reports.append(_judged(mutant, shown, (0, 1, 2), checked))
    verified = affray("verify", log)
    reports.append(_judged(mutant, verified, (0, 1, 2, 3)))
    found = [found for found in reports if found]
    assert not found, "\n".join(found)
