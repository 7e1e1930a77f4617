"""How ``affray state`` shows a fivestep character's wounds, a part its body does not list included."""

from __future__ import annotations

from decimal import Decimal

import msgspec

from affray.events.fivestep.state import FivestepCombatant
from affray.rulesets.fivestep.display import DISPLAY
from tests.strategies import example_log, read


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


FIREFIGHT = read(example_log("firefight")).header.scenario
HUMAN = {"head": 12, "chest": 36, "abdomen": 28, "right arm": 18, "left arm": 18}
HUMAN |= {"right leg": 24, "left leg": 24}


def ranger(damage: dict[str, Decimal], used: dict[str, int] | None = None) -> FivestepCombatant:
    """vance of firefight.toml: a human body, two grenades and a rifle of 30 shots."""
    return msgspec.structs.replace(
        wounded(damage), id="vance", parts=HUMAN, damage_points=Decimal(sum(HUMAN.values())), used=used or {}
    )


def test_health_is_the_share_left_of_the_worst_hurt_vital_part() -> None:
    # ruling 45: a vital part without function puts a character out. Head 12 points, 3 taken: 75 % left;
    # chest 36, 18 taken: 50 % left; the right arm (not vital) at 17 of 18 counts for nothing: 50 %
    hurt = ranger({"head": Decimal(3), "chest": Decimal(18), "right arm": Decimal(17)})
    assert DISPLAY.health(hurt, DISPLAY.stock(FIREFIGHT)) == (Decimal(50), Decimal(100))


def test_a_vital_part_past_its_points_is_at_nothing_left() -> None:
    # head 12 points, 18 taken: 1 - 18/12 = -50 %, shown as 0
    assert DISPLAY.health(ranger({"head": Decimal(18)}), DISPLAY.stock(FIREFIGHT))[0] == 0


def test_without_the_vital_parts_health_is_the_whole_bodys_share_left() -> None:
    # a log whose scenario does not read: 160 points, 40 taken on the arms: 120/160 = 75 %
    hurt = msgspec.structs.replace(
        ranger({"right arm": Decimal(20), "left arm": Decimal(20)}), damage_taken=Decimal(40)
    )
    assert DISPLAY.health(hurt, DISPLAY.stock(msgspec.Raw(b"[]"))) == (Decimal(75), Decimal(100))


def test_grenades_and_shots_left_are_shown() -> None:
    # vance carries 2 grenades and a rifle of 30 shots: one grenade thrown and 4 shots fired
    shown = DISPLAY.supplies(ranger({}, {"Grenade": 1, "Rifle": 4}), DISPLAY.stock(FIREFIGHT))
    assert shown == "Grenade 1/2 grenades; Rifle 26/30 shots"
