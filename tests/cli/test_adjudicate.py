"""``affray adjudicate``: a fight refereed at a real table, typed in through a real pseudo-terminal.

The duel is refereed with brenna's rolls made at the table (``manual = ["brenna/*"]``) and gorm's rolled
by affray; the rolls typed are those affray itself rolled for brenna, so the fight is the duel's.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from tests.cli.conftest import DUEL, Affray, Result, assert_user_error
from tests.cli.test_entered_dice import logged_rolls

PROMPT = re.compile(rb"(\S+#\d+) (\d+)d(\d+)[^\n]*\]\? ")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def table(tmp_path: Path) -> Path:
    scenario = tmp_path / "table.toml"
    scenario.write_text(DUEL.read_text() + '\n[dice]\nmanual = ["brenna/*"]\n')
    return scenario


@pytest.fixture
def brennas(duel_log: Path) -> dict[str, list[int]]:
    """Brenna's rolls in the duel, by stream and draw."""
    return {
        f"{r['roller']}/{r['purpose']}#{r['draw']}": list(r["faces"])
        for r in logged_rolls(duel_log)
        if r["roller"] == "brenna"
    }


@pytest.fixture
def terminal(table: Path) -> Iterator[pexpect.spawn]:
    """``affray adjudicate`` on a pseudo-terminal, stopped by its process id whatever happens."""
    child = pexpect.spawn(
        sys.executable,
        ["-m", "affray", "adjudicate", str(table), "-o", str(table.with_suffix(".jsonl"))],
        cwd=str(table.parent),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=30,
    )
    try:
        yield child
    finally:
        if child.isalive():
            child.terminate(force=True)


def asked(child: pexpect.spawn) -> str:
    child.expect(PROMPT)
    return child.match.group(1).decode()


def answer_all(child: pexpect.spawn, rolls: dict[str, list[int]], first: str | None = None) -> None:
    roll = first or asked(child)
    while True:
        child.sendline(",".join(map(str, rolls[roll])))
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            return
        roll = child.match.group(1).decode()


def test_a_fight_typed_in_with_an_undo_and_a_bad_entry_verifies_and_marks_the_table_rolls(
    affray: Affray, terminal: pexpect.spawn, table: Path, brennas: dict[str, list[int]]
) -> None:
    first = asked(terminal)
    assert first == "brenna/perception#1"
    terminal.sendline("11")  # a d10 has no 11
    terminal.expect(re.escape("brenna/perception#1 needs a face of 1..10"))
    assert asked(terminal) == first
    terminal.sendline(str(brennas[first][0]))
    second = asked(terminal)
    terminal.sendline(str(brennas[second][0]))
    asked(terminal)  # the third roll: undo the second instead
    terminal.sendline("u")
    terminal.expect(re.escape(f"undone: {second} = {brennas[second][0]}"))
    assert asked(terminal) == second
    answer_all(terminal, brennas, second)
    terminal.close()
    assert terminal.exitstatus == 0, terminal.before
    log = table.with_suffix(".jsonl")
    assert affray("verify", log).code == 0
    sources = {(r["roller"], r["source"]) for r in logged_rolls(log)}
    assert sources == {("brenna", "manual"), ("gorm", "generated")}
    assert affray("replay", log).code == 0


def test_the_same_rolls_from_a_file_give_the_same_log_byte_for_byte(
    affray: Affray, terminal: pexpect.spawn, table: Path, brennas: dict[str, list[int]], tmp_path: Path
) -> None:
    answer_all(terminal, brennas)
    terminal.close()
    rolls = tmp_path / "rolls.toml"
    rolls.write_text("".join(f'"{key}" = {faces}\n' for key, faces in brennas.items()))
    from_file = tmp_path / "from-file.jsonl"
    assert affray("adjudicate", table, "-o", from_file, "--rolls", rolls).code == 0
    assert from_file.read_bytes() == table.with_suffix(".jsonl").read_bytes()


