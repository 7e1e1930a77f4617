"""Rolls made at a real table, entered by stream and draw (``[dice.rolled]``) on the streams marked manual:
the players' rolls typed in, the monsters' rolled by affray."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.cli.conftest import DUEL, Affray, assert_user_error
from tests.strategies import read_path


def rolls_of(value: Any) -> list[dict[str, Any]]:
    """Every roll a logged value records."""
    if isinstance(value, dict):
        own = [value] if "faces" in value else []
        return own + [roll for v in value.values() for roll in rolls_of(v)]
    if isinstance(value, list | tuple):
        return [roll for v in value for roll in rolls_of(v)]
    return []


def logged_rolls(log: Path) -> list[dict[str, Any]]:
    return [roll for event in read_path(log).events for roll in rolls_of(msgspec.to_builtins(event))]


def with_dice(tmp_path: Path, section: str) -> Path:
    scenario = tmp_path / "duel-at-the-table.toml"
    scenario.write_text(DUEL.read_text() + "\n" + section)
    return scenario


def brennas_rolls_entered(duel_log: Path) -> str:
    """A [dice] section entering every roll brenna made in the duel, gorm's left to affray."""
    entered = {
        f"{r['roller']}/{r['purpose']}#{r['draw']}": r["faces"][0] if len(r["faces"]) == 1 else r["faces"]
        for r in logged_rolls(duel_log)
        if r["roller"] == "brenna"
    }
    lines = [f"{json.dumps(key)} = {json.dumps(value)}" for key, value in entered.items()]
    return "\n".join(["[dice]", 'manual = ["brenna/*"]', "", "[dice.rolled]", *lines]) + "\n"


@pytest.fixture
def table_log(affray: Affray, tmp_path: Path, duel_log: Path) -> Path:
    scenario = with_dice(tmp_path, brennas_rolls_entered(duel_log))
    out = tmp_path / "table.jsonl"
    result = affray("run", scenario, "-o", out)
    assert (result.code, result.err) == (0, ""), result
    return out


def test_rolls_entered_for_one_side_mark_its_rolls_manual_and_the_others_generated(table_log: Path) -> None:
    sources = {(r["roller"], r["source"]) for r in logged_rolls(table_log)}
    assert sources == {("brenna", "manual"), ("gorm", "generated")}


def test_the_rolls_rolled_at_the_table_give_the_fight_affray_rolled(table_log: Path, duel_log: Path) -> None:
    as_rolled = [{**r, "source": "generated"} for r in logged_rolls(table_log)]
    assert as_rolled == logged_rolls(duel_log)


def test_a_fight_with_entered_rolls_verifies(affray: Affray, table_log: Path) -> None:
    assert affray("verify", table_log).code == 0


def test_replay_shows_each_rolls_stream_and_draw_and_marks_the_entered(
    affray: Affray, table_log: Path
) -> None:
    told = affray("replay", table_log).out
    assert "@brenna/hit#1, manual" in told
    assert "@gorm/hit#1" in told
    assert "@gorm/hit#1, manual" not in told


def test_a_roll_missing_from_a_manual_stream_names_it_and_when_it_was_wanted(
    affray: Affray, tmp_path: Path
) -> None:
    scenario = with_dice(tmp_path, '[dice]\nmanual = ["brenna/*"]\n')
    result = affray("run", scenario, "-o", tmp_path / "out.jsonl")
    assert_user_error(
        result, "$.dice.rolled: brenna/perception#1 (a d10 for brenna's perception roll) was not entered"
    )


def test_entered_rolls_never_asked_for_are_one_warning(
    affray: Affray, tmp_path: Path, duel_log: Path
) -> None:
    scenario = with_dice(tmp_path, brennas_rolls_entered(duel_log) + '"brenna/hit#99" = 50\n')
    result = affray("run", scenario, "-o", tmp_path / "out.jsonl")
    assert result.code == 0
    assert result.err_lines == [
        f"warning: {scenario}: 1 of the rolls entered in $.dice.rolled were never asked for: brenna/hit#99"
    ]


def test_a_malformed_roll_name_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    scenario = with_dice(tmp_path, '[dice.rolled]\n"brenna-hit-1" = 50\n')
    assert_user_error(affray("run", scenario, "-o", tmp_path / "out.jsonl"), "$.dice.rolled")
