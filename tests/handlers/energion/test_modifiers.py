"""What modifies an Energion chance to hit (affray/handlers/energion/modifiers.py): each a (name, value,
rule) entry, only those that change the chance, in a fixed order."""

from __future__ import annotations

from decimal import Decimal

from affray.events.energion.kinds import Modifier
from affray.handlers.energion import modifiers


def test_a_weapon_carries_its_proficiency_then_the_open_hand_bonus() -> None:
    # E12 and E13: proficiency 10, a level-3 artist's punch +3
    assert modifiers.carried(10, Decimal(3)) == (
        Modifier(name="proficiency", value=Decimal(10), rule="E12"),
        Modifier(name="martial arts", value=Decimal(3), rule="E13"),
    )


def test_a_weapon_without_proficiency_or_open_hand_carries_none() -> None:
    assert modifiers.carried(0, Decimal(0)) == ()


def test_the_moment_brings_injuries_then_a_ruling() -> None:
    # S4: a chest wound -5; a referee's +10
    assert modifiers.of_the_moment(-5, 10) == (
        Modifier(name="injuries", value=Decimal(-5), rule="S4, S5"),
        Modifier(name="referee's ruling", value=Decimal(10), rule="ruling"),
    )


def test_an_unhurt_unruled_moment_brings_none() -> None:
    assert modifiers.of_the_moment(0, 0) == ()


def test_the_chance_is_the_base_plus_each_modifier() -> None:
    # E4: 82.5 - 5 + 10 = 87.5
    assert modifiers.hit_chance(Decimal("82.5"), modifiers.of_the_moment(-5, 10)) == Decimal("87.5")
