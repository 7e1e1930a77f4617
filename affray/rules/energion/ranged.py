"""Energion ranged combat (seed 002) as pure functions of decimal values: rules E8, E16-E19 and E21.

Range bands and factors (E8), cover (E16), aiming (E17), target size (E18), relative speed and cover
advantage (E19), charging (E21). Arithmetic is exact in decimals except two documented places: the
indirect-fire size percentage divides by 9 (28 significant digits, Python's decimal context) and
:func:`relative_speed` rounds a square root to the millimetre per second (halves to even).

Rulings (where the text is ambiguous or silent):

- E8 bands. The chart's five numbers PTB SHT MED LNG EXT are the upper limits of their bands in metres; a
  distance exactly at a limit is in that band; PTB starts at 0 m. A band printed as 0 does not exist, also
  in the middle of a row (``1/0/5/0/9``: SHT and LNG do not exist, 1 < d <= 5 is MED), and its distances
  fall to the next band that exists. A distance beyond the last band that exists is out of range (None);
  a row of only zeros (the Bullwhip) has no band at all, so melee reach comes from elsewhere. A limit
  lower than an earlier existing one (no printed row does this) is a malformed table: TableError. An
  equal limit makes the later band empty.
- E8 factors apply to damage as to hit chance ("a factor for damage and hit chances").
- E8 order. The factor multiplies WeaponHit% (skill plus the E4 bonus); the additive modifiers here
  (aiming bonus, unaimed penalty, size penalty, relative-speed penalty) are added or subtracted after.
- E17 unaimed. A shot whose gap was not spent visible and aiming takes a flat penalty of
  :data:`UNAIMED_PENALTY` = 100 percentage points off the hit chance ("a standard 100% penalty to the
  attacker's hit percentage, but may be profitable in any case"): points subtracted, not a multiplier
  (a multiplier of 0 could never be "profitable").
- E17 aiming. Extra aim time counts to the millisecond (10 points per second, not per whole second) and
  stops adding at 10 s: ``MIN(10 * AimTime, 100)``.
- E18 size. 0.5 to 1 m2 is 100 %; smaller areas are a percentage of 0.5 m2, larger ones of 1 m2. Indirect
  fire measures every area as a percentage of the one figure 9 m2. A negative penalty is a bonus.
- E16 cover. Cover reduces the visible area: ``area * (100 - covered) / 100``.
- E19 cover advantage. The target's unmodified combat skill % / 4 is a percentage off its visible area;
  it applies only to a target that is behind some cover (the caller checks), and never takes the area
  below 0.
- E19 relative speed. 1 point off the hit chance per m/s; a target specifically maneuvering multiplies
  that by its AGB/8, but never by less than 1: maneuvering never makes a target easier to hit.
- E21 charging. ``DamageMultiple = Speed / 4`` over the relative speed in m/s (two chargers add); the
  multiple is applied only when it exceeds 1, so a charge never reduces damage.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal
from types import MappingProxyType
from typing import Literal

from affray.errors import TableError
from affray.rules.energion.formulas import tidy

__all__ = [
    "BANDS",
    "INDIRECT_FIRE_AREA",
    "MAX_AIM_BONUS",
    "RANGE_FACTORS",
    "SIZE_RANGE_FACTORS",
    "STANDARD_AREA_MAX",
    "STANDARD_AREA_MIN",
    "UNAIMED_PENALTY",
    "RangeBand",
    "aim_start",
    "aiming_bonus",
    "charge_multiple",
    "cover_advantage",
    "cover_area",
    "range_band",
    "ranged_damage",
    "ranged_hit_chance",
    "relative_speed",
    "relative_speed_penalty",
    "size_penalty",
    "size_percentage",
]

RangeBand = Literal["PTB", "SHT", "MED", "LNG", "EXT"]
"""A range band of the weapon chart: point blank, short, medium, long, extreme (rule E8)."""

BANDS: tuple[RangeBand, ...] = ("PTB", "SHT", "MED", "LNG", "EXT")
"""The bands in chart order, nearest first (rule E8)."""

RANGE_FACTORS: Mapping[RangeBand, Decimal] = MappingProxyType(
    {
        "PTB": Decimal("1.1"),
        "SHT": Decimal("1.0"),
        "MED": Decimal("0.9"),
        "LNG": Decimal("0.8"),
        "EXT": Decimal("0.7"),
    }
)
"""Rule E8: the factor on hit chance and damage for each band (short range is the base)."""

SIZE_RANGE_FACTORS: Mapping[RangeBand, Decimal] = MappingProxyType(
    {"PTB": Decimal(1), "SHT": Decimal(2), "MED": Decimal(3), "LNG": Decimal(4), "EXT": Decimal(5)}
)
"""Rule E18: the range factor of the target-size penalty for each band."""

UNAIMED_PENALTY = Decimal(100)
"""Rule E17 (ruling): an unaimed shot takes 100 percentage points off the hit chance."""

MAX_AIM_BONUS = Decimal(100)
"""Rule E17: the aiming bonus stops at 100 points (10 s of extra aim)."""

STANDARD_AREA_MIN = Decimal("0.5")
"""Rule E18: the smallest standard target, 0.5 m2 (50 dm2); smaller areas are a percentage of it."""

STANDARD_AREA_MAX = Decimal(1)
"""Rule E18: the largest standard target, 1 m2; larger areas are a percentage of it."""

INDIRECT_FIRE_AREA = Decimal(9)
"""Rule E18: the standard target size for indirect-fire weapons, 9 m2."""

_HUNDRED = Decimal(100)
_EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)


def _not_negative(name: str, value: Decimal) -> None:
    if value < 0:
        raise ValueError(f"{name} must not be negative, got {value}")


def range_band(ranges: tuple[int, int, int, int, int], distance: Decimal) -> RangeBand | None:
    """Rule E8: the band holding ``distance`` m, limits inclusive, 0 = no band; None beyond the last band."""
    _not_negative("distance", distance)
    previous: tuple[RangeBand, int] | None = None
    holding: RangeBand | None = None
    for band, limit in zip(BANDS, ranges, strict=True):
        if limit == 0:
            continue
        if limit < 0 or (previous is not None and limit < previous[1]):
            raise TableError(
                f"weapon ranges {ranges}: {band} limit {limit} m is below "
                + (f"the {previous[0]} limit {previous[1]} m" if previous is not None else "0 m")
                + "; expected limits that grow from PTB to EXT (0 for a band that does not exist)"
            )
        if holding is None and distance <= limit:
            holding = band
        previous = (band, limit)
    return holding


def ranged_hit_chance(hit_chance: Decimal, band: RangeBand) -> Decimal:
    """Rule E8: ``RangeWeaponHit% = WeaponHit% * RangeFactor`` (PTB 1.1, SHT 1, MED .9, LNG .8, EXT .7)."""
    return tidy(hit_chance * RANGE_FACTORS[band])


def ranged_damage(damage: Decimal, band: RangeBand) -> Decimal:
    """Rule E8: damage times the band's range factor, as for the hit chance."""
    return tidy(damage * RANGE_FACTORS[band])


