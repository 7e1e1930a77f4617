"""Bad numbers in a scenario or a table file through ``affray run``: each is one ``error:`` line naming the
file and the field (or line), never a traceback or a hang (docs/scenario-format.md, "Ranges").

Each case edits one line of an example, so it differs from a scenario that runs by the mistake under test.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli.conftest import DUEL, EXAMPLES, Affray, Result, assert_user_error, run_process

DUEL_TEXT = DUEL.read_text()
LONG = "9" * 5000
"""More digits than Python turns into an integer (4300)."""


def _example(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """A copy of ``examples/<name>`` (and its tables) with ``old`` replaced by ``new`` once, every
    character played by affray's own controllers (these tests are of its files, not of code of one's own)."""
    shutil.copytree(EXAMPLES / "tables", tmp_path / "tables")
    lines = (EXAMPLES / name).read_text().splitlines(keepends=True)
    text = "".join(line for line in lines if not line.startswith("controller = "))
    assert old in text, old
    path = tmp_path / "scenario.toml"
    path.write_text(text.replace(old, new, 1))
    return path


def _table(tmp_path: Path, table: str, old: str, new: str) -> Path:
    """The firefight example, whose table ``table`` has ``old`` replaced by ``new`` once."""
    scenario = _example(tmp_path, "firefight.toml", "seed", "seed")
    path = tmp_path / "tables" / "fivestep" / f"{table}.toml"
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))
    return scenario


def _run(affray: Affray, scenario: Path) -> Result:
    return affray("run", scenario, "-o", scenario.with_suffix(".jsonl"), "--force")


# -- positions -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e308", "1e25"])
def test_a_position_that_is_huge_or_not_finite_is_one_error_line(
    affray: Affray, tmp_path: Path, value: str
) -> None:
    scenario = _example(tmp_path, "duel.toml", "position = [0, 0]", f"position = [{value}, 0]")
    assert_user_error(_run(affray, scenario), str(scenario), "$.combatants[0].position[0]")


def test_a_fivestep_position_that_is_not_finite_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    scenario = _example(tmp_path, "firefight.toml", "position = [0, 0]", "position = [nan, 0]")
    assert_user_error(_run(affray, scenario), "$.combatants[0].position[0]")


# -- dice ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reaction", "said"),
    [
        pytest.param("1d99999999999999999999", "the number of faces is at most 1,000,000", id="faces"),
        pytest.param("999999999d6", "the number of dice is at most 1,000", id="dice"),
    ],
)
def test_dice_that_would_never_finish_are_one_error_line(tmp_path: Path, reaction: str, said: str) -> None:
    # a real process with a timeout: before the limits these never finished
    scenario = _example(tmp_path, "duel.toml", "reaction = 1", f'reaction = "{reaction}"')
    result = run_process("run", scenario, "-o", tmp_path / "o.jsonl")
    assert_user_error(result, str(scenario), "$.combatants[0].reaction", repr(reaction), said)


def test_a_die_too_long_to_convert_is_one_short_error_line(affray: Affray, tmp_path: Path) -> None:
    scenario = _example(tmp_path, "duel.toml", "reaction = 1", f'reaction = "1d{LONG}"')
    result = affray("run", scenario, "-o", tmp_path / "o.jsonl")
    assert_user_error(result, "$.combatants[0].reaction", "the number of faces is at most")
    assert len(result.err) < 300


def test_a_manual_roll_larger_than_any_die_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    rolls = 'seed = 1130\ndice = { source = "manual", rolls = [99999999999999999999999999999999] }'
    scenario = _example(tmp_path, "duel.toml", "seed = 1130", rolls)
    assert_user_error(_run(affray, scenario), "$.dice.rolls[0]", "1000000")


def test_a_damage_die_roll_of_too_many_dice_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    scenario = _example(tmp_path, "bar-brawl.toml", 'damage = "1/2+1"', 'damage = "1+99999999999999999999"')
    assert_user_error(
        _run(affray, scenario),
        "$.combatants[0].weapons[0].damage",
        "'1+99999999999999999999'",
        "Y at most 1,000,000",
    )


def test_a_damage_die_roll_too_long_to_convert_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    scenario = _example(tmp_path, "bar-brawl.toml", 'damage = "1/2+1"', f'damage = "{LONG}+1"')
    assert_user_error(_run(affray, scenario), "$.combatants[0].weapons[0].damage", "X is at most 1,000")


def test_a_huge_wep_mod_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    scenario = _example(tmp_path, "firefight.toml", "wep_mod = 4", "wep_mod = 99999999999999999999999999")
    assert_user_error(_run(affray, scenario), "$.combatants[0].weapons[1].wep_mod", "1000000")


# -- integers and nesting TOML cannot read -------------------------------------------------------------


def test_a_seed_of_more_than_4300_digits_is_one_error_line_naming_its_line(
    affray: Affray, tmp_path: Path
) -> None:
    scenario = _example(tmp_path, "duel.toml", "seed = 1130", f"seed = {LONG}")
    line = next(n for n, text in enumerate(DUEL_TEXT.splitlines(), start=1) if text.startswith("seed"))
    assert_user_error(_run(affray, scenario), str(scenario), f"line {line}", "more than 4300 digits")


def test_an_integer_of_more_than_4300_digits_in_a_combatant_is_one_error_line(
    affray: Affray, tmp_path: Path
) -> None:
    scenario = _example(tmp_path, "duel.toml", "damage_points = 32", f"damage_points = {LONG}")
    assert_user_error(_run(affray, scenario), str(scenario), "more than 4300 digits")


def test_arrays_nested_a_thousand_deep_are_one_error_line(affray: Affray, tmp_path: Path) -> None:
    nested = "position = " + "[" * 1000 + "]" * 1000
    scenario = _example(tmp_path, "duel.toml", "position = [0, 0]", nested)
    assert_user_error(_run(affray, scenario), str(scenario), "nested too deeply")


# -- table files ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "old", "new", "field"),
    [
        pytest.param("3-6", "cost = 2", "cost = nan", "$.row[0].cost", id="cost-nan"),
        pytest.param("3-6", "cost = 2", "cost = inf", "$.row[0].cost", id="cost-inf"),
        pytest.param(
            "3-3.1",
            "circulatory = 0.5",
            "circulatory = inf",
            "$.part[0].factors.circulatory",
            id="factor-inf",
        ),
        pytest.param(
            "3-3.1",
            "circulatory = 0.5",
            "circulatory = 1e308",
            "$.part[0].factors.circulatory",
            id="factor-huge",
        ),
        pytest.param("3-7.0", "modifier = 0", "modifier = nan", "$.row[0].modifier", id="adversity-nan"),
    ],
)
def test_a_table_number_that_is_huge_or_not_finite_is_one_error_line(
    affray: Affray, tmp_path: Path, table: str, old: str, new: str, field: str
) -> None:
    scenario = _table(tmp_path, table, old, new)
    assert_user_error(_run(affray, scenario), f"{table}.toml", field, "finite number")


def test_a_table_integer_of_more_than_4300_digits_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    scenario = _table(tmp_path, "3-6", "cost = 2", f"cost = {LONG}")
    assert_user_error(_run(affray, scenario), "3-6.toml", "more than 4300 digits")


def test_a_table_nested_a_thousand_deep_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    scenario = _table(tmp_path, "3-6", "cost = 2", "cost = " + "[" * 1000 + "]" * 1000)
    assert_user_error(_run(affray, scenario), "3-6.toml", "nested too deeply")


def test_a_table_path_holding_a_nul_byte_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    old = '"3-1" = "tables/fivestep/3-1.toml"'
    scenario = _example(tmp_path, "firefight.toml", old, '"3-1" = "a\\u0000b"')
    assert_user_error(_run(affray, scenario), str(scenario), "$.tables.3-1", "not a file name")


# -- referee's rulings ---------------------------------------------------------------------------------


def test_a_ruling_replacing_with_an_unknown_damage_names_it_and_the_close_ones(
    affray: Affray, tmp_path: Path
) -> None:
    old = 'replace_with = "Arm damage"'
    scenario = _example(tmp_path, "robots.toml", old, 'replace_with = "Arm damag"')
    assert_user_error(
        _run(affray, scenario),
        str(scenario),
        "$.rulings[0].replace_with",
        "no damage 'Arm damag'",
        "'Arm damage'",
    )


def test_a_ruling_replacing_with_a_living_damage_on_a_robot_is_one_error_line(
    affray: Affray, tmp_path: Path
) -> None:
    old = 'replace_with = "Arm damage"'
    scenario = _example(tmp_path, "robots.toml", old, 'replace_with = "Leg wound"')
    assert_user_error(_run(affray, scenario), "$.rulings[0].replace_with", "Table 4")


def test_a_ruling_of_a_huge_stamina_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    scenario = _example(tmp_path, "robots.toml", "nth = 1\n", f"nth = 1\nstamina = {'9' * 60}\n")
    assert_user_error(_run(affray, scenario), "$.rulings[0].stamina", "10000")
