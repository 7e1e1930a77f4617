"""Five-step damage (seed 000, rules F10, F11, F12) as pure functions: rolls are arguments.

F10 turns a hit into damage points: the DAMAGE DIE ROLL "X+Y" (procedure 2) or WEP MOD vs range through
Table 3-3 (procedure 3), then optionally scales them for a grazing shot. F11 reads those points against
the body part's damage points: the damage percentage, its description category (1 to 20), the structure
points only natural healing restores, loss of function and destruction. F12 turns the tissue damage
percentage into organ system damage through Table 3-3.1 and Tables 3-15.x; poisons and drugs reach the
organ systems only. Tables come from :mod:`affray.rules.fivestep.damage_tables` (user-supplied data).

RULINGS (docs/rulesets/fivestep.md gives the reasons):

- X may be whole ("4"), a fraction ("1/2") or a decimal ("0.5", "2.5"). Its whole part rolls that many
  d10; a fractional part rolls one more d10, multiplied by the fraction and rounded to a whole point by
  ``rounding`` (default ``"half_up"``: 7 x 1/2 = 3.5 -> 4). A d10 reads 1 to 10 (a 0 face is 10).
- Grazing shots (an option) scale every hit, not some: %UNDER = target - roll, where the target is the
  number the d100 was rolled under (MARKS, Table 3-1's figure, or percent to hit minus percent against);
  points x %UNDER / target, rounded by ``rounding``. A roll at or above the target is a miss (F8 says
  "under") and has no damage. A grazing shot may come to 0 points.
- Damage percentage is exact (28 significant digits); category k covers above 5(k-1) % up to 5k %
  (1-5 is 1, 5.2 is 2); 0 % has no category; above 100 % reads category 20.
- Structure is the first ceil(points / 10) points taken (a hand of 6 has 1). Function points are the
  rest; a part has no function once it has taken all its points, and is destroyed at 5 x its points.
- Exoskeleton races read the table's bone layer first, then the other layers in printed order.
- Additional descriptions: the most severe (last) row of every layer read before the category's layer.
- A decentralized organ system (Aracnian, Eebek) takes the column's mean factor, wherever the hit is.
- A poison's or drug's WEP MOD is read at Table 3-3's first range band unless a range is given; its tissue
  points give only the percentage for organ damage.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Literal

import msgspec

from affray.errors import TableError, excerpt
from affray.rules.fivestep.damage_tables import (
    CATEGORY_COUNT,
    DescriptionRow,
    DescriptionTable,
    OrganFactorTable,
    OrganRow,
    OrganSystem,
    OrganTable,
    WepModTable,
)

__all__ = [
    "CATEGORY_WIDTH",
    "DESTRUCTION_MULTIPLE",
    "DamageDieRoll",
    "DieRollDamage",
    "GrazingDamage",
    "OrganDamage",
    "PartDamage",
    "PoisonDamage",
    "Rounding",
    "WepModDamage",
    "additional_descriptions",
    "category_band",
    "damage_percentage",
    "description",
    "description_category",
    "destruction_points",
    "dice_needed",
    "grazing_damage",
    "heal",
    "organ_damage",
    "organ_factor",
    "parse_damage_die_roll",
    "part_damage",
    "percent_under",
    "poison_damage",
    "reading_order",
    "roll_damage",
    "round_points",
    "structure_points",
    "wep_mod_damage",
]

Rounding = Literal["half_up", "down", "up"]
"""How a fractional number of damage points becomes whole: half up (the default ruling), down or up."""

CATEGORY_WIDTH = 5
"""Rule F11: each description category spans 5 % of the body part's points."""
DESTRUCTION_MULTIPLE = 5
"""Rule F11: a body part is totally destroyed at five times its undamaged points."""
D10_FACES = 10

_DIE_ROLL = re.compile(r"^\s*(?P<x>\d+(?:\.\d+)?|\.\d+|\d+/\d+)\s*(?:\+\s*(?P<y>\d+)\s*)?$")