def aiming_bonus(extra_aim_seconds: Decimal) -> Decimal:
    """Rule E17: ``Bonus = MIN(10 * AimTime, 100)``, aim time to the millisecond (ruling), up to 10 s."""
    _not_negative("extra aim time", extra_aim_seconds)
    return tidy(min(10 * extra_aim_seconds, MAX_AIM_BONUS))


def aim_start(
    aim_target: str | None, aim_since_ms: int | None, target: str, target_course_changed_ms: int | None
) -> tuple[int | None, int | None]:
    """Rule E17: since when a shooter has aimed at ``target`` (None: not at it), and when the target's
    unusual or unpredictable movement ruined that aim (None: it did not). "The target and the attacker must
    be stationary or moving steadily": a target that sets off, turns, changes pace or flees after the aim
    began spoils it, and the aim counts again from that moment."""
    if aim_target != target or aim_since_ms is None:
        return None, None
    if target_course_changed_ms is not None and target_course_changed_ms > aim_since_ms:
        return target_course_changed_ms, target_course_changed_ms
    return aim_since_ms, None


def size_percentage(area_m2: Decimal, *, indirect: bool = False) -> Decimal:
    """Rule E18: 100 for 0.5-1 m2, else % of 0.5 m2 (smaller) or of 1 m2 (larger); indirect: % of 9 m2."""
    _not_negative("target area", area_m2)
    if indirect:
        return tidy(area_m2 * _HUNDRED / INDIRECT_FIRE_AREA)
    if area_m2 < STANDARD_AREA_MIN:
        return tidy(area_m2 * _HUNDRED / STANDARD_AREA_MIN)
    if area_m2 > STANDARD_AREA_MAX:
        return tidy(area_m2 * _HUNDRED / STANDARD_AREA_MAX)
    return _HUNDRED


