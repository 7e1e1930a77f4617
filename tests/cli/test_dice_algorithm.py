"""A scenario that names its dice algorithm (``[dice] algorithm``): the header records it, and every tool that
fights the log again (verify, whatif, battle from a log) rolls with it."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from affray.events.energion.kinds import AttackResolved
from tests.cli.conftest import DUEL, Affray, assert_user_error
from tests.strategies import read_path

V1 = "blake2b-ctr-v1"
"""Not the default: a scenario names it to roll with it."""


@pytest.fixture
def v1_log(affray: Affray, tmp_path: Path) -> Path:
    scenario = tmp_path / "duel-v1.toml"
    scenario.write_text(DUEL.read_text() + f'\n[dice]\nalgorithm = "{V1}"\n')
    out = tmp_path / "duel-v1.jsonl"
    result = affray("run", scenario, "-o", out)
    assert (result.code, result.err) == (0, ""), result
    return out


def _hit_faces(log: Path) -> list[tuple[int, ...]]:
    return [e.hit.roll.faces for e in read_path(log).events if isinstance(e, AttackResolved)]


def test_the_header_names_the_algorithm_and_its_scenario_leaves_it_out(v1_log: Path) -> None:
    header = read_path(v1_log).header
    assert (header.dice, "algorithm" in msgspec.json.decode(header.scenario)["dice"]) == (V1, False)


def test_the_algorithm_draws_other_rolls_than_the_default(v1_log: Path, duel_log: Path) -> None:
    assert _hit_faces(v1_log) != _hit_faces(duel_log)


def test_a_log_rolled_with_v1_verifies(affray: Affray, v1_log: Path) -> None:
    assert affray("verify", v1_log).code == 0


def test_a_whatif_of_a_v1_log_rolls_with_v1_and_verifies(
    affray: Affray, v1_log: Path, tmp_path: Path
) -> None:
    child = tmp_path / "ruled.jsonl"
    result = affray("whatif", v1_log, "--seq", "13", "--rule", "miss", "--reason", "r", "-o", child)
    assert result.code == 0, result
    assert (read_path(child).header.dice, affray("verify", child).code) == (V1, 0)


def test_kept_runs_of_a_v1_battle_record_v1(affray: Affray, v1_log: Path, tmp_path: Path) -> None:
    logs = tmp_path / "kept"
    assert affray("battle", f"{v1_log}@12", "--runs", "3", "--keep-logs", "1", "--logs", logs).code == 0
    assert {read_path(path).header.dice for path in logs.glob("run-*.jsonl")} == {V1}


def test_an_unknown_algorithm_is_a_user_error_naming_the_field(affray: Affray, tmp_path: Path) -> None:
    scenario = tmp_path / "duel.toml"
    scenario.write_text(DUEL.read_text() + '\n[dice]\nalgorithm = "mt19937"\n')
    assert_user_error(affray("run", scenario, "-o", tmp_path / "out.jsonl"), "dice.algorithm")
