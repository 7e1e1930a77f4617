"""The Energion formulas (seed 002) as pure functions of decimal values.

Every division is exact except ``CObonus / 30`` (and ``/ divisor`` in general), which is computed to 28
significant digits (Python's decimal context) and only ever feeds a time, rounded to the millisecond later.
"""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal

ZERO = Decimal(0)
TEN = Decimal(10)


def tidy(value: Decimal) -> Decimal:
    """The same number without trailing zeros or an exponent: ``Decimal('15.600') -> 15.6``."""
    normal = value.normalize()
    if normal != normal.to_integral_value():
        return normal
    return Decimal(int(normal))


def stat_bonus(stat: int, base: int = 100) -> Decimal:
    """A stat's bonus, read relative to the charts' 100-stat person (ruling on E2): ``stat - base``."""
    return Decimal(stat - base)


def speed_adjustment_one_hand(ag_bonus: Decimal, co_bonus: Decimal) -> Decimal:
    """Rule E2, one-handed: ``AGbonus/10 + CObonus/30`` seconds off the chart's speed."""
    return ag_bonus / 10 + co_bonus / 30


def speed_adjustment_two_hand(st_bonus: Decimal, co_bonus: Decimal, co_divisor: int = 30) -> Decimal:
    """Rule E2, two-handed: ``STbonus/10 + CObonus/30`` (printed without the /30: see the ruling)."""
    return st_bonus / 10 + co_bonus / co_divisor


def initiative_adjustment(speed_adjustment: Decimal) -> Decimal:
    """Rule E2: the initiative adjustment is half the speed adjustment."""
    return speed_adjustment / 2


def modified_speed(chart_speed: int, speed_adjustment: Decimal, minimum: int = 1) -> Decimal:
    """Rule E1/E2: the gap between attacks, ``SP - adjustment``, at least 1 s (0 s for martial artists)."""
    return max(Decimal(chart_speed) - speed_adjustment, Decimal(minimum))


def modified_initiative(chart_initiative: int, speed_adjustment: Decimal, minimum: int = 0) -> Decimal:
    """Rule E1/E2: battle initiative, ``IN - adjustment/2``, never below 0 s."""
    return max(Decimal(chart_initiative) - initiative_adjustment(speed_adjustment), Decimal(minimum))


def melee_bonus(st_bonus: Decimal, co_bonus: Decimal) -> Decimal:
    """Rule E4, melee and hurled weapons: ``STbonus/2 + CObonus/4``."""
    return st_bonus / 2 + co_bonus / 4


def mechanical_bonus(st_bonus: Decimal, co_bonus: Decimal) -> Decimal:
    """Rule E4, mechanical (missile) weapons: ``CObonus/2 + STbonus/4``."""
    return co_bonus / 2 + st_bonus / 4


def hit_quality(hit_chance: Decimal, armor_value: int, roll: int) -> Decimal:
    """Rule E6: ``WeaponHit% - TargetArmorValue - HitRoll``; positive is a hit."""
    return hit_chance - armor_value - roll


def damage_bonus(st_bonus: Decimal) -> Decimal:
    """Rule E7: ``DB = STbonus/20``."""
    return st_bonus / 20


def damage_potential(
    base_damage: int, strength_bonus: Decimal, weapon_bonus: Decimal, skill_bonus: Decimal
) -> Decimal:
    """Rule E7: ``D = BaseWeaponDamage + DB + WpnDmgBonus + SkillDmgBonus`` (never below 0)."""
    return max(base_damage + strength_bonus + weapon_bonus + skill_bonus, ZERO)


def damage_multiplier(quality: Decimal) -> Decimal:
    """Rule E7: ``TRUNC((HitQuality + 10) / 10) / 10``: 0.1 for a quality of 0.x to 9.x, 0.2 from 10, ..."""
    return ((quality + TEN) / TEN).to_integral_value(rounding=ROUND_DOWN) / TEN


def damage(quality: Decimal, potential: Decimal) -> Decimal:
    """Rule E7: ``DMG = TRUNC((HitQuality + 10) / 10) / 10 * D``, exact in decimals."""
    return tidy(damage_multiplier(quality) * potential)