def test_ctrl_c_keeps_the_rolls_so_far_and_resume_carries_on(
    affray: Affray, terminal: pexpect.spawn, table: Path, brennas: dict[str, list[int]]
) -> None:
    first = asked(terminal)
    terminal.sendline(str(brennas[first][0]))
    second = asked(terminal)
    terminal.sendintr()
    terminal.expect(pexpect.EOF)
    terminal.close()
    assert terminal.exitstatus == 130
    assert "the rolls so far are saved in" in terminal.before.decode()
    saved = table.with_name("table.jsonl.rolls.toml")
    assert saved.read_text() == f'"{first}" = {brennas[first][0]}\n'
    assert table.with_name("table.jsonl.partial").exists()
    resumed = pexpect.spawn(
        sys.executable,
        ["-m", "affray", "adjudicate", str(table), "-o", str(table.with_suffix(".jsonl")), "--resume"],
        cwd=str(table.parent),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=30,
    )
    try:
        assert asked(resumed) == second
        answer_all(resumed, brennas, second)
        resumed.close()
    finally:
        if resumed.isalive():
            resumed.terminate(force=True)
    assert resumed.exitstatus == 0
    assert not saved.exists()
    assert affray("verify", table.with_suffix(".jsonl")).code == 0


def test_without_a_terminal_the_rolls_come_from_a_file(affray: Affray, table: Path, tmp_path: Path) -> None:
    assert_user_error(affray("adjudicate", table, "-o", tmp_path / "o.jsonl"), "--rolls FILE")


def test_a_roll_missing_from_the_file_is_one_error_line(affray: Affray, table: Path, tmp_path: Path) -> None:
    rolls = tmp_path / "rolls.toml"
    rolls.write_text('"brenna/perception#1" = 3\n')
    result = affray("adjudicate", table, "-o", tmp_path / "o.jsonl", "--rolls", rolls)
    assert_user_error(result, f"{rolls}: brenna/hit#1 (a d100 for brenna's hit roll) was not entered")


def test_a_scenario_with_no_manual_streams_has_nothing_to_ask(affray: Affray, tmp_path: Path) -> None:
    assert_user_error(affray("adjudicate", DUEL, "-o", tmp_path / "o.jsonl"), "nothing to ask for")


def test_a_malformed_rolls_file_is_one_error_line(affray: Affray, table: Path, tmp_path: Path) -> None:
    rolls = tmp_path / "rolls.toml"
    rolls.write_text('"brenna-hit" = 3\n')
    assert_user_error(affray("adjudicate", table, "-o", tmp_path / "o.jsonl", "--rolls", rolls), str(rolls))


def test_an_existing_output_is_refused_before_anything_is_asked(
    affray: Affray, table: Path, duel_log: Path, tmp_path: Path
) -> None:
    rolls = tmp_path / "rolls.toml"
    rolls.write_text("")
    assert_user_error(affray("adjudicate", table, "-o", duel_log, "--rolls", rolls), "already exists")


def test_a_stopped_sessions_rolls_are_not_written_over(affray: Affray, table: Path, tmp_path: Path) -> None:
    (tmp_path / "o.jsonl.rolls.toml").write_text('"brenna/perception#1" = 3\n')
    result = affray(
        "adjudicate", table, "-o", tmp_path / "o.jsonl", "--rolls", tmp_path / "o.jsonl.rolls.toml"
    )
    assert_user_error(result, "carry on with --resume")


def test_the_terminal_is_told_what_a_roll_needs(
    terminal: pexpect.spawn, brennas: dict[str, list[int]]
) -> None:
    # brenna's first blow: 82.5% (skill 70 + melee 12.5, E4) - Studded Leather 20 against type 2 (E9):
    # a quality above 0 (E6) needs a roll under 62.5
    terminal.sendline(str(brennas[asked(terminal)][0]))
    terminal.expect(
        re.escape("brenna/hit#1: brenna attacks gorm with Sword, Long: under 62.5 to hit (82.5% - armor 20)")
    )
    assert asked(terminal) == "brenna/hit#1"


def _resumed(affray: Affray, table: Path, tmp_path: Path, saved: str, rest: dict[str, list[int]]) -> Result:
    """``adjudicate --resume`` with ``saved`` as the stopped session's rolls file and ``rest`` as --rolls."""
    (tmp_path / "o.jsonl.rolls.toml").write_text(saved)
    rolls = tmp_path / "rest.toml"
    rolls.write_text("".join(f'"{key}" = {faces}\n' for key, faces in rest.items()))
    return affray("adjudicate", table, "-o", tmp_path / "o.jsonl", "--resume", "--rolls", rolls)


