"""``affray battle LOG@N --runs K``: a recorded fight fought on after its event N, every roll up to it as
recorded and every later roll drawn from a run's own seed (affray.replays.continuation; issue 25, item 1)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from affray.events.energion.kinds import AttackResolved
from tests.cli.conftest import Affray, assert_user_error
from tests.strategies import read_path

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples" / "duel.toml"
CORPUS_V3 = ROOT / "tests" / "corpus" / "format-1-energion-v3" / "duel.jsonl"


@pytest.fixture
def duel_log(affray: Affray, tmp_path: Path) -> Path:
    log = tmp_path / "duel.jsonl"
    assert affray("run", DUEL, "-o", log).code == 0
    return log


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open() as file:
        return list(csv.DictReader(file))


def test_from_the_start_each_run_is_the_scenarios_run_of_the_same_seed(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    # nothing is entered before seq 0, and the same seeds draw the same rolls: common random numbers
    assert affray("battle", f"{duel_log}@0", "--runs", "60", "-o", tmp_path / "log.csv").code == 0
    assert affray("battle", DUEL, "--runs", "60", "-o", tmp_path / "scenario.csv").code == 0
    assert _rows(tmp_path / "log.csv") == _rows(tmp_path / "scenario.csv")


def test_from_the_last_event_every_run_ends_as_the_fight_did(affray: Affray, duel_log: Path) -> None:
    last = read_path(duel_log).events[-1]
    report = json.loads(affray("battle", f"{duel_log}@{last.seq}", "--runs", "30", "--json").out)
    wins = {side["side"]: side["wins"]["count"] for side in report["sides"]}
    assert (wins, report["time_percentiles_s"]["p10"], report["events_mean"]) == (
        {"ford": 30, "raiders": 0},
        last.t / 1000,
        last.seq,
    )


def test_every_run_replays_the_fight_up_to_its_point_then_draws_its_own(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    # kept logs are runs fought again: each begins as the recorded fight did, up to seq 12, and they part
    logs = tmp_path / "kept"
    result = affray("battle", f"{duel_log}@12", "--runs", "40", "--keep-logs", "3", "--logs", logs)
    assert result.code == 0, result
    recorded = [(type(e), e.t) for e in read_path(duel_log).events if e.seq <= 12]
    kept = [read_path(path).events for path in sorted(logs.glob("run-*.jsonl"))]
    assert all([(type(e), e.t) for e in events[:12]] == recorded for events in kept)
    blows = {tuple(e.hit.roll.faces for e in events[12:] if isinstance(e, AttackResolved)) for events in kept}
    assert len(blows) > 1
    assert all(affray("verify", path).code == 0 for path in logs.glob("run-*.jsonl"))


def test_the_report_says_whence_it_is_fought_on(affray: Affray, duel_log: Path) -> None:
    first = affray("battle", f"{duel_log}@12", "--runs", "10").out.splitlines()[0]
    assert first == "Duel at the ford, fought on after seq 12: 10 runs from seed 1130"


def test_two_jobs_fight_on_as_one_does(affray: Affray, duel_log: Path) -> None:
    one = json.loads(affray("battle", f"{duel_log}@8", "--runs", "130", "--json").out)
    two = json.loads(affray("battle", f"{duel_log}@8", "--runs", "130", "--json", "--jobs", "2").out)
    assert one == two


def test_a_point_past_the_logs_end_is_one_error_line(affray: Affray, duel_log: Path) -> None:
    assert_user_error(affray("battle", f"{duel_log}@99", "--runs", "5"), "the log's events run to seq 31")


def test_a_log_of_an_older_ruleset_version_is_one_error_line(affray: Affray) -> None:
    result = affray("battle", f"{CORPUS_V3}@5", "--runs", "5")
    assert_user_error(result, "made under energion version 3", "a fight is fought on from a log that does")


def test_a_sweep_of_a_log_fought_on_is_one_error_line(affray: Affray, duel_log: Path) -> None:
    result = affray("battle", f"{duel_log}@3", "--runs", "5", "--vary", "combatants.gorm.skill=50,60")
    assert_user_error(result, "--vary sweeps a scenario's values, not a recorded fight fought on")


def test_a_cut_log_is_one_error_line(affray: Affray, duel_log: Path) -> None:
    lines = duel_log.read_bytes().splitlines(keepends=True)
    duel_log.write_bytes(b"".join(lines[:-3]))
    assert_user_error(
        affray("battle", f"{duel_log}@3", "--runs", "5"), "a fight is fought on from a whole log"
    )