def size_penalty(percentage: Decimal, band: RangeBand) -> Decimal:
    """Rule E18: ``Penalty = (100 - PercentageOfBaseSize) * RangeFactor`` (PTB 1..EXT 5); < 0 is a bonus."""
    return tidy((_HUNDRED - percentage) * SIZE_RANGE_FACTORS[band])


def cover_area(area_m2: Decimal, covered_percent: Decimal) -> Decimal:
    """Rule E16: the area left visible behind cover, ``area * (100 - covered) / 100``."""
    _not_negative("target area", area_m2)
    if not 0 <= covered_percent <= _HUNDRED:
        raise ValueError(f"covered percent must be from 0 to 100, got {covered_percent}")
    return tidy(area_m2 * (_HUNDRED - covered_percent) / _HUNDRED)


def cover_advantage(area_m2: Decimal, combat_skill: int) -> Decimal:
    """Rule E19: a covered target's area less its unmodified combat skill/4 % (ruling: never below 0)."""
    _not_negative("target area", area_m2)
    if combat_skill < 0:
        raise ValueError(f"combat skill must not be negative, got {combat_skill}")
    reduction = Decimal(combat_skill) / 4
    return tidy(max(area_m2 * (_HUNDRED - reduction) / _HUNDRED, Decimal(0)))


def relative_speed_penalty(relative_speed: Decimal, maneuvering: bool, ag_bonus: Decimal) -> Decimal:
    """Rule E19: 1 point per m/s, times the target's AGB/8 if maneuvering (ruling: never times below 1)."""
    _not_negative("relative speed", relative_speed)
    multiplier = max(ag_bonus / 8, Decimal(1)) if maneuvering else Decimal(1)
    return tidy(relative_speed * multiplier)


def charge_multiple(speed: Decimal) -> Decimal:
    """Rule E21: ``DamageMultiple = Speed / 4`` (relative m/s; ruling: only above 1, else 1)."""
    _not_negative("charge speed", speed)
    return tidy(max(speed / 4, Decimal(1)))


def relative_speed(v1: tuple[Decimal, Decimal], v2: tuple[Decimal, Decimal]) -> Decimal:
    """Rules E19/E21: ``|v1 - v2|`` in m/s, correctly rounded to 0.001 m/s (halves to even)."""
    dx = v1[0] - v2[0]
    dy = v1[1] - v2[1]
    if not (dx.is_finite() and dy.is_finite()):
        raise ValueError(f"velocities must be finite, got {v1} and {v2}")
    # Exact in integers: |v| * 1000 = sqrt(S * 10**k), S = X**2 + Y**2 for the components scaled to integers.
    exponent = min(_exponent(dx), _exponent(dy))
    x = int(dx.scaleb(-exponent, _EXACT))
    y = int(dy.scaleb(-exponent, _EXACT))
    k = 2 * exponent + 6
    numerator = (x * x + y * y) * 10 ** max(k, 0)
    denominator = 10 ** max(-k, 0)
    root = math.isqrt(numerator // denominator)  # floor of the exact root
    excess = 4 * numerator - (2 * root + 1) ** 2 * denominator  # sign of root' - (root + 1/2)
    if excess > 0 or (excess == 0 and root % 2 == 1):
        root += 1
    return Decimal(f"{root}E-3")


def _exponent(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)  # finite, checked by the caller
    return exponent
