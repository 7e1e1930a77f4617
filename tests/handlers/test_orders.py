"""Standing orders (``[[orders]]``): a combatant played otherwise from a time on, in both rulesets.

The skirmish (examples/skirmish.toml) without orders: mira (the watch, nearest-enemy controller) targets
vell at 7 s, the nearest bandit 3.000 m away, then rusk, 8.246 m away, at 11 s, and hask only at 33 s. The
bar brawl (examples/bar-brawl.toml): lily goes for bruno, the nearest.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from affray.errors import ScenarioError
from affray.events.energion.kinds import TargetChosen
from affray.events.fivestep.kinds import ToHitResolved
from affray.handlers.orders import Order, StandingOrders
from affray.kernel.encounter import Encounter
from affray.kernel.scenario import parse_toml
from affray.rulesets import ruleset

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SKIRMISH = EXAMPLES / "skirmish.toml"
BRAWL = EXAMPLES / "bar-brawl.toml"


def load(path: Path, orders: str) -> Any:
    raw = parse_toml(path.read_text() + "\n" + orders, path.name)
    return ruleset(str(raw["ruleset"])).load(raw, path.name, EXAMPLES)


def run(path: Path, orders: str = "") -> Encounter[Any]:
    scenario = load(path, orders)
    return ruleset(scenario.ruleset).battle(scenario).run()


def targets(encounter: Encounter[Any], who: str) -> list[tuple[int, str, str]]:
    return [
        (e.t, e.target, e.reason) for e in encounter.log if isinstance(e, TargetChosen) and e.combatant == who
    ]


def test_an_order_sends_the_combatant_after_its_target_from_its_time() -> None:
    chosen = targets(
        run(SKIRMISH, '[[orders]]\ncombatant = "mira"\nat = 8\npriority_targets = ["hask"]\n'), "mira"
    )
    assert chosen[0][:2] == (7000, "vell")  # before 8 s: the nearest, as without the order
    assert chosen[1][1] == "hask"
    assert chosen[1][2].startswith("priority target, ")


def test_an_order_changes_who_plays_the_combatant() -> None:
    ordered = run(SKIRMISH, '[[orders]]\ncombatant = "mira"\nat = 0\ncontroller = "tactician"\n')
    played = {e.controller for e in ordered.log if isinstance(e, TargetChosen) and e.combatant == "mira"}
    assert played == {"tactician"}


def test_a_fivestep_order_sends_the_character_after_its_target() -> None:
    # without the order lily's first attack is on bruno, the nearest; ordered, it is on gus
    def first_target(encounter: Encounter[Any]) -> str:
        return next(e.target for e in encounter.log if isinstance(e, ToHitResolved) and e.attacker == "lily")

    assert first_target(run(BRAWL)) == "bruno"
    assert (
        first_target(run(BRAWL, '[[orders]]\ncombatant = "lily"\nat = 0\npriority_targets = ["gus"]\n'))
        == "gus"
    )


def test_without_orders_the_scenario_writes_none() -> None:
    scenario = load(SKIRMISH, "")
    header = ruleset("energion").header(scenario)
    assert b'"orders"' not in bytes(header.scenario)


@pytest.mark.parametrize(
    ("order", "said"),
    [
        pytest.param(
            'combatant = "nobody"\nat = 1\ncontroller = "nearest"',
            "$.orders[0].combatant: no combatant 'nobody'",
            id="who",
        ),
        pytest.param(
            'combatant = "mira"\nat = 1',
            "$.orders[0]: an order gives priority_targets or a controller",
            id="nothing",
        ),
        pytest.param(
            'combatant = "mira"\nat = 1\npriority_targets = ["x"]',
            "$.orders[0].priority_targets[0]: no combatant 'x'",
            id="target",
        ),
        pytest.param(
            'combatant = "mira"\nat = 1\ncontroller = "genius"',
            "$.orders[0].controller: 'genius' is none of auto, nearest, tactician",
            id="controller",
        ),
    ],
)
def test_a_bad_order_is_an_error_naming_its_field(order: str, said: str) -> None:
    with pytest.raises(ScenarioError, match=f"skirmish.toml: {re.escape(said)}"):
        load(SKIRMISH, f"[[orders]]\n{order}\n")


def test_the_latest_order_in_effect_counts() -> None:
    orders = [
        Order(combatant="a", at=1, priority_targets=["x"]),
        Order(combatant="a", at=3, priority_targets=["y"]),
    ]
    standing = StandingOrders(orders, lambda name, who: name)
    assert [standing.priority("a", ms, ("own",)) for ms in (0, 1000, 2999, 3000)] == [
        ("own",),
        ("x",),
        ("x",),
        ("y",),
    ]


def test_next_after_is_when_the_first_later_order_takes_effect() -> None:
    orders = [
        Order(combatant="a", at=1, controller="nearest"),
        Order(combatant="a", at=3, controller="tactician"),
    ]
    standing = StandingOrders(orders, lambda name, who: name)
    assert [standing.next_after("a", ms) for ms in (0, 1000, 2999, 3000)] == [1000, 3000, 3000, None]
    assert standing.next_after("b", 0) is None


def test_an_orders_controller_is_made_once_and_kept() -> None:
    made: list[str] = []

    def make(name: str, who: str) -> list[str]:
        made.append(name)
        return [name, who]

    standing = StandingOrders([Order(combatant="a", at=0, controller="tactician")], make)
    own: list[str] = ["own"]
    first, again = standing.controller("a", 5, own), standing.controller("a", 9, own)
    assert first is again
    assert (made, standing.controller("b", 9, own)) == (["tactician"], own)
