"""The fivestep ruleset through the ``affray`` command: procedures in the header and on every step's line,
tables carried in the log, and one ``error:`` line for each mistake in a scenario or its tables."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from affray.events.codec import encode_log
from affray.handlers.fivestep.battle import FivestepBattle
from tests.cli.conftest import EXAMPLES, Affray, assert_user_error
from tests.handlers.fivestep import RIFLE, character, scenario
from tests.strategies import header_for, read_path

FIREFIGHT = EXAMPLES / "firefight.toml"
FIREFIGHT_TEXT = "\n".join(
    line for line in FIREFIGHT.read_text().splitlines() if not line.startswith("controller = ")
)
"""The firefight with every character played by affray's own controller (these tests are of its rules,
not of the controller from outside that plays Sergeant Vance there)."""


@pytest.fixture
def firefight(tmp_path: Path) -> Path:
    """A copy of the firefight example and its tables in this test's directory."""
    shutil.copytree(EXAMPLES / "tables", tmp_path / "tables")
    path = tmp_path / "firefight.toml"
    path.write_text(FIREFIGHT_TEXT)
    return path


def _mutated(path: Path, old: str, new: str) -> Path:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))
    return path


def test_the_header_records_the_procedure_chosen_for_each_step(affray: Affray, firefight: Path) -> None:
    # rule F4: the scenario picks one procedure per step, and the log's header keeps the choice
    assert affray("run", firefight, "-o", firefight.with_suffix(".jsonl")).code == 0
    header = read_path(firefight.with_suffix(".jsonl")).header
    scenario = json.loads(bytes(header.scenario))
    assert header.ruleset == "fivestep"
    assert scenario["procedures"] == {
        "surprise": 2,
        "primary_attack": 3,
        "primary_each_round": 1,
        "action": 2,
        "to_hit": 3,
        "damage": 3,
    }


def test_the_run_summary_tells_points_by_body_part_not_damage_points(
    affray: Affray, firefight: Path, tmp_path: Path
) -> None:
    # F11: each part has its own points; vance took 18 + 8 + 3 + 21 = 50 on his left leg, chest, left arm and
    # head, and his head's 21 of its 12 leave it without function
    result = affray("run", firefight, "-o", tmp_path / "f.jsonl")
    assert result.code == 0, result
    rows = {line.split()[0]: line for line in result.out.splitlines()[1:]}
    assert "took 50 points on 4 body parts; without function: head; out" in rows["vance"]
    assert "; unhurt; standing" in rows["mara"]
    assert " DP" not in result.out


def test_the_state_counts_the_parts_that_still_function(
    affray: Affray, firefight: Path, tmp_path: Path
) -> None:
    # F11: vance's head is without function: 6 of his 7 parts still work
    out = tmp_path / "f.jsonl"
    assert affray("run", firefight, "-o", out).code == 0
    shown = affray("state", out).out.splitlines()
    assert shown[2].split() == ["id", "side", "left", "position", "status", "target"]
    vance = next(line for line in shown if line.split()[:1] == ["vance"])
    assert "6/7 parts" in vance


def test_the_replay_names_each_steps_procedure(affray: Affray, firefight: Path) -> None:
    # rule F4: surprise, primary attack, action, percent to hit and damage lines each say their procedure
    log = firefight.with_suffix(".jsonl")
    affray("run", firefight, "-o", log)
    told = affray("replay", log).out
    for step in (
        "surprise, procedure 2",
        "primary attack, procedure 3 (by 1, every round)",
        "(action procedure 2)",
        "to hit procedure 3",
        "(damage procedure 3",
    ):
        assert step in told, step


def test_a_log_verifies_without_its_table_files(affray: Affray, firefight: Path) -> None:
    # the header holds the tables' text: the fight re-simulates after the files are gone or changed
    log = firefight.with_suffix(".jsonl")
    affray("run", firefight, "-o", log)
    shutil.rmtree(firefight.parent / "tables")
    result = affray("verify", log)
    assert result.code == 0, result
    assert result.out.startswith("ok: ")


def test_a_changed_table_changes_the_fight(affray: Affray, firefight: Path) -> None:
    # a recorded fight is a regression test: edit a table and the same scenario no longer gives the same log
    before, after = firefight.with_suffix(".before.jsonl"), firefight.with_suffix(".after.jsonl")
    affray("run", firefight, "-o", before)
    _mutated(
        firefight.parent / "tables/fivestep/3-1.toml",
        "values = [15, 30, 50, 70, 85]",
        "values = [15, 30, 30, 70, 85]",
    )
    affray("run", firefight, "-o", after)
    assert before.read_bytes() != after.read_bytes()


