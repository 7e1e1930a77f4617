"""The five-step damage tables (seed 000) the text names but does not print: user-supplied data.

The text cross-references Table 3-3 (WEP MOD vs range, rule F10), Table 3-3.1 (organ factor by body part
and organ system, rule F12), Tables 3-8 to 3-14 (damage descriptions by damage type, rule F11) and Tables
3-15.1 to 3-15.4 (organ system damage, rule F12), but contains none of them. A user supplies each as a TOML
file that declares which table it is (``table = "3-3"``) and whether it is invented example data
(``example = true``); the schema of every file is in docs/rulesets/fivestep.md. :func:`load_table`
reads one file of any of these tables; :class:`DamageTables` bundles the loaded ones, and asking it for a
table nobody supplied raises a TableError that names the table. Every malformed file raises a TableError
naming the file and the field path (``$.wep_mod[2].damage``), a number that is not finite or is beyond
``tabledata.NUMBER_LIMIT`` (1,000,000 either way) among them.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Annotated, Literal, TypeAlias

import msgspec

from affray.errors import TableError, excerpt, read_user_file
from affray.rules.tabledata import decode_table as _decode
from affray.rules.tabledata import require_unique
from affray.rules.tabledata import table_error as _fail

__all__ = [
    "CATEGORY_COUNT",
    "DESCRIPTION_TABLE_IDS",
    "ORGAN_SYSTEMS",
    "ORGAN_TABLE_IDS",
    "DamageTable",
    "DamageTables",
    "DescriptionRow",
    "DescriptionTable",
    "OrganFactorTable",
    "OrganRow",
    "OrganSystem",
    "OrganTable",
    "PartFactors",
    "WepModRow",
    "WepModTable",
    "bundle",
    "load_table",
    "load_tables",
    "parse_table",
]

CATEGORY_COUNT = 20
"""Rule F11: every description table has twenty categories of 5 % each (1-5, 6-10, ..., 96-100)."""

OrganSystem = Literal["circulatory", "respiratory", "nervous-endocrine", "digestive-excretory"]
"""Rule F12: the four organ systems the text covers."""
ORGAN_SYSTEMS: tuple[OrganSystem, ...] = (
    "circulatory",
    "respiratory",
    "nervous-endocrine",
    "digestive-excretory",
)
"""Rule F12: the organ systems in the text's order; each 3-15.x file says which system it is (``system``)."""
DESCRIPTION_TABLE_IDS = tuple(f"3-{n}" for n in range(8, 15))
"""Rule F11: the description tables, "labeled Table #3-8 through 3-14", one per damage type."""
ORGAN_TABLE_IDS = tuple(f"3-15.{n}" for n in range(1, 5))
"""Rule F12: the organ system damage tables "#3-15.1 through 3-15.4"."""

_Points = Annotated[int, msgspec.Meta(ge=0)]
_Name = Annotated[str, msgspec.Meta(min_length=1)]


