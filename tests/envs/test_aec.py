"""The PettingZoo environment: PettingZoo's own API and seed tests, masks, agents leaving, logs that
verify."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import msgspec
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from affray import rulesets
from affray.cli import main
from affray.envs import AffrayEnv, env
from affray.errors import AffrayError, ScenarioError
from affray.events.energion.kinds import IntentChosen
from affray.events.shared import ActionRefused
from tests.strategies import read

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SKIRMISH = EXAMPLES / "skirmish.toml"
DUEL = EXAMPLES / "duel.toml"
BAR_BRAWL = EXAMPLES / "bar-brawl.toml"
FIREFIGHT = EXAMPLES / "firefight.toml"

PETTINGZOO_ADVICE = (
    "Observation space for each agent probably should be",
    "We recommend agents to be named in the format",
    "Observation is not a NumPy array",
    "Agents have different observation space sizes",
    "Agents have different action space sizes",
)
"""api_test's advice that does not fit an affray encounter: an observation is a dict of the numbers and the
action mask (as PettingZoo's chess does), agents are named by their combatants' ids, and a combatant's
menu of actions (so its mask) is as long as its weapons and enemies make it."""


@pytest.fixture
def pettingzoo_advice_ignored() -> Iterator[None]:
    with warnings.catch_warnings():
        for advice in PETTINGZOO_ADVICE:
            warnings.filterwarnings("ignore", message=f"{advice}.*", category=UserWarning)
        yield


def _play(game: AffrayEnv, seed: int) -> list[str]:
    """One episode of random legal actions; the agents in the order they were selected."""
    game.reset(seed=seed)
    for i, agent in enumerate(game.possible_agents):
        game.action_space(agent).seed(seed + i)
    order = []
    for agent in game.agent_iter(10_000):
        observation, _, terminated, truncated, _ = game.last()
        order.append(agent)
        done = terminated or truncated
        game.step(None if done else game.action_space(agent).sample(observation["action_mask"]))
    return order


def _verified(log: bytes, tmp_path: Path) -> bool:
    """Whether ``affray verify`` passes the log."""
    path = tmp_path / "episode.jsonl"
    path.write_bytes(log)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            main(["verify", str(path)])
        except SystemExit as exc:
            return exc.code == 0
    return out.getvalue().startswith("ok: ")


@pytest.mark.usefixtures("pettingzoo_advice_ignored")
@pytest.mark.usefixtures("pettingzoo_advice_ignored")
@pytest.mark.parametrize("scenario", [SKIRMISH, BAR_BRAWL], ids=["energion", "fivestep"])
def test_the_environment_passes_pettingzoos_api_test(scenario: Path) -> None:
    api_test(env(scenario), num_cycles=300)


@pytest.mark.parametrize("scenario", [SKIRMISH, BAR_BRAWL], ids=["energion", "fivestep"])
def test_the_environment_passes_pettingzoos_seed_test(scenario: Path) -> None:
    seed_test(lambda: env(scenario), num_cycles=100)


def test_every_episode_is_a_log_that_verifies(tmp_path: Path) -> None:
    game = env(SKIRMISH)
    _play(game, seed=5)
    assert _verified(game.log(), tmp_path)


def test_each_action_is_recorded_as_the_agents_decision() -> None:
    game = env(DUEL)
    _play(game, seed=2)
    decisions = [e for e in read(game.log()).events if isinstance(e, IntentChosen)]
    assert decisions
    assert {d.controller for d in decisions} == {"external"}
    assert all(d.intent is not None and d.intent.reason.startswith("action ") for d in decisions)


def test_the_action_mask_is_int8_and_marks_exactly_the_legal_intents() -> None:
    game = env(SKIRMISH)
    game.reset(seed=1)
    agent = game.agent_selection
    observation, *_ = game.last()
    mask = observation["action_mask"]
    assert mask.dtype == np.int8
    offered = game.intents(agent)
    legal = [intent for intent, allowed in zip(offered, mask, strict=True) if allowed]
    assert legal
    assert all(intent in offered for intent in legal)
    assert len(mask) == game.action_space(agent).n


def test_an_agent_not_asked_has_an_empty_mask() -> None:
    game = env(SKIRMISH)
    game.reset(seed=1)
    other = next(a for a in game.agents if a != game.agent_selection)
    assert not game.observe(other)["action_mask"].any()


def test_legal_actions_are_not_refused(tmp_path: Path) -> None:
    """Random legal actions for a whole episode: the rules refuse none of them (rolls aside, as
    handlers/energion/legal.py says: the skirmish has no robot, martial artist or random cover)."""
    game = env(SKIRMISH)
    _play(game, seed=9)
    refused = [e for e in read(game.log()).events if isinstance(e, ActionRefused)]
    assert refused == []


def test_agents_that_go_out_leave_and_every_agent_finishes() -> None:
    game = env(SKIRMISH)
    order = _play(game, seed=3)
    assert game.agents == []
    assert set(order) == set(game.possible_agents)


def test_the_other_combatants_keep_their_scenarios_controllers() -> None:
    game = env(DUEL, agents=["brenna"])
    order = _play(game, seed=4)
    assert set(order) == {"brenna"}
    chosen = [e for e in read(game.log()).events if isinstance(e, IntentChosen)]
    assert {d.combatant for d in chosen} == {"brenna"}


def test_the_same_seed_gives_the_same_episode() -> None:
    first, second = env(SKIRMISH), env(SKIRMISH)
    _play(first, seed=11)
    _play(second, seed=11)
    assert first.log() == second.log()


def test_episodes_without_a_seed_take_the_scenarios_battle_seeds_in_turn() -> None:
    game = env(DUEL)
    seeds = []
    for _ in range(2):
        game.reset()
        seeds.append(read(game.log()).header.seed)
    assert seeds[0] != seeds[1]
    again = env(DUEL)
    again.reset()
    assert read(again.log()).header.seed == seeds[0]


def test_an_unknown_agent_is_a_scenario_error() -> None:
    with pytest.raises(ScenarioError, match="agents: nobody"):
        env(DUEL, agents=["nobody"])


def test_an_action_outside_the_menu_is_refused_with_a_clear_error() -> None:
    game = env(DUEL)
    game.reset(seed=1)
    with pytest.raises(ValueError, match=r"is not in 0\.\."):
        game.step(10_000)


def test_a_scenario_with_an_external_combatant_cannot_be_run_without_the_environment() -> None:
    ruleset, scenario = rulesets.load_scenario(DUEL)
    seated = ruleset.seating.seated(scenario, ["brenna"]) if ruleset.seating else scenario
    with pytest.raises(AffrayError, match="played step by step from outside"):
        ruleset.battle(seated).run()


def test_ansi_render_tells_the_events_since_the_last_render() -> None:
    game = env(DUEL, render_mode="ansi")
    game.reset(seed=1)
    first = game.render()
    assert first is not None
    assert "joins side" in first
    game.step(int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0]))
    later = game.render()
    assert later is not None
    assert "joins side" not in later


def test_the_random_agents_example_writes_logs_that_verify(tmp_path: Path) -> None:
    logs = tmp_path / "episodes"
    script = EXAMPLES / "random_agents.py"
    done = subprocess.run(
        [sys.executable, script, SKIRMISH, "--episodes", "2", "--logs", logs],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "episode 1" in done.stdout
    assert all(_verified(path.read_bytes(), tmp_path) for path in sorted(logs.glob("*.jsonl")))


def test_a_fight_ended_by_the_time_limit_truncates_the_agents_standing() -> None:
    _, duel = rulesets.load_scenario(DUEL)
    game = env(msgspec.structs.replace(duel, max_seconds=3))
    game.reset(seed=1)
    truncated = []
    for agent in game.agent_iter(1000):
        _, reward, terminated, was_truncated, _ = game.last()
        if was_truncated:
            truncated.append((agent, reward))
        wait = next(i for i, intent in enumerate(game.intents(agent)) if intent.words() == "wait 1 s")
        game.step(None if terminated or was_truncated else wait)
    assert sorted(truncated) == [("brenna", 0.0), ("gorm", 0.0)]
