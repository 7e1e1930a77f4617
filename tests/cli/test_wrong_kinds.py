"""A file or a value of the wrong kind is named as what it is, with the command that takes it (issue 24,
item 12): a scenario given for a log, a log for a scenario, a seed that is no number, a swept value the
scenario cannot take."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import EXAMPLES, Affray, assert_user_error


def test_a_scenario_given_for_a_log_is_named_a_scenario(affray: Affray) -> None:
    assert_user_error(
        affray("replay", EXAMPLES / "duel.toml"),
        "line 1 is not an affray log header; it reads as a scenario (TOML): `affray run SCENARIO -o LOG`",
    )


def test_a_log_given_for_a_scenario_is_named_a_log(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    assert_user_error(
        affray("run", duel_log, "-o", tmp_path / "again.jsonl"),
        f"{duel_log}: is an affray log, not a scenario: `affray replay` tells it",
    )
    assert not (tmp_path / "again.jsonl").exists()


def test_a_log_too_large_for_a_scenario_is_still_named_a_log(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    big = tmp_path / "big.jsonl"
    big.write_bytes(duel_log.read_bytes() + b" " * (5 << 20))
    assert_user_error(affray("run", big, "-o", tmp_path / "x.jsonl"), "is an affray log, not a scenario")


def test_a_seed_that_is_no_number_says_what_a_seed_is(affray: Affray, tmp_path: Path) -> None:
    assert_user_error(
        affray("run", EXAMPLES / "duel.toml", "--seed", "abc", "-o", tmp_path / "x.jsonl"),
        "'abc': a seed is a whole number from 0 to 9,223,372,036,854,775,807",
    )


def test_a_swept_value_the_scenario_cannot_take_names_the_vary(affray: Affray) -> None:
    assert_user_error(
        affray("battle", EXAMPLES / "duel.toml", "--runs", "2", "--vary", "combatants.brenna.skill=70,abc"),
        '--vary combatants.brenna.skill="abc": ',
        "$.combatants[0].skill: expected `int`, got `str`",
    )