class _Row(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every table row and file: immutable, keyword-only, strict about unknown fields."""


class _Header(msgspec.Struct, frozen=True, kw_only=True):
    """The two fields every damage table file starts with; the rest is read by the table's own type."""

    table: str
    example: bool


# --- Table 3-3: WEP MOD vs range (F10) --------------------------------------------------------------


class WepModRow(_Row, frozen=True):
    """Rule F10: one WEP MOD's damage points, one figure per range band of the table."""

    mod: int
    damage: tuple[_Points, ...]


class WepModTable(_Row, frozen=True):
    """Rule F10, Table 3-3: damage points by WEP MOD (rows) and range (columns).

    ``range_m`` holds the upper bound of each range band in metres, increasing; a range reads the first
    band whose bound is at or above it (so a band covers the ranges above the previous bound).
    """

    table: Literal["3-3"]
    example: bool
    range_m: tuple[Decimal, ...]
    wep_mod: tuple[WepModRow, ...]
    source: str = ""

    def band(self, range_m: Decimal) -> int:
        """Rule F10: the index of the range band holding ``range_m``; TableError beyond the last band. 0 m
        (a grenade's own blast point) reads the first band."""
        if range_m < 0:
            raise ValueError(f"a range is 0 m or more, got {range_m}")
        for index, bound in enumerate(self.range_m):
            if range_m <= bound:
                return index
        raise _fail(
            self.source,
            "$.range_m",
            f"table 3-3 has no range band for {range_m} m (its last ends at {self.range_m[-1]} m)",
        )

    def row(self, mod: int) -> WepModRow:
        """Rule F10: the row of WEP MOD ``mod``; TableError naming the table when it has none."""
        for row in self.wep_mod:
            if row.mod == mod:
                return row
        known = ", ".join(str(row.mod) for row in self.wep_mod)
        raise _fail(self.source, "$.wep_mod", f"table 3-3 has no row for WEP MOD {mod} (it has {known})")

    def damage(self, mod: int, range_m: Decimal) -> int:
        """Rule F10, procedure (3): the damage points of WEP MOD ``mod`` at ``range_m`` metres."""
        return self.row(mod).damage[self.band(range_m)]


# --- Table 3-3.1: organ factors (F12) ---------------------------------------------------------------


class PartFactors(_Row, frozen=True):
    """Rule F12: one body part's row of Table 3-3.1, a factor for each organ system."""

    name: _Name
    factors: dict[OrganSystem, Decimal]


class OrganFactorTable(_Row, frozen=True):
    """Rule F12, Table 3-3.1: the factor that turns a body part's tissue damage % into organ damage."""

    table: Literal["3-3.1"]
    example: bool
    part: tuple[PartFactors, ...]
    source: str = ""

    def factor(self, part: str, system: OrganSystem) -> Decimal:
        """Rule F12: the factor of body part ``part`` (case ignored) for ``system``."""
        return self.row(part).factors[system]

    def row(self, part: str) -> PartFactors:
        """Rule F12: the row of body part ``part`` (case and surrounding spaces ignored)."""
        key = part.strip().casefold()
        for row in self.part:
            if row.name.strip().casefold() == key:
                return row
        known = ", ".join(repr(excerpt(row.name)) for row in self.part)
        raise _fail(self.source, "$.part", f"table 3-3.1 has no body part {excerpt(part)!r} (it has {known})")

    def mean_factor(self, system: OrganSystem) -> Decimal:
        """Rule F12 (ruling): a decentralized system's factor, the column's mean over every body part."""
        return sum((row.factors[system] for row in self.part), Decimal(0)) / len(self.part)


# --- Tables 3-8 to 3-14: descriptions (F11) ---------------------------------------------------------


class DescriptionRow(_Row, frozen=True):
    """Rule F11: one 5 % category of a description table: the tissue ``layer`` it describes and its text."""

    layer: _Name
    text: str


class DescriptionTable(_Row, frozen=True):
    """Rule F11, one of Tables 3-8 to 3-14: twenty categories for one damage type, mildest first.

    Rows of one ``layer`` (skin, muscle, ..., bone: "the last type of damage") are adjacent; ``bone_layer``
    names the layer that exoskeleton races read first. It may be left out, and then the table cannot be
    read for an exoskeleton race.
    """

    table: str
    example: bool
    damage_type: _Name
    category: tuple[DescriptionRow, ...]
    bone_layer: str | None = None
    source: str = ""


# --- Tables 3-15.1 to 3-15.4: organ system damage (F12) ---------------------------------------------


class OrganRow(_Row, frozen=True):
    """Rule F12: the effect of an organ damage value of ``at_least`` up to the next row's."""

    at_least: Decimal
    text: str


class OrganTable(_Row, frozen=True):
    """Rule F12, one of Tables 3-15.1 to 3-15.4: effects by organ damage value for one organ system.

    A value reads the last row whose ``at_least`` it reaches; a value below the first row's is no effect;
    a value beyond the last row reads the last row.
    """

    table: str
    example: bool
    system: OrganSystem
    row: tuple[OrganRow, ...]
    source: str = ""

    def effect(self, value: Decimal) -> OrganRow | None:
        """Rule F12: the row an organ damage value reads, or None below the first row."""
        reached: OrganRow | None = None
        for row in self.row:
            if value >= row.at_least:
                reached = row
        return reached


DamageTable: TypeAlias = WepModTable | OrganFactorTable | DescriptionTable | OrganTable
"""Any one of the user-supplied damage tables."""


# --- validation -------------------------------------------------------------------------------------


def _check_wep_mod(source: str, table: WepModTable) -> None:
    if not table.range_m:
        raise _fail(source, "$.range_m", "expected at least one range band")
    if table.range_m[0] <= 0:
        raise _fail(source, "$.range_m[0]", "expected a range above 0 m")
    for index in range(1, len(table.range_m)):
        if table.range_m[index] <= table.range_m[index - 1]:
            raise _fail(source, f"$.range_m[{index}]", "expected range bands in increasing order")
    if not table.wep_mod:
        raise _fail(source, "$.wep_mod", "expected at least one WEP MOD row")
    seen: set[int] = set()
    for index, row in enumerate(table.wep_mod):
        if row.mod in seen:
            raise _fail(source, f"$.wep_mod[{index}].mod", f"duplicate WEP MOD {row.mod}")
        seen.add(row.mod)
        if len(row.damage) != len(table.range_m):
            raise _fail(
                source,
                f"$.wep_mod[{index}].damage",
                f"expected {len(table.range_m)} figures, one per range band, got {len(row.damage)}",
            )


def _check_factors(source: str, table: OrganFactorTable) -> None:
    if not table.part:
        raise _fail(source, "$.part", "expected at least one body part")
    require_unique(source, "$.part[{}].name", (row.name for row in table.part), "body part")
    for index, row in enumerate(table.part):
        missing = [system for system in ORGAN_SYSTEMS if system not in row.factors]
        if missing:
            raise _fail(source, f"$.part[{index}].factors", f"expected a factor for {', '.join(missing)}")
        for system, factor in row.factors.items():
            if factor < 0:
                raise _fail(source, f"$.part[{index}].factors.{system}", f"expected 0 or more, got {factor}")


def _check_description(source: str, table: DescriptionTable) -> None:
    if table.table not in DESCRIPTION_TABLE_IDS:
        raise _fail(source, "$.table", f"expected one of {', '.join(DESCRIPTION_TABLE_IDS)}")
    if len(table.category) != CATEGORY_COUNT:
        raise _fail(source, "$.category", f"expected {CATEGORY_COUNT} categories, got {len(table.category)}")
    closed: set[str] = set()
    for index, row in enumerate(table.category):
        previous = table.category[index - 1].layer if index else None
        if row.layer != previous:
            if row.layer in closed:
                raise _fail(
                    source,
                    f"$.category[{index}].layer",
                    f"the rows of layer {excerpt(row.layer)!r} must be adjacent",
                )
            if previous is not None:
                closed.add(previous)
    if table.bone_layer is not None and all(row.layer != table.bone_layer for row in table.category):
        raise _fail(source, "$.bone_layer", f"no category has layer {excerpt(table.bone_layer)!r}")


def _check_organ(source: str, table: OrganTable) -> None:
    if table.table not in ORGAN_TABLE_IDS:
        raise _fail(source, "$.table", f"expected one of {', '.join(ORGAN_TABLE_IDS)}")
    if not table.row:
        raise _fail(source, "$.row", "expected at least one row")
    if table.row[0].at_least <= 0:
        raise _fail(source, "$.row[0].at_least", "expected a value above 0 (0 is no organ damage)")
    for index in range(1, len(table.row)):
        if table.row[index].at_least <= table.row[index - 1].at_least:
            raise _fail(source, f"$.row[{index}].at_least", "expected values in increasing order")


def parse_table(source: str, text: str | bytes) -> DamageTable:
    """Decode and validate one damage table file; ``source`` (the file's name) goes into every error."""
    header = _decode(source, text, _Header)
    checked: DamageTable
    if header.table == "3-3":
        wep = _decode(source, text, WepModTable)
        _check_wep_mod(source, wep)
        checked = wep
    elif header.table == "3-3.1":
        factors = _decode(source, text, OrganFactorTable)
        _check_factors(source, factors)
        checked = factors
    elif header.table in DESCRIPTION_TABLE_IDS:
        description = _decode(source, text, DescriptionTable)
        _check_description(source, description)
        checked = description
    elif header.table in ORGAN_TABLE_IDS:
        organ = _decode(source, text, OrganTable)
        _check_organ(source, organ)
        checked = organ
    else:
        known = ", ".join(("3-3", "3-3.1", *DESCRIPTION_TABLE_IDS, *ORGAN_TABLE_IDS))
        raise _fail(source, "$.table", f"expected a damage table ({known}), got {excerpt(header.table)!r}")
    if checked.source:
        raise _fail(source, "$.source", "`source` is set by the loader, not by the file")
    return msgspec.structs.replace(checked, source=source)


def load_table(path: Path) -> DamageTable:
    """Read and validate one user-supplied damage table file (rules F10, F11, F12)."""
    return parse_table(str(path), read_user_file(path, TableError, "a table file"))


# --- the bundle -------------------------------------------------------------------------------------


def _missing(table: str, what: str) -> TableError:
    return TableError(
        f"table {table} ({what}) is needed but was not supplied: the text names it without printing it, "
        "so it is user-supplied data (schema in docs/rulesets/fivestep.md)"
    )


class DamageTables(msgspec.Struct, frozen=True, kw_only=True):
    """The damage tables a scenario supplied; asking for one it did not supply names the missing table."""

    wep_mod_table: WepModTable | None = None
    factor_table: OrganFactorTable | None = None
    descriptions: tuple[DescriptionTable, ...] = ()
    organ_tables: tuple[OrganTable, ...] = ()

    def wep_mod(self) -> WepModTable:
        """Rule F10: Table 3-3."""
        if self.wep_mod_table is None:
            raise _missing("3-3", "WEP MOD vs range")
        return self.wep_mod_table

    def factors(self) -> OrganFactorTable:
        """Rule F12: Table 3-3.1."""
        if self.factor_table is None:
            raise _missing("3-3.1", "organ factor by body part")
        return self.factor_table

    def description(self, damage_type: str) -> DescriptionTable:
        """Rule F11: the description table (3-8 to 3-14) of ``damage_type`` (case ignored)."""
        key = damage_type.strip().casefold()
        for table in self.descriptions:
            if table.damage_type.strip().casefold() == key:
                return table
        raise _missing("3-8 to 3-14", f"descriptions of damage type {excerpt(damage_type)!r}")

    def organ(self, system: OrganSystem) -> OrganTable:
        """Rule F12: the organ system damage table (3-15.x) of ``system``."""
        for table in self.organ_tables:
            if table.system == system:
                return table
        raise _missing("3-15.x", f"{system} organ system damage")


def bundle(tables: list[DamageTable]) -> DamageTables:
    """Gather loaded tables into a :class:`DamageTables`; a table supplied twice is a TableError."""
    wep: WepModTable | None = None
    factors: OrganFactorTable | None = None
    descriptions: dict[str, DescriptionTable] = {}
    organs: dict[str, OrganTable] = {}
    seen: dict[str, str] = {}
    for table in tables:
        key = table.table
        if isinstance(table, DescriptionTable):
            key = f"description of {table.damage_type.strip().casefold()!r}"
        elif isinstance(table, OrganTable):
            key = f"organ table of {table.system}"
        if key in seen:
            raise _fail(table.source, "$.table", f"{key} is also supplied by {seen[key]}")
        seen[key] = table.source
        if isinstance(table, WepModTable):
            wep = table
        elif isinstance(table, OrganFactorTable):
            factors = table
        elif isinstance(table, DescriptionTable):
            descriptions[key] = table
        else:
            organs[key] = table
    return DamageTables(
        wep_mod_table=wep,
        factor_table=factors,
        descriptions=tuple(descriptions.values()),
        organ_tables=tuple(organs.values()),
    )


def load_tables(paths: list[Path]) -> DamageTables:
    """Read every file of ``paths`` with :func:`load_table` and bundle them (rules F10, F11, F12)."""
    return bundle([load_table(path) for path in paths])
