"""How ``affray state`` shows a fivestep character's wounds, a part its body does not list included."""

from __future__ import annotations

from decimal import Decimal

from affray.events.fivestep.state import FivestepCombatant
from affray.rulesets.fivestep.display import DISPLAY


def wounded(location_damage: dict[str, Decimal]) -> FivestepCombatant:
    return FivestepCombatant(
        id="x",
        name="X",
        side="s",
        damage_points=Decimal(22),
        position=(Decimal(0), Decimal(0)),
        parts={"head": 10, "chest": 12},
        location_damage=location_damage,
    )


def test_wounds_are_shown_of_each_parts_points() -> None:
    shown = DISPLAY.details(wounded({"head": Decimal(4), "chest": Decimal(12)}))
    assert shown == ["wounds: head 4/10, chest 12/12 (no function)"]


def test_a_wound_to_a_part_the_body_does_not_list_is_shown_not_a_crash() -> None:
    # special damage read from a log may name a part the character's body does not list
    assert DISPLAY.details(wounded({"tail": Decimal(3)})) == ["wounds: tail 3/?"]