def test_a_fivestep_fight_with_special_damage_heals_and_still_verifies(
    affray: Affray, tmp_path: Path
) -> None:
    # rules S7, S8 after a fivestep fight: blue's deeply cut side and the bot's broken brain casing heal on
    # the long clock, and the healed log re-simulates
    built = scenario(
        character("red", "red", aim=90, weapons=[RIFLE], robotics_skill=3),
        character("blue", "blue", position=[20, 0], aim=90, weapons=[RIFLE], robotics_skill=4),
        character("bot", "blue", position=[22, 3], kind="robot", weapons=[RIFLE]),
        procedures={"to_hit": 1},
        seed=903,
        modules=["special_damage"],
    )
    battle = FivestepBattle(built)
    fought, healed = tmp_path / "fought.jsonl", tmp_path / "healed.jsonl"
    fought.write_bytes(encode_log(header_for(battle.scenario), battle.run().log))
    result = affray("heal", fought, "--days", "30", "-o", healed)
    assert result.code == 0, result
    assert "2 of 2 injuries healed or repaired" in result.out
    assert affray("verify", healed).code == 0


# (id, text in firefight.toml, replacement, what the error line must name besides the file)
MISTAKES = [
    pytest.param(
        '"3-2" = "tables/fivestep/3-2.toml"\n',
        "",
        ["$.procedures.to_hit", "Table 3-2"],
        id="to-hit-3-needs-3-2",
    ),
    pytest.param(
        '"3-1" = "tables/fivestep/3-1.toml"\n',
        "",
        ["$.procedures.to_hit", "Table 3-1"],
        id="to-hit-3-needs-3-1",
    ),
    pytest.param(
        '"3-3" = "tables/fivestep/3-3.toml"\n',
        "",
        ["$.procedures.damage", "Table 3-3"],
        id="damage-3-needs-3-3",
    ),
    pytest.param(
        '"3-6" = "tables/fivestep/3-6.toml"\n',
        "",
        ["$.procedures.action", "Table 3-6"],
        id="action-2-needs-3-6",
    ),
    pytest.param(
        '"3-4.1" = "tables/fivestep/3-4.1.toml"\n',
        "",
        ["$.combatants[0].weapons[0]", "grenade", "Table 3-4.1"],
        id="grenades-need-3-4-1",
    ),
    pytest.param(
        '"3-7.1" = "tables/fivestep/3-7.1.toml"\n',
        "",
        ["$.adversity.attacker_moved", "Table 3-7.1"],
        id="adversity-table",
    ),
    pytest.param(
        '"3-2" = "tables/fivestep/3-2.toml"',
        '"3-2" = "tables/fivestep/3-1.toml"',
        ["3-1.toml", "Table 3-1", "3-2"],
        id="wrong-table-file",
    ),
    pytest.param(
        '"3-2" = "tables/fivestep/3-2.toml"',
        '"3-2" = "tables/fivestep/nowhere.toml"',
        ["$.tables.3-2", "no such file"],
        id="missing-table-file",
    ),
    pytest.param(
        'condition = "light rain"',
        'condition = "hail"',
        ["$.adversity.always[0]", "hail"],
        id="unknown-condition",
    ),
    pytest.param(
        'action = "fire a rifle", ammunition = 30 }]',
        'action = "snipe", ammunition = 30 }]',
        ["$.combatants[1].weapons[0].action", "snipe"],
        id="unknown-action",
    ),
    pytest.param(
        "wep_mod = 4, damage_type",
        "wep_mod = 9, damage_type",
        ["$.combatants[0].weapons[1].wep_mod", "9"],
        id="wep-mod-not-in-3-3",
    ),
    pytest.param(
        'body = "human"', 'body = "dralasite"', ["$.combatants[0].body", "dralasite"], id="unknown-body"
    ),
    pytest.param("to_hit = 3", "to_hit = 4", ["$.procedures.to_hit"], id="no-such-procedure"),
    pytest.param("damage = 3 ", "damage = 1 ", ["$.procedures.damage"], id="damage-procedure-1"),
    pytest.param(
        "borrowing = true", "borrowing = true\nsub_turns = 0", ["$.options.sub_turns"], id="zero-sub-turns"
    ),
    pytest.param(
        "alertness = 65", "alertness = 65\njoins_at = 10", ["$.sides", "two sides"], id="one-side-at-start"
    ),
    pytest.param(
        "action = 2 ", "action = 1 ", ["$.options.borrowing", "procedure 1"], id="borrowing-without-points"
    ),
]


@pytest.mark.parametrize(("old", "new", "fragments"), MISTAKES)
def test_a_mistake_is_one_error_line(
    affray: Affray, firefight: Path, old: str, new: str, fragments: list[str]
) -> None:
    # rule F4: a procedure whose table is missing fails at load, naming the table: nothing is simulated
    path = _mutated(firefight, old, new)
    out = firefight.with_suffix(".jsonl")
    result = affray("run", path, "-o", out)
    assert_user_error(result, str(path), *fragments)
    assert not out.exists()


def test_a_broken_table_file_names_the_file_and_field(affray: Affray, firefight: Path) -> None:
    _mutated(firefight.parent / "tables/fivestep/3-3.toml", "range_m = [3,", 'range_m = ["near",')
    result = affray("run", firefight, "-o", firefight.with_suffix(".jsonl"))
    assert_user_error(result, "3-3.toml", "$.range_m")
