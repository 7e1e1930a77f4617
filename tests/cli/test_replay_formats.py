"""``affray replay LOG --format text|markdown|json``: the telling unchanged, Markdown for a chat or a wiki
(a table per round or per 10 s, then the outcome), JSON Lines for tools."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import msgspec
import pytest

from affray.events.codec import ENCODER
from affray.events.fivestep.kinds import RoundStarted
from affray.events.reader import LogFile
from affray.kernel.clock import game_time
from tests.cli.conftest import DUEL, EXAMPLES, ROOT, Affray, assert_user_error, call_main
from tests.strategies import read_path

BAR_BRAWL = EXAMPLES / "bar-brawl.toml"
CUT_AFTER = 14
ROW = re.compile(r"^\| (.+?) \| (\d+) \| (.*) \|$")
SECTION = re.compile(r"^### (\d+)-(\d+) s$")
UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


@pytest.fixture(scope="session")
def bar_brawl_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bar brawl example's log (five-step system, fought in rounds), simulated once per session."""
    out = tmp_path_factory.mktemp("bar") / "bar-brawl.jsonl"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = call_main(["run", BAR_BRAWL, "-o", out])
    assert code == 0
    return out


def _sections(markdown: str) -> dict[str, list[tuple[str, int, str]]]:
    """Every ``###`` heading of an export but the outcome's, with the (time, seq, event) rows under it."""
    found: dict[str, list[tuple[str, int, str]]] = {}
    rows: list[tuple[str, int, str]] = []
    for line in markdown.splitlines():
        if line.startswith("### "):
            rows = found.setdefault(line, [])
        elif (match := ROW.match(line)) is not None:
            rows.append((match[1], int(match[2]), match[3]))
    found.pop("### Outcome", None)
    return found


def _outcome(markdown: str) -> list[str]:
    return markdown.split("### Outcome\n", 1)[1].splitlines()


def _narration(text_line: str) -> tuple[int, str]:
    """seq and narration of a line of plain ``affray replay``."""
    match = re.match(r"^\s*.+? s  #(\d+)\s+(.*)$", text_line)
    assert match is not None, text_line
    return int(match[1]), match[2]


def _piped_duel(affray: Affray, tmp_path: Path) -> Path:
    """The duel, with a ``|`` in Brenna's name (which her joining tells)."""
    scenario = tmp_path / "duel.toml"
    scenario.write_text(DUEL.read_text().replace('"Brenna of the Ford"', '"Brenna | of the Ford"', 1))
    log = tmp_path / "piped.jsonl"
    assert affray("run", scenario, "-o", log).code == 0
    return log


def test_the_text_format_is_plain_replay(affray: Affray, duel_log: Path) -> None:
    plain = affray("replay", duel_log)
    text = affray("replay", duel_log, "--format", "text")
    assert text.code == plain.code == 0
    assert text.out == plain.out
    assert text.err == plain.err == ""


