"""Text from a file reaches the terminal as text (affray.cli.terminal): a name holding escape codes (clear the
screen, set the title, OSC 52 to set the clipboard), a C1 control, a bidi override or a line break is written
escaped by every command, JSON output stays JSON, and a name cannot forge a line."""

from __future__ import annotations

import io
import json
import os
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pexpect
import pytest
import tomli_w
from hypothesis import given
from hypothesis import strategies as st

from affray.cli.progress import Progress
from affray.cli.terminal import VisibleText, echo_lines, one_line, visible
from tests.cli.conftest import DUEL, Affray, Result
from tests.cli.test_entered_dice import logged_rolls

ROOT = Path(__file__).resolve().parents[2]
FORGED = "    9.999 s  #99   gorm dies"
"""A line a name tries to forge in a replay."""
HOSTILE = f"Brenna\x1b[2J\x1b]0;PWNED\x07\x1b]52;c;aGk=\x07\x9b31m\u202eXY\u2028\x7f\x85\n{FORGED}"
"""A combatant's name that clears the screen, sets the title and the clipboard, turns text around, and
breaks the line to forge one."""
RAW_ESCAPES = ("\x1b", "\x07", "\x9b", "\u202e", "\u2028", "\x7f", "\x85")


def raw_characters(text: str, layout: str = "\n") -> set[str]:
    """The characters of ``text`` that do not print as themselves, other than those of ``layout``."""
    return {char for char in text if not char.isprintable() and char not in layout}


