"""Scoring special damage, its type, lost equipment and computer damage (seed 001), rules S1-S3, S6.

Pure functions over ints (and a Decimal to-hit chance); the dice are rolled by the caller.

RULINGS:

- S1: a to-hit roll scores special damage when it is *at or under* the special-damage chance (the text's
  example says "less than", but inventory S1 and the rest of the system read rolls at or under a chance;
  the example's 06 against 11 % scores either way). Aiming adds 1 % per round, at most 10 %.
- S1: no special damage when the to-hit chance is *below* the special chance (equal still allows it).
- S2: a target in an active defensive screen takes none (``screened``).
- S2: a total below the first row reads the "None" row, above the last the last row.
- S3: equipment: each unit a row destroys is a piece the victim picks; a piece of a type the victim has more
  than one unit of costs two units, so ``equipment_lost(units, True)`` is ``2 * units``. Call it once per
  kind of pick when some picks are single items and some are not.
- S3: a d100 roll at or under 10 destroys a weapon instead of equipment.
- S6: programs destroyed = modified roll // 5 (rounding down), never below 0; the lowest levels go first,
  ties in the order given. The computer explodes only when *more* are destroyed than it has.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal

from affray.rules.special_damage.tables import DamageTable, Explosion, LivingRow, RobotRow

__all__ = [
    "AIMING_MAX",
    "BASE_CHANCE",
    "COMPUTER_EXPLOSION",
    "PER_SKILL_LEVEL",
    "PROGRAMS_PER_POINTS",
    "ROBOT_EXPLOSION",
    "WEAPON_INSTEAD_PERCENT",
    "alarms_set_off",
    "destroy_programs",
    "equipment_lost",
    "explodes",
    "living_row",
    "programs_destroyed",
    "robot_row",
    "scores",
    "special_chance",
    "type_total",
    "weapon_instead",
]

BASE_CHANCE = 3
"""Rule S1: the special-damage chance starts at 3 %."""
PER_SKILL_LEVEL = 2
"""Rule S1: plus 2 % per level of the weapon skill used."""
AIMING_MAX = 10
"""Rule S1: +1 % per round spent aiming, at most +10 %."""
WEAPON_INSTEAD_PERCENT = 10
"""Rule S3: the chance (percent) that a weapon is destroyed instead of a piece of equipment."""
PROGRAMS_PER_POINTS = 5
"""Rule S6: one program is destroyed per 5 points of the modified 1d10 roll, rounding down."""
COMPUTER_EXPLOSION = Explosion(dice="6d10", radius_m=5, defense="RS")
"""Rule S6: a computer with more programs destroyed than it has explodes: 6d10 within 5 m, RS check."""
ROBOT_EXPLOSION = Explosion(dice="7d10", radius_m=10, defense="RS")
"""Rule S5: Table 4's "Explosion": 7d10 to everyone within 10 m, RS check (as in robots.toml)."""


def _check_non_negative(what: str, value: int) -> None:
    if value < 0:
        raise ValueError(f"{what} is 0 or more, got {value}")


# --- S1 --------------------------------------------------------------------------------------------


def special_chance(skill_level: int, aim_rounds: int = 0) -> int:
    """Rule S1: ``3 + 2 x skill level + min(aim rounds, 10)`` percent (level 4, no aiming: 11 %)."""
    _check_non_negative("a skill level", skill_level)
    _check_non_negative("an aiming round count", aim_rounds)
    return BASE_CHANCE + PER_SKILL_LEVEL * skill_level + min(aim_rounds, AIMING_MAX)


def scores(roll: int, chance: int, hit_chance: Decimal, *, screened: bool = False) -> bool:
    """Rule S1: whether a to-hit roll scores special damage: at or under the chance (ruling).

    Never when the to-hit chance is below the special chance (S1), nor against a target in an active
    defensive screen (S2).
    """
    if screened or hit_chance < chance:
        return False
    return roll <= chance


# --- S2 --------------------------------------------------------------------------------------------


def type_total(roll: int, modifiers: Iterable[int]) -> int:
    """Rule S2: the 1d10 type roll plus every Table 1 and Table 2 (and referee's) modifier."""
    return roll + sum(modifiers)


def living_row(table: DamageTable[LivingRow], total: int) -> LivingRow:
    """Rules S2/S3: the Table 3 row of a modified roll; below the first row "None", above it the last."""
    return table.row_for(total)


def robot_row(table: DamageTable[RobotRow], total: int) -> RobotRow:
    """Rules S2/S5: the Table 4 row of a modified roll; below the first row "None", above it the last."""
    return table.row_for(total)


# --- S3 --------------------------------------------------------------------------------------------


def equipment_lost(units: int, has_multiple: bool) -> int:
    """Rule S3: units of equipment lost: the row's count, doubled when each piece picked is of a type the
    victim has more than one unit of ("two clips, two rations"; a ruling)."""
    _check_non_negative("a unit count", units)
    return 2 * units if has_multiple else units


def weapon_instead(roll_d100: int) -> bool:
    """Rule S3: a d100 roll at or under 10 (10 %) destroys a weapon instead of a piece of equipment."""
    return roll_d100 <= WEAPON_INSTEAD_PERCENT


# --- S6 --------------------------------------------------------------------------------------------


def programs_destroyed(modified_roll: int) -> int:
    """Rule S6: ``modified roll // 5``, rounding down, never below 0 (a 14 destroys 2)."""
    return max(modified_roll // PROGRAMS_PER_POINTS, 0)


def destroy_programs(levels: Sequence[int], count: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Rule S6: ``(destroyed, remaining)`` program levels, lowest level destroyed first, both ascending."""
    _check_non_negative("a program count", count)
    ordered = sorted(levels)
    return tuple(ordered[:count]), tuple(ordered[count:])


def alarms_set_off(has_security_program: bool, security_destroyed: bool) -> bool:
    """Rule S6: a Computer Security program that was not destroyed sets off the alarms it controls."""
    return has_security_program and not security_destroyed


def explodes(destroyed: int, possessed: int) -> bool:
    """Rule S6: a computer explodes (:data:`COMPUTER_EXPLOSION`, unrepairable) when more programs are
    destroyed than it possesses."""
    return destroyed > possessed
