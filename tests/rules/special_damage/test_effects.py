"""The effects lists as structured data, the row-to-effect rulings and movement (rules S3, S4, S5)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import msgspec
import pytest

from affray.errors import UnknownTableEntry
from affray.rules.special_damage.movement import TURN_SECONDS, movement_per_turn, per_second
from affray.rules.special_damage.tables import Effect, Explosion, load_living, load_robots

SKILLS = ("tech", "robotics", "medical", "demolitions", "computer")

# Hand transcription of every printed sentence (same_as / combines resolved by hand).
LIVING_EFFECTS: dict[str, dict[str, Any]] = {
    "Chest wound": {"to_hit": -5},
    "Leg wound": {"movement": -3},
    "Secondary-side arm wound": {
        "rifle_to_hit": -5, "one_weapon_only": True, "skills": -10, "skills_named": SKILLS,
    },
    "Primary-side shoulder wound": {
        "rifle_to_hit": -10, "one_weapon_only": True, "skills": -10, "skills_named": SKILLS,
    },
    "Primary-side arm wound": {"to_hit": -30, "no_rifles": True, "skills": -15, "skills_named": SKILLS},
    "Head wound": {
        "int_log": -5, "unconscious_chance": 50, "unconscious": "1d100", "unconscious_unit": "minutes",
    },
    "Leg broken": {"movement_max": 2},
    "Chest deeply cut": {"to_hit": -10, "dex_rs": -5},
    "Secondary-side arm broken": {
        "no_rifles": True, "skills": -10, "skills_named": SKILLS, "one_weapon_only": True,
    },
    "Primary-side arm broken": {
        "no_rifles": True, "skills": -25, "skills_named": SKILLS, "one_weapon_only": True, "to_hit": -10,
    },
    "Abdomen wound": {"movement": -3, "to_hit": -5, "carry_kg": -8},
    "Back wound, leg paralyzed": {"movement_max": 2, "carry_kg": -15},
    "Side deeply cut": {"dex_rs": -8, "carry_kg": -10},
    "Head concussion": {
        "int_log": -10, "dex_rs": -5, "unconscious_chance": 75, "unconscious": "1d10",
        "unconscious_unit": "hours",
    },
    "Dead": {"dead": True},
}  # fmt: skip

ROBOT_EFFECTS: dict[str, dict[str, Any]] = {
    "Body damage": {"to_hit": -5},
    "Leg damage": {"movement": -5, "alternate_movement": 0},
    "Arm damage": {"attacker_picks_arm": True, "to_hit": -9, "that_arm_only": True},
    "Arm joint damage": {"to_hit": -14, "that_arm_only": True, "melee_damage": -2},
    "Arm joints damage": {"arm_cannot_fire": True, "no_melee": True},
    "Brain casing damage": {
        "stun_chance": 50, "stun": "1d100", "stun_unit": "minutes", "to_hit": -5, "malfunction_chance": 20,
    },
    "Leg broken": {"movement": -10, "alternate_movement": -5},
    "Body cracked": {"to_hit": -10, "movement": -5, "malfunction_chance": 20},
    "Arm broken": {"arm_cannot_fire": True, "repair_penalty": -5},
    "Arm joint broken": {"arm_cannot_fire": True, "repair_penalty": -25},
    "Brain casing cracked": {
        "stun_chance": 100, "stun": "1d100+20", "stun_unit": "minutes", "deactivation_chance": 50,
        "to_hit": -10, "malfunction_chance": 35, "repair_penalty": -30,
    },
    "Movement center damaged": {"cannot_move": True, "repair_penalty": -30},
    "Arm joints broken": {"arm_cannot_fire": True, "repair_penalty": -20},
    # body cracked + brain casing cracked: -10 + -10 = -20 to hit, 20 + 35 = 55 % malfunction
    "Body and brain casing cracked": {
        "to_hit": -20, "movement": -5, "malfunction_chance": 55, "stun_chance": 100, "stun": "1d100+20",
        "stun_unit": "minutes", "deactivation_chance": 50, "repair_penalty": -30,
    },
    "Brain casing broken": {
        "deactivated": True, "to_hit": -20, "movement": -20, "malfunction_chance": 55, "repair_penalty": -50,
    },
    "Explosion": {"explosion": Explosion(dice="7d10", radius_m=10, defense="RS"), "unrepairable": True},
}  # fmt: skip

_PROVENANCE = {"name", "text", "same_as", "combines"}


def _set_fields(effect: Effect) -> dict[str, Any]:
    return {
        k: getattr(effect, k)
        for k in msgspec.structs.asdict(effect)
        if k not in _PROVENANCE and not any(getattr(effect, k) is unset for unset in (None, False, ()))
    }


@pytest.mark.parametrize("name", list(LIVING_EFFECTS))
# rule S4: each living effect carries exactly the penalties its sentence prints
def test_living_effect_fields(name: str) -> None:
    assert _set_fields(load_living().effect_named(name)) == LIVING_EFFECTS[name]


@pytest.mark.parametrize("name", list(ROBOT_EFFECTS))
# rule S5: each robot effect carries exactly the penalties its sentence prints
def test_robot_effect_fields(name: str) -> None:
    assert _set_fields(load_robots().effect_named(name)) == ROBOT_EFFECTS[name]


# rules S3, S4: which effect each Table 3 row has (rulings for the four names that disagree)
def test_living_rows_map_to_effects() -> None:
    table = load_living()
    mapping = [(row.damage, row.side, row.effect) for row in table.rows]
    assert mapping == [
        ("None", None, None),
        ("Chest wound", None, "Chest wound"),
        ("Leg wound", None, "Leg wound"),
        ("Arm wound", "secondary", "Secondary-side arm wound"),
        ("Shoulder wound", "secondary", "Primary-side shoulder wound"),
        ("Arm wound", "primary", "Primary-side arm wound"),
        ("Head wound", None, "Head wound"),
        ("Leg broken", None, "Leg broken"),
        ("Chest deeply cut", None, "Chest deeply cut"),
        ("Arm broken", "secondary", "Secondary-side arm broken"),
        ("Arm broken", "primary", "Primary-side arm broken"),
        ("Abdomen deeply cut", None, "Abdomen wound"),
        ("Back wound, leg paralyzed", None, "Back wound, leg paralyzed"),
        ("Shoulder deeply cut", "primary", "Primary-side shoulder wound"),
        ("Side deeply cut", None, "Side deeply cut"),
        ("Head concussion", None, "Head concussion"),
        ("Head removed, body falls apart, target vaporized, etc. (pick one)", None, "Dead"),
    ]


# rule S5: every Table 4 row but "None" has the effect of its own name
def test_robot_rows_map_to_effects_of_the_same_name() -> None:
    for row in load_robots().rows[1:]:
        assert row.effect == row.damage.removesuffix(" (cannot be repaired)")


# rule S4: roll 14 on Table 3 -> primary-side arm broken: no rifles, -10 to hit, -25 % skills
def test_effect_of_a_row() -> None:
    table = load_living()
    effect = table.effect_of(table.row_for(14))
    assert effect is not None
    assert (effect.no_rifles, effect.to_hit, effect.skills) == (True, -10, -25)
    assert table.effect_of(table.row_for(1)) is None


# rule S4
def test_unknown_effect_name_lists_close_matches() -> None:
    with pytest.raises(UnknownTableEntry, match="Chest wound"):
        load_living().effect_named("chest wond")


# ruling: a turn is 6 seconds; -3 m/turn is -0.5 m/s, 10 m/turn is 10/6 m/s
def test_per_second_divides_by_the_six_second_turn() -> None:
    assert TURN_SECONDS == 6
    assert per_second(-3) == Decimal("-0.5")
    assert per_second(12) == 2


# rule S4: 10 m/turn with a leg wound (-3) and an abdomen wound (-3): 10 - 3 - 3 = 4
def test_movement_penalties_add_up() -> None:
    table = load_living()
    effects = [table.effect_named("Leg wound"), table.effect_named("Abdomen wound")]
    assert movement_per_turn(10, effects) == 4


# rule S4: a broken leg caps movement at 2 m/turn: 10 -> 2; a leg wound on 4 m/turn gives 1, under the cap
def test_broken_leg_caps_movement_at_two() -> None:
    table = load_living()
    assert movement_per_turn(10, [table.effect_named("Leg broken")]) == 2
    assert movement_per_turn(4, [table.effect_named("Leg broken"), table.effect_named("Leg wound")]) == 1


# rule S5: a robot whose movement center is damaged cannot move; -20 on 10 m/turn stops at 0
def test_robot_movement_never_goes_below_zero() -> None:
    table = load_robots()
    assert movement_per_turn(20, [table.effect_named("Movement center damaged")]) == 0
    assert movement_per_turn(10, [table.effect_named("Brain casing broken")]) == 0