def round_points(value: Fraction, rounding: Rounding = "half_up") -> int:
    """A non-negative number of points made whole: ``half_up`` (3.5 -> 4), ``down`` (3.9 -> 3), ``up``."""
    if value < 0:
        raise ValueError(f"damage points are 0 or more, got {value}")
    if rounding == "down":
        return value.numerator // value.denominator
    if rounding == "up":
        return -(-value.numerator // value.denominator)
    return int(value + Fraction(1, 2))


# --- F10: the damage die roll ------------------------------------------------------------------------


class DamageDieRoll(msgspec.Struct, frozen=True, kw_only=True):
    """Rule F10: a DAMAGE DIE ROLL "X+Y": ``whole`` d10, one more d10 times ``fraction`` if any, plus Y."""

    text: str
    whole: int
    fraction: tuple[int, int] = (0, 1)
    bonus: int = 0

    @property
    def fractional(self) -> Fraction:
        """The fractional part of X (0 when X is whole)."""
        return Fraction(*self.fraction)


def parse_damage_die_roll(text: str) -> DamageDieRoll:
    """Rule F10: read "X+Y" ("4+2", "3", "1/2", "2.5+1"); ValueError for anything else or X = 0."""
    match = _DIE_ROLL.match(text)
    if match is None:
        raise ValueError(
            f"expected a damage die roll X+Y (such as 4+2, 3, 1/2 or 0.5+1), got {excerpt(text)!r}"
        )
    x_text = match["x"]
    if "/" in x_text:
        top, bottom = x_text.split("/")
        if int(bottom) == 0:
            raise ValueError(f"damage die roll {excerpt(text)!r}: the fraction's denominator is 0")
        x = Fraction(int(top), int(bottom))
    else:
        x = Fraction(Decimal(x_text))
    if x == 0:
        raise ValueError(f"damage die roll {excerpt(text)!r}: X is 0, so there is nothing to roll")
    whole = x.numerator // x.denominator
    part = x - whole
    return DamageDieRoll(
        text=text.strip(),
        whole=whole,
        fraction=(part.numerator, part.denominator),
        bonus=int(match["y"] or 0),
    )


def dice_needed(roll: DamageDieRoll) -> int:
    """Rule F10: the d10 a damage die roll takes: X's whole part, plus one for a fractional part."""
    return roll.whole + (1 if roll.fractional else 0)


class DieRollDamage(msgspec.Struct, frozen=True, kw_only=True):
    """Rule F10, procedure (2): the derivation of a damage die roll's points."""

    expression: str
    faces: tuple[int, ...]
    whole_dice: int
    fraction_points: int
    bonus: int
    total: int


def roll_damage(roll: DamageDieRoll, faces: Sequence[int], rounding: Rounding = "half_up") -> DieRollDamage:
    """Rule F10, procedure (2): ``X:10sd + Y``; a fractional X's die (the last face) times the fraction."""
    if len(faces) != dice_needed(roll):
        raise ValueError(f"damage die roll {roll.text!r} takes {dice_needed(roll)} d10, got {len(faces)}")
    for face in faces:
        if not 1 <= face <= D10_FACES:
            raise ValueError(f"a d10 face is 1 to 10, got {face}")
    whole = sum(faces[: roll.whole])
    fraction_points = round_points(faces[-1] * roll.fractional, rounding) if roll.fractional else 0
    return DieRollDamage(
        expression=roll.text,
        faces=tuple(faces),
        whole_dice=whole,
        fraction_points=fraction_points,
        bonus=roll.bonus,
        total=whole + fraction_points + roll.bonus,
    )


# --- F10: WEP MOD vs range ---------------------------------------------------------------------------


class WepModDamage(msgspec.Struct, frozen=True, kw_only=True):
    """Rule F10, procedure (3): Table 3-3's figure, with the row and band it came from."""

    wep_mod: int
    range_m: Decimal
    band: int
    band_bound_m: Decimal
    points: int


def wep_mod_damage(table: WepModTable, wep_mod: int, range_m: Decimal) -> WepModDamage:
    """Rule F10, procedure (3): cross-reference WEP MOD and range on Table 3-3."""
    band = table.band(range_m)
    return WepModDamage(
        wep_mod=wep_mod,
        range_m=range_m,
        band=band,
        band_bound_m=table.range_m[band],
        points=table.row(wep_mod).damage[band],
    )


# --- F10: grazing shots ------------------------------------------------------------------------------


def percent_under(target: int | Decimal, roll: int) -> Decimal:
    """Rule F10: %UNDER = (MARKS or % TO HIT) - the d100 roll; only a hit (roll under target) has one."""
    if not 1 <= roll <= 100:
        raise ValueError(f"a d100 roll is 1 to 100, got {roll}")
    if roll >= target:
        raise ValueError(f"a roll of {roll} is not under {target}: a miss does no damage")
    return Decimal(target) - roll


class GrazingDamage(msgspec.Struct, frozen=True, kw_only=True):
    """Rule F10: a grazing shot's derivation, ``points x %UNDER / target`` made whole."""

    points: int
    target: Decimal
    roll: int
    percent_under: Decimal
    total: int


def grazing_damage(
    points: int, target: int | Decimal, roll: int, rounding: Rounding = "half_up"
) -> GrazingDamage:
    """Rule F10: the points a hit could do, scaled by how far the roll was under the target (MARKS 52.5,
    roll 30: %UNDER 22.5, so 10 points x 22.5 / 52.5 = 4.29 -> 4)."""
    if points < 0:
        raise ValueError(f"damage points are 0 or more, got {points}")
    under = percent_under(target, roll)
    return GrazingDamage(
        points=points,
        target=Decimal(target),
        roll=roll,
        percent_under=under,
        total=round_points(Fraction(points) * Fraction(under) / Fraction(target), rounding),
    )


# --- F11: damage percentage, categories, structure, destruction --------------------------------------


def _check_part(taken: int, part_points: int) -> None:
    if part_points < 1:
        raise ValueError(f"a body part has 1 or more damage points, got {part_points}")
    if taken < 0:
        raise ValueError(f"points taken are 0 or more, got {taken}")


def damage_percentage(taken: int, part_points: int) -> Decimal:
    """Rule F11: DAMAGE PERCENTAGE = points taken / total points x 100 (28 significant digits)."""
    _check_part(taken, part_points)
    return Decimal(taken * 100) / Decimal(part_points)


def description_category(taken: int, part_points: int) -> int | None:
    """Rule F11: the 5 % category (1 to 20) of the damage; None for no damage; 20 from 95 % up."""
    _check_part(taken, part_points)
    if taken == 0:
        return None
    category = -(-(taken * 100) // (part_points * CATEGORY_WIDTH))
    return min(category, CATEGORY_COUNT)


def category_band(category: int) -> tuple[int, int]:
    """Rule F11: the percentages a category is printed with: 1 -> (1, 5), 18 -> (86, 90)."""
    if not 1 <= category <= CATEGORY_COUNT:
        raise ValueError(f"a category is 1 to {CATEGORY_COUNT}, got {category}")
    return (CATEGORY_WIDTH * (category - 1) + 1, CATEGORY_WIDTH * category)


def structure_points(part_points: int) -> int:
    """Rule F11: the first ten percent of a part's points, ceil(points / 10): structure, not function."""
    _check_part(0, part_points)
    return -(-part_points // 10)


def destruction_points(part_points: int) -> int:
    """Rule F11: a part is totally destroyed once it has taken five times its points (hand 6 -> 30)."""
    _check_part(0, part_points)
    return DESTRUCTION_MULTIPLE * part_points


class PartDamage(msgspec.Struct, frozen=True, kw_only=True):
    """Rule F11: the state of one body part after ``taken`` points of damage."""

    taken: int
    points: int
    percentage: Decimal
    category: int | None
    structure_lost: int
    function_lost: int
    function_left: int
    functional: bool
    destroyed: bool


def part_damage(taken: int, part_points: int) -> PartDamage:
    """Rule F11: percentage, category, structure and function lost, loss of function, destruction."""
    structure = structure_points(part_points)
    function_points = part_points - structure
    structure_lost = min(taken, structure)
    function_lost = min(max(taken - structure, 0), function_points)
    return PartDamage(
        taken=taken,
        points=part_points,
        percentage=damage_percentage(taken, part_points),
        category=description_category(taken, part_points),
        structure_lost=structure_lost,
        function_lost=function_lost,
        function_left=function_points - function_lost,
        functional=taken < part_points,
        destroyed=taken >= destruction_points(part_points),
    )


def heal(taken: int, healed: int, part_points: int, *, natural: bool) -> int:
    """Rule F11: the points still taken after healing ``healed``; only natural healing restores structure."""
    _check_part(taken, part_points)
    if healed < 0:
        raise ValueError(f"points healed are 0 or more, got {healed}")
    floor = 0 if natural else min(taken, structure_points(part_points))
    return max(taken - healed, floor)


# --- F11: descriptions --------------------------------------------------------------------------------


def _layers(rows: Iterable[DescriptionRow]) -> list[list[DescriptionRow]]:
    layers: list[list[DescriptionRow]] = []
    for row in rows:
        if layers and layers[-1][0].layer == row.layer:
            layers[-1].append(row)
        else:
            layers.append([row])
    return layers


def reading_order(table: DescriptionTable, *, exoskeleton: bool = False) -> tuple[DescriptionRow, ...]:
    """Rule F11: the twenty rows in the order categories read them; exoskeletons read bone first."""
    if not exoskeleton:
        return table.category
    if table.bone_layer is None:
        raise TableError(
            f"{table.source}: table {table.table} names no `bone_layer`, which an exoskeleton race needs "
            "to read the bone descriptions first - at `$.bone_layer`"
        )
    layers = _layers(table.category)
    bone = [layer for layer in layers if layer[0].layer == table.bone_layer]
    rest = [layer for layer in layers if layer[0].layer != table.bone_layer]
    return tuple(row for layer in bone + rest for row in layer)


def description(table: DescriptionTable, category: int, *, exoskeleton: bool = False) -> DescriptionRow:
    """Rule F11: the description a category (1 to 20) reads on a table (3-8 to 3-14)."""
    category_band(category)
    return reading_order(table, exoskeleton=exoskeleton)[category - 1]


def additional_descriptions(
    table: DescriptionTable, category: int, *, exoskeleton: bool = False
) -> tuple[DescriptionRow, ...]:
    """Rule F11: the Additional Descriptions: the most severe row of each earlier layer, most severe first.

    The text's example on Table 3-8: starting at 86-90, also read 81-85, 61-65, 41-45 and 11-15.
    """
    category_band(category)
    rows = reading_order(table, exoskeleton=exoskeleton)
    layers = _layers(rows[: category - 1])
    current = rows[category - 1].layer
    return tuple(layer[-1] for layer in reversed(layers) if layer[0].layer != current)


# --- F12: organ system damage -------------------------------------------------------------------------


def organ_factor(
    factors: OrganFactorTable, part: str, system: OrganSystem, *, decentralized: bool = False
) -> Decimal:
    """Rule F12: Table 3-3.1's factor; a decentralized system (ruling) takes the column's mean."""
    if decentralized:
        return factors.mean_factor(system)
    return factors.factor(part, system)


class OrganDamage(msgspec.Struct, frozen=True, kw_only=True):
    """Rule F12: one organ system's damage value (tissue % x factor) and the row of Table 3-15.x it reads."""

    system: OrganSystem
    table: str
    tissue_percentage: Decimal
    factor: Decimal
    value: Decimal
    effect: OrganRow | None


def organ_damage(
    tissue_percentage: Decimal,
    part: str,
    factors: OrganFactorTable,
    tables: Sequence[OrganTable],
    *,
    decentralized: Iterable[OrganSystem] = (),
) -> tuple[OrganDamage, ...]:
    """Rule F12: for each organ table given, tissue damage % x the part's factor, read on that table."""
    if tissue_percentage < 0:
        raise ValueError(f"a damage percentage is 0 or more, got {tissue_percentage}")
    spread = frozenset(decentralized)
    out: list[OrganDamage] = []
    for table in tables:
        factor = organ_factor(factors, part, table.system, decentralized=table.system in spread)
        value = tissue_percentage * factor
        out.append(
            OrganDamage(
                system=table.system,
                table=table.table,
                tissue_percentage=tissue_percentage,
                factor=factor,
                value=value,
                effect=table.effect(value),
            )
        )
    return tuple(out)


class PoisonDamage(msgspec.Struct, frozen=True, kw_only=True):
    """Rule F12: a poison's or drug's derivation: its WEP MOD's points (ignored as tissue damage)."""

    wep_mod: WepModDamage
    part: str
    part_points: int
    tissue_percentage: Decimal
    organs: tuple[OrganDamage, ...]


def poison_damage(
    wep_mod: int,
    part: str,
    part_points: int,
    wep_table: WepModTable,
    factors: OrganFactorTable,
    tables: Sequence[OrganTable],
    *,
    range_m: Decimal | None = None,
    decentralized: Iterable[OrganSystem] = (),
) -> PoisonDamage:
    """Rule F12: poisons and drugs damage only the organ systems of ``tables`` (the ones they affect).

    The WEP MOD goes "directly into the calculation for damage" (Table 3-3, at its first range band unless
    ``range_m`` is given; no percent to hit, no grazing); the tissue points are ignored but their
    percentage of the part's points is turned into organ damage as for any wound.
    """
    band_range = wep_table.range_m[0] if range_m is None else range_m
    points = wep_mod_damage(wep_table, wep_mod, band_range)
    percentage = damage_percentage(points.points, part_points)
    return PoisonDamage(
        wep_mod=points,
        part=part,
        part_points=part_points,
        tissue_percentage=percentage,
        organs=organ_damage(percentage, part, factors, tables, decentralized=decentralized),
    )