def test_resume_takes_the_saved_rolls_as_if_asked(
    affray: Affray, table: Path, tmp_path: Path, brennas: dict[str, list[int]]
) -> None:
    first, *others = brennas
    result = _resumed(
        affray, table, tmp_path, f'"{first}" = {brennas[first]}\n', {k: brennas[k] for k in others}
    )
    assert result.code == 0, result.err
    assert affray("verify", tmp_path / "o.jsonl").code == 0
    assert not (tmp_path / "o.jsonl.rolls.toml").exists()


def test_resume_refuses_a_saved_roll_of_a_stream_the_scenario_rolls_itself(
    affray: Affray, table: Path, tmp_path: Path, brennas: dict[str, list[int]]
) -> None:
    result = _resumed(affray, table, tmp_path, '"gorm/hit#1" = 1\n', brennas)
    saved = tmp_path / "o.jsonl.rolls.toml"
    assert_user_error(result, f"{saved}: gorm/hit#1: not a roll", "does not mark gorm/hit manual")
    assert result.out == ""  # refused before the fight is told
    assert not (tmp_path / "o.jsonl").exists()


def test_resume_refuses_a_saved_roll_the_fight_never_asked_for(
    affray: Affray, table: Path, tmp_path: Path, brennas: dict[str, list[int]]
) -> None:
    result = _resumed(affray, table, tmp_path, '"brenna/hit#99" = 1\n', brennas)
    assert_user_error(result, "brenna/hit#99: not a roll the fight asks for", "did not ask for it")
    assert not (tmp_path / "o.jsonl").exists()


def _from_table(affray: Affray, table: Path, tmp_path: Path, rolls: dict[str, list[int]]) -> Result:
    """``adjudicate --rolls`` with ``rolls`` as the table's rolls file."""
    path = tmp_path / "rolls.toml"
    path.write_text("".join(f'"{key}" = {faces}\n' for key, faces in rolls.items()))
    return affray("adjudicate", table, "-o", tmp_path / "o.jsonl", "--rolls", path)


def test_a_rolls_file_cannot_set_a_roll_of_a_stream_affray_rolls(
    affray: Affray, table: Path, tmp_path: Path, brennas: dict[str, list[int]]
) -> None:
    # issue 22 item 15: a player's file setting gorm's generated hit roll to 1 made the fight another
    result = _from_table(affray, table, tmp_path, {**brennas, "gorm/hit#2": [1]})
    assert_user_error(result, "gorm/hit#2: not a roll", "does not mark gorm/hit manual")
    assert not (tmp_path / "o.jsonl").exists()


def test_a_rolls_file_cannot_hold_a_roll_the_fight_never_asks_for(
    affray: Affray, table: Path, tmp_path: Path, brennas: dict[str, list[int]]
) -> None:
    # brenna rolls brenna/hit#1 to #12 in the duel: #13 is the first the fight never asks for
    assert ("brenna/hit#12" in brennas, "brenna/hit#13" in brennas) == (True, False)
    result = _from_table(affray, table, tmp_path, {**brennas, "brenna/hit#13": [3]})
    assert_user_error(result, f"{tmp_path / 'rolls.toml'}: brenna/hit#13: not a roll the fight asks for")
    assert not (tmp_path / "o.jsonl").exists()


def test_a_special_damage_ruling_never_used_is_one_warning_line(
    affray: Affray, tmp_path: Path, brennas: dict[str, list[int]]
) -> None:
    # S10: the duel with the module, brenna's perception rolled at the table: gorm takes no special damage
    scenario = tmp_path / "ruled.toml"
    scenario.write_text(
        DUEL.read_text().replace("seed = 1130\n", 'seed = 1130\nmodules = ["special_damage"]\n', 1)
        + '\n[dice]\nmanual = ["brenna/perception"]\n'
        + '\n[[rulings]]\ntarget = "gorm"\nstamina = 0\nreason = "a glancing blow"\n'
    )
    rolls = tmp_path / "rolls.toml"
    rolls.write_text(f'"brenna/perception#1" = {brennas["brenna/perception#1"]}\n')
    result = affray("adjudicate", scenario, "-o", tmp_path / "ruled.jsonl", "--rolls", rolls)
    assert result.code == 0
    assert result.err_lines == [
        f"warning: {scenario}: 1 of the rulings on special damage (S10) was never used: "
        "$.rulings[0] (gorm never took special damage)"
    ]
