"""Energion hit locations (seed 002): the d100 chart, disabling damage and armor by location.

The chart lives in the packaged ``data/hit_locations.toml``, transcribed as printed (rule E20);
:func:`load_hit_locations` reads and validates it once. Rulings:

- A d100 roll runs 1..100, a rolled 00 being 100 (the chart's last row is 86-100).
- A part is disabled when the damage done to it *reaches* its share of the character's damage points
  (E20: the share "must be done ... to cause that part to be unusable"); one point less is not enough.
- A joint (the chart's "Joint 10% - unusable" row) has no d100 range: the seven rows already cover 01-100,
  so a joint is only hit by an aimed attack, which the rules do not give: the chart keeps its share
  (``HitLocationTable.joint_share_percent``) and no roll lands there.
- An unarmored location (E22) uses the Cloth column of the armor chart against the weapon's type, unless a
  scenario says otherwise: :data:`UNARMORED_COLUMN`.
"""

from __future__ import annotations

import functools
from decimal import Decimal
from importlib.resources import files
from typing import Annotated, Literal

import msgspec
import msgspec.toml

from affray.errors import TableError
from affray.rules.energion.formulas import tidy
from affray.rules.tabledata import decode_table, find_named, require_unique, table_error

__all__ = [
    "D100_FACES",
    "HIT_LOCATIONS_FILE",
    "UNARMORED_COLUMN",
    "BodyPart",
    "Disabled",
    "HitLocation",
    "HitLocationTable",
    "LocationState",
    "disabling_damage",
    "load_hit_locations",
    "location_armor_value",
    "location_for",
    "location_state",
    "parse_hit_locations",
]

HIT_LOCATIONS_FILE = "hit_locations.toml"
"""Packaged data file of the hit location chart (rules E20, E22)."""
D100_FACES = 100
"""Rule E20: the chart is read with a d100, rolls 1..100 (a rolled 00 is 100)."""
UNARMORED_COLUMN = "Cloth"
"""Rule E22 (ruling): the armor chart column giving an unarmored location's resistance, unless a scenario
says otherwise."""

Disabled = Literal["death", "unusable"]
"""Rule E20: what a part's disabling damage does: the chart's "Death" or "unusable"."""
LocationState = Literal["ok", "unusable", "dead"]
"""Rule E20: the state of a part after the damage done to it."""

_Percent = Annotated[int, msgspec.Meta(ge=1, le=100)]
_HUNDRED = Decimal(100)


class BodyPart(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Rule E20: a part of the body with the share of damage points that disables it, and what that does."""

    name: str
    share_percent: _Percent
    disabled: Disabled


class HitLocation(BodyPart, frozen=True):
    """Rule E20: one row of the hit location chart: a body part and its d100 range ``low..high``."""

    low: _Percent
    high: _Percent

    def covers(self, roll: int) -> bool:
        """Return whether a d100 roll falls in this row's range (rule E20)."""
        return self.low <= roll <= self.high


class HitLocationTable(msgspec.Struct, frozen=True, kw_only=True):
    """Rule E20: the chart in printed order, plus the joint's share (ruling: joints are hit only by aim)."""

    locations: tuple[HitLocation, ...]
    joint_share_percent: int

    def location_named(self, name: str) -> HitLocation:
        """Return the location of that name (case-insensitive); raise UnknownTableEntry if none (rule E20)."""
        return find_named("hit location", name, self.locations)


# --- file format -----------------------------------------------------------------------------------


class _HitLocationsFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    joint_share_percent: _Percent
    location: list[HitLocation]


def _fail(path: str, problem: str) -> TableError:
    return table_error(HIT_LOCATIONS_FILE, path, problem)


def parse_hit_locations(text: str | bytes) -> HitLocationTable:
    """Decode and validate a hit location chart (rule E20).

    The rows must be in d100 order and cover 1..100 with no gap or overlap; names must be unique.
    Raise TableError naming the file and field path of the first problem found.
    """
    data = decode_table(HIT_LOCATIONS_FILE, text, _HitLocationsFile)
    if not data.location:
        raise _fail("$.location", "expected at least one location")
    expected_low = 1
    require_unique(HIT_LOCATIONS_FILE, "$.location[{}].name", (row.name for row in data.location))
    for index, row in enumerate(data.location):
        path = f"$.location[{index}]"
        if row.low != expected_low:
            problem = f"expected {expected_low} (rows must cover 1..100 in order), got {row.low}"
            raise _fail(f"{path}.low", problem)
        if row.high < row.low:
            raise _fail(f"{path}.high", f"high {row.high} is below low {row.low}")
        expected_low = row.high + 1
    if expected_low != D100_FACES + 1:
        raise _fail(f"$.location[{len(data.location) - 1}].high", f"the last row must end at {D100_FACES}")
    return HitLocationTable(locations=tuple(data.location), joint_share_percent=data.joint_share_percent)


@functools.cache
def load_hit_locations() -> HitLocationTable:
    """Read, validate and cache the packaged hit location chart (rule E20); the result is shared."""
    return parse_hit_locations((files("affray.rules.energion") / "data" / HIT_LOCATIONS_FILE).read_bytes())


# --- rules -----------------------------------------------------------------------------------------


def location_for(table: HitLocationTable, roll: int) -> HitLocation:
    """Rule E20: the location a d100 roll (1..100, 00 read as 100) hits; ValueError outside 1..100."""
    for location in table.locations:
        if location.covers(roll):
            return location
    raise ValueError(f"a d100 roll is 1..{D100_FACES}, got {roll}")


def disabling_damage(damage_points: Decimal, location: BodyPart) -> Decimal:
    """Rule E20: the damage to the part that disables it, ``damage_points * share_percent / 100``, exact."""
    return tidy(damage_points * location.share_percent / _HUNDRED)


def location_state(damage_points: Decimal, location: BodyPart, damage_to_location: Decimal) -> LocationState:
    """Rule E20: "ok" below the disabling damage; at or above it (ruling), "dead" or "unusable"."""
    if damage_to_location < disabling_damage(damage_points, location):
        return "ok"
    return "dead" if location.disabled == "death" else "unusable"


def location_armor_value(armor_value: int, unarmored_value: int, location_armored: bool) -> int:
    """Rule E22: the worn armor's value if the location is armored, else the unarmored (ruling: Cloth)."""
    return armor_value if location_armored else unarmored_value
