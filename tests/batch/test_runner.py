"""Running a batch (batch/runner.py): each run fought with its own seed, the same whatever the workers."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from affray import rulesets
from affray.batch.runner import BatchSpec, chunks, load, put, run_batch
from affray.batch.seeds import run_seed
from affray.errors import ScenarioError
from tests.strategies import read_path

ROOT = Path(__file__).resolve().parents[2]
DUEL = BatchSpec(ROOT / "examples" / "duel.toml")


def test_a_run_is_the_fight_its_seed_gives_alone() -> None:
    (outcome,) = [o for o in run_batch(DUEL, 3, 1130) if o.index == 2]
    ruleset, scenario = rulesets.load_scenario(DUEL.path)
    alone = ruleset.battle(msgspec.structs.replace(scenario, seed=run_seed(1130, 2))).run()
    assert (outcome.seed, outcome.end_ms, outcome.winner, outcome.events) == (
        run_seed(1130, 2),
        alone.state.t,
        alone.state.winner,
        alone.count,
    )


def test_two_workers_give_the_outcomes_one_gives_in_the_same_order() -> None:
    alone = list(run_batch(DUEL, 150, 5, jobs=1))
    assert list(run_batch(DUEL, 150, 5, jobs=2)) == alone
    assert [o.index for o in alone] == list(range(150))


def test_progress_is_told_for_every_run() -> None:
    told: list[int] = []
    list(run_batch(DUEL, 70, 5, done=told.append))
    assert sum(told) == 70


def test_runs_are_cut_into_chunks_that_cover_them_once() -> None:
    assert [list(c) for c in chunks(5, size=2)] == [[0, 1], [2, 3], [4]]


def test_a_change_enters_a_list_of_tables_by_id() -> None:
    raw = {"combatants": [{"id": "brenna", "skill": 70}, {"id": "gorm", "skill": 72}]}
    put(raw, "combatants.gorm.skill", 90)
    put(raw, "combatants.0.skill", 50)
    assert raw == {"combatants": [{"id": "brenna", "skill": 50}, {"id": "gorm", "skill": 90}]}


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("combatants.nobody.skill", "no entry 'nobody'"),
        ("nothing.skill", "the scenario has no 'nothing'"),
        ("seed.x", "'x' is not in a table"),
    ],
)
def test_a_change_at_a_path_the_scenario_lacks_is_an_error(path: str, said: str) -> None:
    with pytest.raises(ScenarioError, match=said):
        load(BatchSpec(DUEL.path, ((path, 1),)))


def test_a_change_the_scenario_refuses_names_the_field() -> None:
    with pytest.raises(ScenarioError, match=r"combatants\[1\]\.skill"):
        load(BatchSpec(DUEL.path, (("combatants.gorm.skill", 999),)))


def test_a_mapping_with_entered_enters_only_its_first_rolls_in_their_order() -> None:
    # the points of a fight's odds share one mapping: point k enters the first k rolls
    raw = rulesets.recorded(read_path(ROOT / "tests" / "golden" / "duel.jsonl").header, "duel").scenario
    mapping = msgspec.json.decode(msgspec.json.encode(raw))
    mapping["dice"] = {
        "source": "generated",
        "manual": [],
        "rolled": {"b/hit#1": [5], "a/hit#1": [7], "c/x#1": [1]},
    }
    encoded = msgspec.json.encode(mapping)
    _, scenario = load(BatchSpec(ROOT / "duel", mapping=encoded, entered=2))
    assert scenario.dice.rolled == {"b/hit#1": [5], "a/hit#1": [7]}
