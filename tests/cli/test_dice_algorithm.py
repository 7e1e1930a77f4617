"""A scenario that names its dice algorithm (``[dice] algorithm``): the header records it, and every tool that
fights the log again (verify, whatif, battle from a log) rolls with it."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from affray.events.energion.kinds import AttackResolved
from tests.cli.conftest import DUEL, Affray, assert_user_error
from tests.strategies import read_path

V2 = "blake2b-ctr-v2"


@pytest.fixture
def v2_log(affray: Affray, tmp_path: Path) -> Path:
    scenario = tmp_path / "duel-v2.toml"
    scenario.write_text(DUEL.read_text() + f'\n[dice]\nalgorithm = "{V2}"\n')
    out = tmp_path / "duel-v2.jsonl"
    result = affray("run", scenario, "-o", out)
    assert (result.code, result.err) == (0, ""), result
    return out


def _hit_faces(log: Path) -> list[tuple[int, ...]]:
    return [e.hit.roll.faces for e in read_path(log).events if isinstance(e, AttackResolved)]


def test_the_header_names_the_algorithm_and_its_scenario_leaves_it_out(v2_log: Path) -> None:
    header = read_path(v2_log).header
    assert (header.dice, "algorithm" in msgspec.json.decode(header.scenario)["dice"]) == (V2, False)


def test_the_algorithm_draws_other_rolls_than_the_default(v2_log: Path, duel_log: Path) -> None:
    assert _hit_faces(v2_log) != _hit_faces(duel_log)


def test_a_log_rolled_with_v2_verifies(affray: Affray, v2_log: Path) -> None:
    assert affray("verify", v2_log).code == 0


def test_a_whatif_of_a_v2_log_rolls_with_v2_and_verifies(
    affray: Affray, v2_log: Path, tmp_path: Path
) -> None:
    child = tmp_path / "ruled.jsonl"
    result = affray("whatif", v2_log, "--seq", "12", "--rule", "miss", "--reason", "r", "-o", child)
    assert result.code == 0, result
    assert (read_path(child).header.dice, affray("verify", child).code) == (V2, 0)


def test_kept_runs_of_a_v2_battle_record_v2(affray: Affray, v2_log: Path, tmp_path: Path) -> None:
    logs = tmp_path / "kept"
    assert affray("battle", f"{v2_log}@12", "--runs", "3", "--keep-logs", "1", "--logs", logs).code == 0
    assert {read_path(path).header.dice for path in logs.glob("run-*.jsonl")} == {V2}


def test_an_unknown_algorithm_is_a_user_error_naming_the_field(affray: Affray, tmp_path: Path) -> None:
    scenario = tmp_path / "duel.toml"
    scenario.write_text(DUEL.read_text() + '\n[dice]\nalgorithm = "mt19937"\n')
    assert_user_error(affray("run", scenario, "-o", tmp_path / "out.jsonl"), "dice.algorithm")