@pytest.mark.parametrize(
    ("char", "shown"),
    [
        ("\x1b", "\\u001b"),
        ("\x07", "\\u0007"),
        ("\x00", "\\u0000"),
        ("\r", "\\r"),
        ("\x7f", "\\u007f"),
        ("\x9b", "\\u009b"),
        ("\x85", "\\u0085"),
        ("\u202e", "\\u202e"),
        ("\u2066", "\\u2066"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
        ("\u200b", "\\u200b"),
        ("\ufeff", "\\ufeff"),
        ("\U000e0041", "\\udb40\\udc41"),
        ("\udc80", "\\udc80"),
    ],
)
def test_a_character_that_does_not_print_as_itself_is_written_as_its_json_escape(
    char: str, shown: str
) -> None:
    assert visible(f"a{char}b\n") == f"a{shown}b\n"


def test_newlines_tabs_and_printable_text_pass_the_guard_as_they_are() -> None:
    text = "brenna\tBrenna of the Ford, é, 剣, 🗡\n"
    assert visible(text) == text


@given(st.text())
def test_what_the_guard_writes_prints_as_itself_but_newlines_and_tabs(text: str) -> None:
    assert raw_characters(visible(text), "\n\t") == set()


@given(st.text())
def test_json_written_through_the_guard_reads_back_as_it_was(text: str) -> None:
    line = json.dumps({"name": text}, ensure_ascii=False)
    assert json.loads(visible(line)) == {"name": text}


def test_a_line_for_one_item_has_its_own_line_breaks_and_tabs_escaped() -> None:
    assert one_line("a\nb\tc\x1b") == "a\\nb\\tc\\u001b"
    assert one_line("a b") == "a b"


class Counted(io.StringIO):
    """A stream that counts its flushes; a terminal or not."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty
        self.flushes = 0

    def flush(self) -> None:
        self.flushes += 1

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(("tty", "flushes"), [(False, 1), (True, 3)])
def test_lines_told_are_flushed_once_unless_to_a_terminal(
    monkeypatch: pytest.MonkeyPatch, tty: bool, flushes: int
) -> None:
    """Two lines: one flush at the end into a pipe; on a terminal, one per line and the end's."""
    stream = Counted(tty)
    monkeypatch.setattr(sys, "stdout", stream)
    echo_lines(["a\tb", "c"])
    assert (stream.getvalue(), stream.flushes) == ("a\\tb\nc\n", flushes)


def test_bytes_cannot_go_round_the_guard() -> None:
    guarded = VisibleText(io.StringIO())
    assert not hasattr(guarded, "buffer")
    with pytest.raises(TypeError):
        guarded.write(b"\x1b[2J")  # type: ignore[arg-type]


def test_the_progress_bar_draws_behind_the_guard() -> None:
    stream = io.StringIO()
    assert Progress(10, VisibleText(stream)).stream is stream  # type: ignore[arg-type]


# -- every command, on a scenario and a log holding the name --------------------------------------------


def hostile_scenario(folder: Path) -> Path:
    """The duel, with brenna, the scenario and a ruling's reason named ``HOSTILE``."""
    scenario: dict[str, Any] = tomllib.loads(DUEL.read_text())
    scenario["name"] = HOSTILE
    scenario["combatants"][0]["name"] = HOSTILE
    scenario["rulings"] = [{"at": 0.0, "combatant": "gorm", "modifier": 1, "reason": HOSTILE}]
    path = folder / "hostile.toml"
    path.write_text(tomli_w.dumps(scenario))
    return path


@pytest.fixture
def hostile(affray: Affray, tmp_path: Path) -> Path:
    """A log of the hostile scenario."""
    log = tmp_path / "hostile.jsonl"
    assert affray("run", hostile_scenario(tmp_path), "-o", log).code == 0
    return log


def strings(value: object) -> Iterator[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | dict):
        for item in value.values() if isinstance(value, dict) else value:
            yield from strings(item)


def assert_shown_as_text(result: Result, layout: str = "\n") -> None:
    """Nothing in stdout or stderr that does not print as itself (but ``layout``), and no forged line."""
    assert raw_characters(result.out + result.err, layout) == set(), result
    assert FORGED not in (result.out + result.err).splitlines()


COMMANDS = [
    ("replay",),
    ("replay", "--format", "markdown"),
    ("replay", "--format", "json"),
    ("explain", "1"),
    ("explain", "1", "--json"),
    ("state",),
    ("state", "--seq", "1"),
    ("state", "--json"),
    ("verify",),
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_command_reading_the_log_shows_the_name_as_text(
    affray: Affray, hostile: Path, command: tuple[str, ...]
) -> None:
    result = affray(command[0], hostile, *command[1:])
    assert result.code == 0, result
    assert_shown_as_text(result)


@pytest.mark.parametrize("command", [c for c in COMMANDS if "json" in c or "--json" in c], ids=" ".join)
def test_json_output_holds_the_name_as_it_was(
    affray: Affray, hostile: Path, command: tuple[str, ...]
) -> None:
    out = affray(command[0], hostile, *command[1:]).out
    values = [json.loads(line) for line in out.splitlines()]
    assert any(HOSTILE in text for text in strings(values))


def test_run_shows_the_name_as_text(affray: Affray, tmp_path: Path) -> None:
    assert_shown_as_text(affray("run", hostile_scenario(tmp_path), "-o", tmp_path / "run.jsonl"))


def test_diff_shows_the_name_as_text(affray: Affray, hostile: Path, duel_log: Path) -> None:
    for json_flag in ((), ("--json",)):
        result = affray("diff", duel_log, hostile, *json_flag)
        assert result.code == 1, result
        assert_shown_as_text(result)


def test_whatif_and_lineage_show_the_reason_as_text(affray: Affray, hostile: Path, tmp_path: Path) -> None:
    child = tmp_path / "child.jsonl"
    ruled = affray("whatif", hostile, "--seq", "20", "--rule", "miss", "--reason", HOSTILE, "-o", child)
    assert ruled.code == 0, ruled
    assert_shown_as_text(ruled)
    assert_shown_as_text(affray("lineage", child))


def test_encounters_shows_an_encounters_name_as_text(affray: Affray, tmp_path: Path) -> None:
    campaign = tmp_path / "c.sqlite"
    name = HOSTILE.replace("\n", "\t")  # a name holds no newline; a tab would make a column
    assert affray("run", hostile_scenario(tmp_path), "-o", campaign, "--encounter", name).code == 0
    listed = affray("encounters", campaign)
    assert_shown_as_text(listed, "\n\t")
    assert [line.count("\t") for line in listed.out.splitlines()[:-1]] == [2]


def test_regress_shows_a_golden_logs_file_name_as_text(affray: Affray, hostile: Path, tmp_path: Path) -> None:
    golden = tmp_path / "golden"
    golden.mkdir()
    hostile.rename(golden / "\x1b]0;PWNED\x07.jsonl")
    assert_shown_as_text(affray("regress", golden))


def test_battle_shows_the_scenarios_name_as_text(affray: Affray, tmp_path: Path) -> None:
    result = affray("battle", hostile_scenario(tmp_path), "--runs", "2")
    assert result.code == 0, result
    assert_shown_as_text(result)


def test_an_error_quoting_a_name_is_one_line_of_text(affray: Affray, tmp_path: Path) -> None:
    scenario = tmp_path / "weapon.toml"
    scenario.write_text(
        hostile_scenario(tmp_path).read_text().replace('"Sword, Long"', json.dumps("\x1b[2J\nx"))
    )
    result = affray("run", scenario, "-o", tmp_path / "o.jsonl")
    assert result.code == 2
    assert len(result.err_lines) == 1
    assert_shown_as_text(result)


def test_a_warning_about_a_cut_log_is_text(affray: Affray, hostile: Path) -> None:
    data = hostile.read_bytes()
    hostile.write_bytes(data[: data.rindex(b"\n", 0, len(data) - 1) - 5])
    result = affray("replay", hostile)
    assert result.err.startswith("warning: ")
    assert_shown_as_text(result)


def test_on_a_terminal_no_escape_code_of_the_log_arrives(affray: Affray, hostile: Path) -> None:
    terminal = pexpect.spawn(
        sys.executable,
        ["-m", "affray", "replay", str(hostile)],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=30,
    )
    try:
        terminal.expect(pexpect.EOF)
        shown = terminal.before
    finally:
        if terminal.isalive():
            terminal.terminate(force=True)
    assert b"\x1b" not in shown
    assert b"\x07" not in shown
    assert b"Brenna\\u001b[2J\\u001b]0;PWNED\\u0007" in shown


def test_adjudicate_tells_the_fight_as_text(affray: Affray, hostile: Path, tmp_path: Path) -> None:
    table = tmp_path / "table.toml"
    table.write_text((tmp_path / "hostile.toml").read_text() + '\n[dice]\nmanual = ["brenna/*"]\n')
    rolls = tmp_path / "rolls.toml"
    rolls.write_text(
        "".join(
            f'"brenna/{r["purpose"]}#{r["draw"]}" = {list(r["faces"])}\n'
            for r in logged_rolls(hostile)
            if r["roller"] == "brenna"
        )
    )
    result = affray("adjudicate", table, "-o", tmp_path / "table.jsonl", "--rolls", rolls)
    assert result.code == 0, result
    assert_shown_as_text(result)


def test_a_pipe_gets_the_same_text_as_a_terminal(affray: Affray, tmp_path: Path) -> None:
    # click strips a CSI sequence from what it echoes to a pipe: the name would lose "\x1b[2J" silently
    scenario = tmp_path / "csi.toml"
    scenario.write_text(DUEL.read_text().replace('"Brenna of the Ford"', '"A\\u001b[2JB"'))
    log = tmp_path / "csi.jsonl"
    assert affray("run", scenario, "-o", log).code == 0
    assert "brenna (A\\u001b[2JB) joins" in affray("replay", log).out


def test_a_junit_report_of_golden_logs_with_odd_names_is_xml(
    affray: Affray, hostile: Path, tmp_path: Path
) -> None:
    golden = tmp_path / "golden"
    golden.mkdir()
    hostile.rename(golden / "a\x1b[2Jb.jsonl")
    (golden / "c\x01d.jsonl").write_bytes(b'{"x')
    (golden / os.fsdecode(b"e\xfff.jsonl")).write_bytes(b'{"x')
    report = tmp_path / "junit.xml"
    result = affray("regress", golden, "--junit", report)
    assert result.code == 1, result
    assert_shown_as_text(result)
    names = {case.get("name") for case in ElementTree.parse(report).getroot()}
    assert names == {"a\\u001b[2Jb.jsonl", "c\\u0001d.jsonl", "e\\udcfff.jsonl"}
