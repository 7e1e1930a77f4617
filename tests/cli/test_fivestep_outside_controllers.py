"""A fivestep character played by a controller from outside affray (examples/firefight.toml: Sergeant
Vance, by examples/bots/fivestep_utility.py): each step it declares is recorded (``step_chosen``), and
the log verifies without the controller's code."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from affray.events.fivestep.kinds import ActionTaken, StepChosen
from tests.cli.conftest import EXAMPLES, Affray, run_with_user_code
from tests.cli.test_outside_controllers import forget_bots
from tests.strategies import read_path

FIREFIGHT = EXAMPLES / "firefight.toml"
UTILITY = "bots.fivestep_utility:utility"


@pytest.fixture(scope="module")
def firefight_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The firefight's log as ``affray run`` writes it (run once for the module)."""
    return run_with_user_code(FIREFIGHT, tmp_path_factory.mktemp("firefight") / "firefight.jsonl")


@pytest.fixture
def firefight_log(tmp_path: Path, firefight_bytes: bytes) -> Path:
    path = tmp_path / "firefight.jsonl"
    path.write_bytes(firefight_bytes)
    return path


def test_each_step_the_controller_declares_is_recorded_with_its_reason(firefight_log: Path) -> None:
    declared = [e for e in read_path(firefight_log).events if isinstance(e, StepChosen)]
    assert {(e.combatant, e.controller) for e in declared} == {("vance", UTILITY)}
    assert all(e.step is None or e.step.reason.startswith("best of ") for e in declared)


def test_the_steps_carried_out_are_those_declared(firefight_log: Path) -> None:
    events = read_path(firefight_log).events
    declared = [e.step.reason for e in events if isinstance(e, StepChosen) and e.step is not None]
    taken = [e.reason for e in events if isinstance(e, ActionTaken) and e.combatant == "vance"]
    assert taken
    assert set(taken) <= set(declared)


def test_verify_replays_the_declared_steps_without_the_controllers_code(
    affray: Affray, firefight_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    forget_bots()
    result = affray("verify", firefight_log)
    assert result.code == 0, result
    assert "bots.fivestep_utility" not in sys.modules


def test_replay_tells_each_declared_step(affray: Affray, firefight_log: Path) -> None:
    told = affray("replay", firefight_log).out
    assert f"vance ({UTILITY}) declares: " in told
    assert f"vance ({UTILITY}) declares nothing more" in told
