"""Striking to subdue on the clock (rule E14): a blow that would bring the damage past the damage points
knocks out and deals nothing; any other deals half.

``a`` (skill 60, stats 100) strikes bare-handed (Hand: type 17, damage 4) at ``b`` in Cloth (8 against
type 17), 1 m away, with no parry.
"""

from __future__ import annotations

from decimal import Decimal

from affray.events.energion.kinds import AttackResolved
from affray.events.shared import CombatantOut, EncounterEnded
from affray.handlers.energion.scenario import EnergionScenario
from affray.npc.energion.intents import Attack
from tests.handlers.energion import TomlValue, fighter, of_kind, run, scenario

HAND: list[TomlValue] = [{"name": "Hand"}]


def fight(*rolls: int, damage_points: int = 30, subdue: bool = False) -> EnergionScenario:
    a = fighter("a", "ford", prepared=True, weapons=HAND, subdue=subdue)
    b = fighter("b", "raiders", prepared=True, weapons=HAND, position=[1, 0], damage_points=damage_points)
    return scenario(a, b, rolls=list(rolls), max_seconds=3)


def test_a_blow_to_subdue_within_the_damage_points_does_half() -> None:
    # rule E14: 60 - 8 - 2 = 50 -> x0.6 of 4 = 2.4; 0 + 2.4 <= 30 -> half: 1.2
    encounter, _ = run(fight(2, subdue=True), a=[Attack(target="b", reason="r")])
    (hit,) = of_kind(encounter, AttackResolved)
    assert hit.damage is not None
    assert (hit.damage.subdue, hit.damage.full_damage, hit.damage.damage) == (
        "half_damage",
        Decimal("2.4"),
        Decimal("1.2"),
    )
    assert encounter.state.combatants["b"].damage_taken == Decimal("1.2")


def test_a_blow_to_subdue_past_the_damage_points_knocks_out_and_deals_nothing() -> None:
    # rule E14: b has 2 DP; 0 + 2.4 > 2 -> knocked out, 0 damage dealt, the full 2.4 kept
    encounter, _ = run(fight(2, damage_points=2, subdue=True), a=[Attack(target="b", reason="r")])
    (hit,) = of_kind(encounter, AttackResolved)
    assert hit.damage is not None
    assert (hit.damage.subdue, hit.damage.full_damage, hit.damage.damage) == (
        "knocked_out",
        Decimal("2.4"),
        Decimal(0),
    )
    (out,) = of_kind(encounter, CombatantOut)
    assert (out.combatant, out.reason) == ("b", "knocked out by a blow struck to subdue")
    assert encounter.state.combatants["b"].damage_taken == Decimal(0)
    assert of_kind(encounter, EncounterEnded)[0].winner == "ford"


def test_damage_already_taken_counts_toward_the_knock_out() -> None:
    # rule E14 (ruling 32): b has 3 DP; first 2.4 -> half 1.2 (0 + 2.4 <= 3); second: 1.2 + 2.4 = 3.6 > 3
    encounter, _ = run(fight(2, 2, damage_points=3, subdue=True), a=[Attack(target="b", reason="r")] * 2)
    first, second = of_kind(encounter, AttackResolved)
    assert first.damage is not None
    assert second.damage is not None
    assert (first.damage.subdue, second.damage.subdue) == ("half_damage", "knocked_out")


def test_an_attack_intent_may_strike_to_subdue() -> None:
    # rule E14: Attack(subdue=True) from a combatant without subdue = true
    encounter, _ = run(fight(2), a=[Attack(target="b", reason="r", subdue=True)])
    (hit,) = of_kind(encounter, AttackResolved)
    assert hit.damage is not None
    assert (hit.damage.subdue, hit.damage.damage) == ("half_damage", Decimal("1.2"))


def test_a_plain_blow_is_not_struck_to_subdue() -> None:
    encounter, _ = run(fight(2), a=[Attack(target="b", reason="r")])
    (hit,) = of_kind(encounter, AttackResolved)
    assert hit.damage is not None
    assert (hit.damage.subdue, hit.damage.full_damage, hit.damage.damage) == (None, None, Decimal("2.4"))


def test_a_blow_bringing_the_damage_exactly_to_the_damage_points_does_half() -> None:
    # rule E14 (ruling 32): 60 - 8 - 7 = 45 -> x0.5 of 4 = 2 on 2 DP: 0 + 2 is not greater -> half, 1
    encounter, _ = run(fight(7, damage_points=2, subdue=True), a=[Attack(target="b", reason="r")])
    (hit,) = of_kind(encounter, AttackResolved)
    assert hit.damage is not None
    assert (hit.damage.subdue, hit.damage.damage) == ("half_damage", Decimal(1))
    assert not of_kind(encounter, CombatantOut)
