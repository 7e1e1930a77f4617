"""``affray whatif LOG --seq N --intent COMBATANT:KEY=VALUE``: a combatant played otherwise from a point."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from affray.events.energion.kinds import TargetChosen
from tests.cli.conftest import Affray, assert_user_error
from tests.strategies import read_path

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "examples" / "skirmish.toml"
# In the skirmish mira targets vell at 7 s (seq 32), the nearest bandit, and at 8 s (seq 35) attacks vell.


@pytest.fixture
def skirmish_log(affray: Affray, tmp_path: Path) -> Path:
    log = tmp_path / "skirmish.jsonl"
    assert affray("run", SKIRMISH, "-o", log).code == 0
    return log


def _intent(affray: Affray, log: Path, intent: str) -> Path:
    out = log.parent / "intent.jsonl"
    result = affray(
        "whatif", log, "--seq", "35", "--intent", intent, "--reason", "go for the leader", "-o", out
    )
    assert result.code == 0, result
    return out


def test_from_the_events_time_the_combatant_goes_for_the_ordered_target(
    affray: Affray, skirmish_log: Path
) -> None:
    events = read_path(_intent(affray, skirmish_log, "mira:target=hask")).events
    chosen = [(e.t, e.target) for e in events if isinstance(e, TargetChosen) and e.combatant == "mira"]
    assert chosen[:2] == [(7000, "vell"), (8000, "hask")]


def test_the_order_is_in_the_childs_scenario_and_changes(affray: Affray, skirmish_log: Path) -> None:
    header = read_path(_intent(affray, skirmish_log, "mira:controller=tactician")).header
    orders = msgspec.json.decode(header.scenario)["orders"]
    assert orders == [
        {"combatant": "mira", "at": 8.0, "controller": "tactician", "reason": "go for the leader"}
    ]
    assert header.changes == ["seq 35: mira controller=tactician from then on (go for the leader)"]


def test_an_intent_what_if_verifies(affray: Affray, skirmish_log: Path) -> None:
    assert affray("verify", _intent(affray, skirmish_log, "mira:target=hask")).code == 0


@pytest.mark.parametrize(
    ("intent", "said"),
    [
        pytest.param(
            "mira:target=nobody", "$.orders[0].priority_targets[0]: no combatant 'nobody'", id="target"
        ),
        pytest.param(
            "mira:controller=genius", "'genius' is none of auto, nearest, tactician", id="controller"
        ),
        pytest.param("mira=hask", "expected COMBATANT:target=ID", id="form"),
    ],
)
def test_a_bad_intent_is_one_error_line_and_writes_nothing(
    affray: Affray, skirmish_log: Path, tmp_path: Path, intent: str, said: str
) -> None:
    out = tmp_path / "out.jsonl"
    assert_user_error(affray("whatif", skirmish_log, "--seq", "35", "--intent", intent, "-o", out), said)
    assert not list(tmp_path.glob("out.jsonl*"))


def test_an_intent_needs_its_seq(affray: Affray, skirmish_log: Path, tmp_path: Path) -> None:
    result = affray("whatif", skirmish_log, "--intent", "mira:target=hask", "-o", tmp_path / "out.jsonl")
    assert_user_error(result, "give --seq N")