def test_markdown_of_the_duel_has_a_table_per_10_s_holding_every_seq_once(
    affray: Affray, duel_log: Path, duel_read: LogFile
) -> None:
    result = affray("replay", duel_log, "--format", "markdown")
    assert result.code == 0, result
    sections = _sections(result.out)
    spans = sorted({e.t // 10_000 for e in duel_read.events})
    assert list(sections) == [f"### {10 * s}-{10 * s + 10} s" for s in spans]
    for heading, rows in sections.items():
        match = SECTION.match(heading)
        assert match is not None
        times = {
            game_time(e.t) for e in duel_read.events if int(match[1]) * 1000 <= e.t < int(match[2]) * 1000
        }
        assert {time for time, _, _ in rows} == times
    seqs = [seq for rows in sections.values() for _, seq, _ in rows]
    assert seqs == [e.seq for e in duel_read.events]


def test_markdown_tells_each_event_with_the_text_narration(affray: Affray, duel_log: Path) -> None:
    told = dict(_narration(line) for line in affray("replay", duel_log).out.splitlines()[1:])
    rows = [
        row
        for rows in _sections(affray("replay", duel_log, "--format", "markdown").out).values()
        for row in rows
    ]
    assert {seq: event for _, seq, event in rows} == told


def test_markdown_escapes_a_pipe_in_a_narration(affray: Affray, tmp_path: Path) -> None:
    log = _piped_duel(affray, tmp_path)
    out = affray("replay", log, "--format", "markdown").out
    joined = next(line for line in out.splitlines() if line.startswith("| 0.000 s | 1 |"))
    assert "brenna (Brenna \\| of the Ford) joins side ford" in joined
    assert len(UNESCAPED_PIPE.findall(joined)) == 4


def test_markdown_of_the_duel_ends_with_its_outcome(affray: Affray, duel_log: Path) -> None:
    outcome = _outcome(affray("replay", duel_log, "--format", "markdown").out)
    assert outcome[1] == "Side ford wins at 54.996 s (only side ford still stands)."
    assert outcome[3:] == [
        "| combatant | side | dealt | harm | status |",
        "| --- | --- | --- | --- | --- |",
        "| brenna | ford | 45 in 7/12 hits | took 10.875 of 32 DP | standing |",
        "| gorm | raiders | 10.875 in 1/5 hits | took 45 of 36 DP | out (damage points at -9) |",
    ]


def test_markdown_sums_up_each_combatant_as_run_does(
    affray: Affray, tmp_path: Path, bar_brawl_log: Path
) -> None:
    ran = affray("run", BAR_BRAWL, "-o", tmp_path / "again.jsonl").out.splitlines()[1:]
    outcome = _outcome(affray("replay", bar_brawl_log, "--format", "markdown").out)
    cells = [UNESCAPED_PIPE.split(row)[1:-1] for row in outcome[5:]]
    assert len(cells) == len(ran) == 5
    for line, (combatant, side, dealt, harm, status) in zip(ran, cells, strict=True):
        said = " ".join(line.split())
        assert (
            said
            == f"{combatant.strip()} {side.strip()} dealt {dealt.strip()}; {harm.strip()}; {status.strip()}"
        )


def test_markdown_of_a_healed_log_sums_up_the_fight_at_its_end(affray: Affray, tmp_path: Path) -> None:
    fight, healed = tmp_path / "robots.jsonl", tmp_path / "healed.jsonl"
    assert affray("run", EXAMPLES / "robots.toml", "-o", fight).code == 0
    assert affray("heal", fight, "--days", "30", "-o", healed).code == 0
    at_the_end = _outcome(affray("replay", fight, "--format", "markdown").out)
    after_healing = _outcome(affray("replay", healed, "--format", "markdown").out)
    follow = len(read_path(healed).events) - len(read_path(fight).events)
    assert after_healing[3].startswith(
        f"What each dealt and took at that end (the log goes on for {follow} events"
    )
    assert after_healing[:3] + after_healing[5:] == at_the_end


def test_markdown_of_the_bar_brawl_is_sectioned_by_rounds(affray: Affray, bar_brawl_log: Path) -> None:
    result = affray("replay", bar_brawl_log, "--format", "markdown")
    assert result.code == 0, result
    read = read_path(bar_brawl_log)
    rounds = [e for e in read.events if isinstance(e, RoundStarted)]
    assert len(rounds) > 1
    sections = _sections(result.out)
    headings = [f"### Round {e.round} ({game_time(e.t)})" for e in rounds]
    assert list(sections) == ["### Before the first round", *headings]
    for heading, started in zip(headings, rounds, strict=True):
        assert started.seq in [seq for _, seq, _ in sections[heading]]
    seqs = [seq for rows in sections.values() for _, seq, _ in rows]
    assert seqs == [e.seq for e in read.events]


def test_markdown_tables_are_tables_to_a_markdown_parser(affray: Affray, tmp_path: Path) -> None:
    from markdown_it import MarkdownIt

    log = _piped_duel(affray, tmp_path)
    out = affray("replay", log, "--format", "markdown").out
    tokens = MarkdownIt("commonmark").enable("table").parse(out)
    tables = [t for t in tokens if t.type == "table_open"]
    assert len(tables) == len(_sections(out)) + 1
    widths: list[int] = []
    for token in tokens:
        if token.type == "tr_open":
            widths.append(0)
        elif token.type in ("th_open", "td_open"):
            widths[-1] += 1
    assert widths.count(5) == 3  # the outcome's heading row, and a row for each of the two combatants
    assert widths.count(3) == len(tables) - 1 + len(read_path(log).events)
    assert set(widths) == {3, 5}
    cells = [t.content for t in tokens if t.type == "inline"]
    assert any("brenna (Brenna | of the Ford) joins side ford" in c for c in cells)


def test_json_lines_parse_one_per_event_in_seq_order(
    affray: Affray, duel_log: Path, duel_read: LogFile
) -> None:
    result = affray("replay", duel_log, "--format", "json")
    assert result.code == 0, result
    records = [json.loads(line) for line in result.out.splitlines()]
    assert [r["seq"] for r in records] == list(range(1, len(duel_read.events) + 1))
    assert all(set(r) == {"seq", "t", "time", "kind", "told", "event"} for r in records)
    assert [r["time"] for r in records] == [game_time(e.t) for e in duel_read.events]


def test_json_told_is_the_text_narration(affray: Affray, duel_log: Path) -> None:
    told = dict(_narration(line) for line in affray("replay", duel_log).out.splitlines()[1:])
    records = [json.loads(line) for line in affray("replay", duel_log, "--format", "json").out.splitlines()]
    assert {r["seq"]: r["told"] for r in records} == told


@pytest.mark.parametrize("version", [1, 2])
def test_json_event_is_the_log_line_without_prev(affray: Affray, duel_log: Path, version: int) -> None:
    log = duel_log if version == 2 else ROOT / "tests" / "corpus" / "format-1-last" / "duel.jsonl"
    lines = log.read_bytes().splitlines()[1:-1]
    out = affray("replay", log, "--format", "json").out.splitlines()
    assert len(out) == len(lines)
    for seq, (record, line) in enumerate(zip(out, lines, strict=True), 1):
        held = msgspec.json.decode(line)
        # format 1 chains every line; format 2 only the first of each block of 256 (here seq 1)
        assert ("prev" in held) == (version == 1 or seq == 1)
        held.pop("prev", None)
        event = msgspec.json.decode(record)["event"]
        assert event == held
        assert event["kind"] == msgspec.json.decode(record)["kind"]
        assert ENCODER.encode(event) == ENCODER.encode(held)


@pytest.mark.parametrize("form", ["markdown", "json"])
def test_a_cut_log_warns_and_exits_as_text_does(
    affray: Affray, tmp_path: Path, duel_bytes: bytes, form: str
) -> None:
    log = tmp_path / "cut.jsonl"
    log.write_bytes(b"\n".join(duel_bytes.split(b"\n")[: CUT_AFTER + 1]) + b"\n")
    text = affray("replay", log)
    exported = affray("replay", log, "--format", form)
    assert exported.code == text.code == 0
    assert exported.err == text.err
    assert len(exported.err_lines) == 1
    assert f"after seq {CUT_AFTER}" in exported.err
    if form == "json":
        assert [json.loads(line)["seq"] for line in exported.out.splitlines()] == list(
            range(1, CUT_AFTER + 1)
        )
    else:
        assert [seq for rows in _sections(exported.out).values() for _, seq, _ in rows] == list(
            range(1, CUT_AFTER + 1)
        )
        assert _outcome(exported.out)[1].startswith(
            f"No outcome: the log stops at 18.333 s, after seq {CUT_AFTER}"
        )


def test_an_unknown_format_is_one_error_line(affray: Affray, duel_log: Path) -> None:
    result = affray("replay", duel_log, "--format", "bogus")
    assert_user_error(result, "--format", "'bogus'", "text", "markdown", "json")
    assert result.out == ""
