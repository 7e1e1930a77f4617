"""Healing special damage and repairing robots (rules S7, S8)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from affray.rules.special_damage.recovery import (
    HEALING_TIMES_CUMULATIVE,
    HealingTime,
    RepairTime,
    healed_after,
    healing_kind,
    healing_time,
    load_healing,
    repair_time,
    to_hours,
    vrusk_arm,
)
from affray.rules.special_damage.tables import load_living, load_robots

D = Decimal


# rule S7: a wound: 1d10+1 hours once all Stamina is healed
def test_wound_heals_in_1d10_plus_1_hours_after_stamina() -> None:
    assert healing_time("wound") == HealingTime(dice="1d10+1", unit="hours", after_stamina=True)


# rule S7: a cut 4d10 hours, a deep cut 1d10+1 days
def test_cut_and_deep_cut() -> None:
    assert (healing_time("cut").dice, healing_time("cut").unit) == ("4d10", "hours")
    assert (healing_time("Deep Cut").dice, healing_time("deep cut").unit) == ("1d10+1", "days")


# rule S7: a limb set within 2 hours: 3d10+1 days in a cast, nothing to pay
def test_broken_limb_set_in_time() -> None:
    assert healing_time("broken limb", treated=True) == HealingTime(
        dice="3d10+1", unit="days", after_stamina=True
    )


# rule S7: not set in time: hospital for 3d10 days at 50 Cr a day (say 15 days: 750 Cr)
def test_broken_limb_not_set_needs_the_hospital() -> None:
    time = healing_time("broken limb", treated=False)
    assert (time.dice, time.unit, time.cost_per_day) == ("3d10", "days", 50)
    assert 15 * time.cost_per_day == 750


# rule S7: healing a broken limb depends on its setting: not saying is an error
def test_broken_limb_needs_treated() -> None:
    with pytest.raises(ValueError, match="set in a cast or splint within 2 hours"):
        healing_time("broken limb")


# rule S7: concussion: rest 10 h a day for 1d10 days, 200 Cr
def test_concussion() -> None:
    time = healing_time("concussion")
    assert (time.dice, time.unit, time.rest_hours_per_day, time.flat_cost) == ("1d10", "days", 10, 200)


# rule S7 (ruling): back wound: surgery + 2d10 h rest for 200 Cr; otherwise 3d10 days, free
def test_back_wound_with_and_without_surgery() -> None:
    surgery = healing_time("back wound", treated=True)
    assert (surgery.dice, surgery.unit, surgery.flat_cost) == ("2d10", "hours", 200)
    assert healing_time("back wound", treated=False) == HealingTime(dice="3d10", unit="days")


# rule S7: a Dralasite regrows the limb in 3d10 days; nerve damage heals as a broken limb
def test_dralasite_limb_and_nerve_damage() -> None:
    assert healing_time("dralasite limb") == HealingTime(dice="3d10", unit="days")
    assert healing_time("nerve damage", treated=True) == healing_time("broken limb", treated=True)
    assert healing_time("nerve damage", treated=False) == healing_time("broken limb", treated=False)


# rule S7: an electrostunner gives nerve damage instead of a broken limb; a Dralasite's limb regrows
def test_healing_kind_for_electrical_damage_and_dralasites() -> None:
    assert healing_kind("broken limb", electrical=True) == "nerve damage"
    assert healing_kind("broken limb", dralasite=True) == "dralasite limb"
    assert healing_kind("broken limb", dralasite=True, electrical=True) == "nerve damage"
    assert healing_kind("wound", electrical=True) == "wound"


# rule S7: every Table 3 row that heals names a kind of the healing table; the dead do not heal
def test_every_living_row_heals_as_a_known_kind() -> None:
    kinds = {k.name for k in load_healing().kinds}
    rows = load_living().rows
    assert all(row.heals_as in kinds for row in rows[1:-1])
    assert rows[0].heals_as is None
    assert rows[-1].heals_as is None


# rule S7: a Vrusk's arm: 1-5 left, 6-10 right
def test_vrusk_arm() -> None:
    assert [vrusk_arm(r) for r in (1, 5, 6, 10)] == ["left", "left", "right", "right"]
    with pytest.raises(ValueError, match=r"1\.\.10"):
        vrusk_arm(0)


# rule S7 (ruling): not cumulative: a chest wound (8 h) and a broken leg (20 days = 480 h) -> 480 h
def test_healing_times_are_not_cumulative() -> None:
    assert not HEALING_TIMES_CUMULATIVE
    assert healed_after([to_hours(8, "hours"), to_hours(20, "days")]) == D(480)
    assert healed_after([]) == 0


# rule S7 (ruling 22): the text's example gives "1d10+1 days for the leg", its broken-limb row 3d10+1 days;
# the row holds: Table 3's "Leg broken" heals as a broken limb, set in time 3d10+1 days
def test_broken_leg_takes_the_broken_limb_time_not_the_example_figure() -> None:
    leg = next(row for row in load_living().rows if row.damage == "Leg broken")
    assert leg.heals_as == "broken limb"
    assert healing_time(healing_kind(leg.heals_as), treated=True).dice == "3d10+1"


# rule S7: 90 minutes is 1.5 hours
def test_to_hours() -> None:
    assert to_hours(90, "minutes") == D("1.5")


# rule S8: damage 2d10 min, a broken part 5d10+5, a cracked item 4d10+5
def test_repair_dice() -> None:
    assert repair_time("damage") == RepairTime(dice="2d10", extra_minutes=0)
    assert repair_time("broken part").dice == "5d10+5"
    assert repair_time("cracked").dice == "4d10+5"


# rule S8: arm joints broken (2 joints): 5d10+5 + 2 x 10 = 5d10+5 +20 min
def test_each_joint_adds_ten_minutes() -> None:
    assert repair_time("broken part", damaged_joints=2) == RepairTime(dice="5d10+5", extra_minutes=20)


# rule S8 (ruling): body and brain casing cracked: 4d10+5 + 20 (casing hit) + 60 (both cracked) = +80 min
def test_brain_casing_extras_add_up() -> None:
    row = load_robots().row_for(19)
    time = repair_time(row.repair or "damage", row.joints, row.brain_casing_hit, row.brain_and_body_cracked)
    assert time == RepairTime(dice="4d10+5", extra_minutes=80)


# rule S8: the explosion row cannot be repaired; every other row but "None" names a repair kind
def test_robot_rows_name_their_repair() -> None:
    rows = load_robots().rows
    assert rows[-1].repair is None
    assert load_robots().effect_named("Explosion").unrepairable
    assert all(row.repair is not None for row in rows[1:-1])
