"""How ``affray state`` and the page show what an Energion combatant has left: the shots of a missile
weapon with ``ammunition``, the weapons of a hurled one's ``count`` (docs/scenario-format.md)."""

from __future__ import annotations

from decimal import Decimal

import msgspec

from affray.events.energion.state import EnergionCombatant
from affray.rulesets.energion.display import DISPLAY
from tests.strategies import example_log, read

ARCHERS = read(example_log("archers")).header.scenario


def archer(used: dict[str, int]) -> EnergionCombatant:
    return EnergionCombatant(
        id="wren",
        name="Wren",
        side="wall",
        damage_points=28,
        position=(Decimal(0), Decimal(0)),
        weapon="Bow, Self, Long",
        armor="Leather Suit",
        used=used,
    )


def test_a_missile_weapon_shows_its_shots_left_of_its_ammunition() -> None:
    # archers.toml: wren carries a long bow with ammunition = 24 (weapon 0) and a short sword (weapon 1);
    # 5 shots spent leave 24 - 5 = 19
    assert DISPLAY.supplies(archer({"0": 5}), DISPLAY.stock(ARCHERS)) == "Bow, Self, Long 19/24 shots"


def test_a_hurled_weapon_shows_how_many_are_left_to_throw() -> None:
    # archers.toml: ketta carries 3 throwing daggers (count = 3); one thrown leaves 2
    ketta = msgspec.structs.replace(archer({"0": 1}), id="ketta")
    assert DISPLAY.supplies(ketta, DISPLAY.stock(ARCHERS)) == "Dagger, Throwing 2/3 to throw"


def test_a_weapon_without_ammunition_shows_nothing() -> None:
    # archers.toml: bjorn's two-handed axe is not used up
    bjorn = msgspec.structs.replace(archer({}), id="bjorn")
    assert DISPLAY.supplies(bjorn, DISPLAY.stock(ARCHERS)) == ""


def test_a_scenario_that_does_not_read_shows_nothing_rather_than_failing() -> None:
    stock = DISPLAY.stock(msgspec.Raw(b'{"combatants": 7}'))
    assert (stock, DISPLAY.supplies(archer({"0": 5}), stock)) == ({}, "")


def test_health_is_damage_points_left_of_all() -> None:
    # E1: 28 damage points, 10.5 taken: 17.5 of 28 left
    hurt = msgspec.structs.replace(archer({}), damage_taken=Decimal("10.5"))
    assert DISPLAY.health(hurt, {}) == (Decimal("17.5"), Decimal(28))
