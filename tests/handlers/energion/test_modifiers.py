"""What modifies an Energion chance to hit (affray/handlers/energion/modifiers.py): each a (name, value,
rule) entry, only those that change the chance, in a fixed order."""

from __future__ import annotations

from decimal import Decimal

from affray.events.energion.kinds import Modifier
from affray.events.energion.state import EnergionCombatant
from affray.events.special_damage.kinds import Injury
from affray.events.special_damage.state import SpecialState
from affray.handlers.energion import modifiers


def test_a_weapon_carries_its_proficiency_then_the_open_hand_bonus() -> None:
    # E12 and E13: proficiency 10, a level-3 artist's punch +3
    assert modifiers.carried(10, Decimal(3)) == (
        Modifier(name="proficiency", value=Decimal(10), rule="E12"),
        Modifier(name="martial arts", value=Decimal(3), rule="E13"),
    )


def test_a_weapon_without_proficiency_or_open_hand_carries_none() -> None:
    assert modifiers.carried(0, Decimal(0)) == ()


def attacker(*to_hit: int) -> EnergionCombatant:
    """A combatant carrying injuries with these penalties to hit (S4)."""
    return EnergionCombatant(
        id="a",
        name="A",
        side="x",
        damage_points=Decimal(30),
        position=(Decimal(0), Decimal(0)),
        weapon="Sword, Long",
        armor="Cloth",
        special=SpecialState(injuries=[Injury(name=f"wound {n}", to_hit=p) for n, p in enumerate(to_hit)]),
    )


def test_the_moment_brings_injuries_then_a_ruling() -> None:
    # S4: two wounds, -3 and -2 = -5; a referee's +10
    assert modifiers.of_the_moment(attacker(-3, -2), 0, 10) == (
        Modifier(name="injuries", value=Decimal(-5), rule="S4, S5"),
        Modifier(name="referee's ruling", value=Decimal(10), rule="ruling"),
    )


def test_an_unhurt_unruled_moment_brings_none() -> None:
    assert modifiers.of_the_moment(attacker(), 0) == ()


def test_the_chance_is_the_base_plus_each_modifier() -> None:
    # E4: 82.5 - 5 + 10 = 87.5
    assert modifiers.hit_chance(Decimal("82.5"), modifiers.of_the_moment(attacker(-5), 0, 10)) == Decimal(
        "87.5"
    )
