"""User-supplied tables of the five-step system (seed 000): their data format, loader and checks.

The text names tables it does not contain. This module holds those of surprise to grenades (F5-F9):
Tables 3-1, 3-2, 3-3.4, 3-4.0, 3-4.1, 3-6 and 3-7.0 to 3-7.4; the damage tables (3-3, 3-3.1, 3-8 to
3-15.x) are in :mod:`affray.rules.fivestep.damage_tables`. affray ships none of their figures: a scenario
names table files, :func:`load_tables` reads them, and a procedure that needs one calls :func:`require`,
which fails with a clear error naming the table.

The example files under ``examples/tables/fivestep/`` are invented example data, marked ``example = true``.

Every file is TOML and starts with two keys::

    table = "3-1"       # which table of the text this is
    example = false     # true for invented example data, not a referee's real table

then the rows of the table's family (see docs/rulesets/fivestep.md for each):

- ``range`` (3-1 MARKS vs range, 3-2 sum of adversity modifiers vs range): optional ``key`` (what the
  columns are keyed by) and ``columns`` (ascending upper bounds of that key); ``[[row]]`` with
  ``range_m_max`` (ascending upper bounds in metres) and ``value`` (no columns) or ``values`` (one per
  column).
- ``location`` (3-3.4 random hit): ``[[row]]`` with ``low``, ``high`` (d100, 1 to 100, no gaps) and ``part``.
- ``throw`` (3-4.0): ``weights_kg`` (ascending upper bounds); ``[[row]]`` with ``strength_max`` (ascending)
  and ``distances_m`` (one per weight).
- ``bounce`` (3-4.1): ``[[row]]`` with ``over_max`` (points over BRAWL, ascending, the last 20),
  ``bounces`` and ``distance_m`` (where it lands from the target), optional ``note``.
- ``action`` (3-6): ``unit = "percent"`` (of the Agility Points) or ``"points"``; ``[[row]]`` with
  ``action`` and ``cost``.
- ``adversity`` (3-7.0 to 3-7.4): optional ``title``; ``[[row]]`` with ``condition`` and ``modifier``
  (summed and read against range on Table 3-2 for the Percent Against, rule F8).

RULINGS:

- A bound is an inclusive upper bound: a row with ``range_m_max = 10`` covers ranges above the previous
  row's bound up to and including 10 m; the first row starts at 0. So range rows cannot leave gaps.
- A key above the last column reads the last column (the table's best or worst figure is the limit); a
  range beyond the last row is off the table: the look-up gives None and the rule decides (a miss, F8).
- Names (actions, conditions) are matched ignoring case and surrounding spaces, and must be unique.
- Every number is finite and from -1,000,000 to 1,000,000 (``tabledata.NUMBER_LIMIT``), checked as the file
  is decoded: ``nan``, ``inf`` or ``1e308`` is a TableError naming the file and the field path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Literal, TypeAlias, TypeVar, overload

import msgspec

from affray.errors import TableError, UnknownTableEntry, excerpt, read_user_file
from affray.rules.tabledata import decode_table, require_unique, table_error

__all__ = [
    "FAMILIES",
    "ActionCost",
    "ActionTable",
    "AdversityRow",
    "AdversityTable",
    "BounceRow",
    "BounceTable",
    "LocationRow",
    "LocationTable",
    "MissingTable",
    "RangeRow",
    "RangeTable",
    "Tables",
    "ThrowRow",
    "ThrowTable",
    "UserTable",
    "load_table",
    "load_tables",
    "missing_table",
    "parse_table",
    "require",
    "table_id",
]

_D100 = Annotated[int, msgspec.Meta(ge=1, le=100)]
_Name = Annotated[str, msgspec.Meta(min_length=1)]
_R = TypeVar("_R")

BOUNCE_LIMIT = 20
"""Rule F9: a throw up to 20 over BRAWL bounces; the bounce table must cover 0 to 20 over."""


class MissingTable(TableError):
    """A procedure needs a user-supplied table the scenario does not supply."""


class _Strict(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every table type: immutable, keyword-only, strict about unknown fields."""


class _Header(msgspec.Struct, frozen=True, kw_only=True):
    table: str
    example: bool


class _File(_Strict, frozen=True):
    """The two keys every table file starts with: which table it is, and whether it is invented."""

    table: str
    example: bool
    source: str = ""


def _key(name: str) -> str:
    return name.strip().casefold()


# --- range family: 3-1, 3-2, 3-3 -------------------------------------------------------------------


class RangeRow(_Strict, frozen=True):
    """One band of range, up to and including ``range_m_max`` metres: one ``value`` or one per column."""

    range_m_max: Decimal
    value: Decimal | None = None
    values: tuple[Decimal, ...] = ()


class RangeTable(_File, frozen=True, kw_only=True):
    """Tables 3-1 (MARKS vs range) and 3-2 (sum of adversity modifiers vs range)."""

    key: str = ""
    columns: tuple[Decimal, ...] = ()
    row: tuple[RangeRow, ...]

    def band(self, range_m: Decimal) -> RangeRow | None:
        """The row covering ``range_m`` (the first whose bound is at or above it); None beyond the table."""
        for row in self.row:
            if range_m <= row.range_m_max:
                return row
        return None

    def column(self, key: Decimal) -> int:
        """The index of the first column whose bound is at or above ``key``; above them all, the last."""
        for index, bound in enumerate(self.columns):
            if key <= bound:
                return index
        return len(self.columns) - 1

    def lookup(self, range_m: Decimal, key: Decimal | None = None) -> Decimal | None:
        """The figure for ``range_m`` (and ``key`` when the table has columns); None beyond the last row."""
        row = self.band(range_m)
        if row is None:
            return None
        if not self.columns:
            assert row.value is not None  # checked on loading
            return row.value
        if key is None:
            raise ValueError(f"Table {self.table} is keyed by {self.key or 'a column'}: give a key")
        return row.values[self.column(key)]


# --- location family: 3-3.4 ------------------------------------------------------------------------


class LocationRow(_Strict, frozen=True):
    """A d100 range (``low`` to ``high``, inclusive) and the body part it hits."""

    low: _D100
    high: _D100
    part: _Name


class LocationTable(_File, frozen=True, kw_only=True):
    """Table 3-3.4, random hit: every d100 roll from 1 to 100 reads exactly one row."""

    row: tuple[LocationRow, ...]

    def part_for(self, roll: int) -> str:
        """The body part a d100 ``roll`` hits; ValueError for a roll outside 1 to 100."""
        for row in self.row:
            if row.low <= roll <= row.high:
                return row.part
        raise ValueError(f"a d100 roll is 1 to 100, got {roll}")


# --- throw family: 3-4.0 ---------------------------------------------------------------------------


class ThrowRow(_Strict, frozen=True):
    """Physical Strength up to ``strength_max``: the distance in metres for each weight column."""

    strength_max: int
    distances_m: tuple[Decimal, ...]


class ThrowTable(_File, frozen=True, kw_only=True):
    """Table 3-4.0: Physical Strength vs the object's weight gives the distance it can be thrown."""

    weights_kg: tuple[Decimal, ...]
    row: tuple[ThrowRow, ...]

    def distance(self, strength: int, weight_kg: Decimal) -> Decimal:
        """Metres a thrower of ``strength`` hurls ``weight_kg``; above the last strength row the last row
        reads, heavier than the last weight column the object cannot be thrown (0 m)."""
        column = next((i for i, bound in enumerate(self.weights_kg) if weight_kg <= bound), None)
        if column is None:
            return Decimal(0)
        row = next((r for r in self.row if strength <= r.strength_max), self.row[-1])
        return row.distances_m[column]


# --- bounce family: 3-4.1 --------------------------------------------------------------------------


class BounceRow(_Strict, frozen=True):
    """A throw up to ``over_max`` points over BRAWL: how often it bounces and how far from the target it
    comes to rest."""

    over_max: Annotated[int, msgspec.Meta(ge=0, le=BOUNCE_LIMIT)]
    bounces: Annotated[int, msgspec.Meta(ge=0)]
    distance_m: Decimal
    note: str = ""


class BounceTable(_File, frozen=True, kw_only=True):
    """Table 3-4.1, grenade bounce: rows from 0 to 20 points over BRAWL, no gaps."""

    row: tuple[BounceRow, ...]

    def row_for(self, over: int | Decimal) -> BounceRow:
        """The row of a throw ``over`` points over BRAWL (0 to 20); ValueError outside it."""
        if over >= 0:
            for row in self.row:
                if over <= row.over_max:
                    return row
        raise ValueError(f"the bounce table covers 0 to {BOUNCE_LIMIT} over, got {over}")


# --- action family: 3-6 ----------------------------------------------------------------------------


class ActionCost(_Strict, frozen=True):
    """One action and its cost in Agility Points (or in percent of them)."""

    action: _Name
    cost: Decimal


class ActionTable(_File, frozen=True, kw_only=True):
    """Table 3-6: what actions cost, as a percentage of the Agility Points or in points."""

    unit: Literal["percent", "points"] = "percent"
    row: tuple[ActionCost, ...]

    def named(self, action: str) -> ActionCost:
        """The row of that action (ignoring case); UnknownTableEntry naming the table if none."""
        return _named(self.table, "action", action, self.row, lambda r: r.action)


# --- adversity family: 3-7.0 to 3-7.4 --------------------------------------------------------------


class AdversityRow(_Strict, frozen=True):
    """One environmental or movement condition and its adversity modifier."""

    condition: _Name
    modifier: Decimal


class AdversityTable(_File, frozen=True, kw_only=True):
    """Tables 3-7.0 to 3-7.4: adversity modifiers by condition (summed, then read on Table 3-2)."""

    title: str = ""
    row: tuple[AdversityRow, ...]

    def named(self, condition: str) -> AdversityRow:
        """The row of that condition (ignoring case); UnknownTableEntry naming the table if none."""
        return _named(self.table, "condition", condition, self.row, lambda r: r.condition)


UserTable: TypeAlias = RangeTable | LocationTable | ThrowTable | BounceTable | ActionTable | AdversityTable
"""Any user-supplied five-step table."""
Tables: TypeAlias = Mapping[str, UserTable]
"""The tables a scenario supplies, by table id ("3-1")."""

FAMILIES: Mapping[str, type[UserTable]] = {
    "3-1": RangeTable,
    "3-2": RangeTable,
    "3-3.4": LocationTable,
    "3-4.0": ThrowTable,
    "3-4.1": BounceTable,
    "3-6": ActionTable,
    **{f"3-7.{n}": AdversityTable for n in range(5)},
}
"""The table ids affray knows and the family (data format) of each."""


def _named(table: str, what: str, name: str, rows: Sequence[_R], name_of: Callable[[_R], str]) -> _R:
    wanted = _key(name)
    for row in rows:
        if _key(name_of(row)) == wanted:
            return row
    known = ", ".join(repr(excerpt(name_of(r))) for r in rows)
    raise UnknownTableEntry(f"Table {table} has no {what} {excerpt(name)!r} (it lists {known})")


# --- validation ------------------------------------------------------------------------------------


def _ascending(source: str, path: str, values: Sequence[Decimal | int], what: str) -> None:
    for index in range(1, len(values)):
        if values[index] <= values[index - 1]:
            raise table_error(
                source, path.format(index), f"{what} must rise: {values[index]} after {values[index - 1]}"
            )


def _signed(source: str, path: str, values: Sequence[Decimal], *, positive: bool) -> None:
    for index, value in enumerate(values):
        if value < 0 or (positive and value == 0):
            expected = "above 0" if positive else "0 or more"
            raise table_error(source, path.format(index), f"expected a number {expected}, got {value}")


def _check_range(source: str, table: RangeTable) -> None:
    _ascending(source, "$.columns[{}]", table.columns, "column bounds")
    _signed(source, "$.row[{}].range_m_max", [r.range_m_max for r in table.row], positive=True)
    _ascending(source, "$.row[{}].range_m_max", [r.range_m_max for r in table.row], "range bounds")
    for index, row in enumerate(table.row):
        path = f"$.row[{index}]"
        if table.columns:
            if row.value is not None:
                raise table_error(source, f"{path}.value", "a table with `columns` has `values` in each row")
            if len(row.values) != len(table.columns):
                raise table_error(
                    source, f"{path}.values", f"expected {len(table.columns)} values (one per column)"
                )
        elif row.value is None or row.values:
            raise table_error(source, path, "a table without `columns` has one `value` in each row")


def _check_location(source: str, table: LocationTable) -> None:
    expected = 1
    for index, row in enumerate(table.row):
        if row.low != expected:
            raise table_error(source, f"$.row[{index}].low", f"expected {expected} (no gaps or overlaps)")
        if row.high < row.low:
            raise table_error(source, f"$.row[{index}].high", f"expected {row.low} or more")
        expected = row.high + 1
    if expected != 101:
        raise table_error(source, f"$.row[{len(table.row) - 1}].high", "the last row must end at 100")


def _check_throw(source: str, table: ThrowTable) -> None:
    _signed(source, "$.weights_kg[{}]", table.weights_kg, positive=True)
    _ascending(source, "$.weights_kg[{}]", table.weights_kg, "weight bounds")
    _ascending(source, "$.row[{}].strength_max", [r.strength_max for r in table.row], "strength bounds")
    for index, row in enumerate(table.row):
        if len(row.distances_m) != len(table.weights_kg):
            raise table_error(
                source, f"$.row[{index}].distances_m", f"expected {len(table.weights_kg)} distances"
            )
        _signed(source, f"$.row[{index}].distances_m[{{}}]", row.distances_m, positive=False)


def _check_bounce(source: str, table: BounceTable) -> None:
    _ascending(source, "$.row[{}].over_max", [r.over_max for r in table.row], "bounds over BRAWL")
    _signed(source, "$.row[{}].distance_m", [r.distance_m for r in table.row], positive=False)
    if table.row[-1].over_max != BOUNCE_LIMIT:
        raise table_error(
            source, f"$.row[{len(table.row) - 1}].over_max", f"the last row must end at {BOUNCE_LIMIT}"
        )


def _check(source: str, table: UserTable) -> None:
    if not table.row:
        raise table_error(source, "$.row", "expected at least one row")
    if isinstance(table, RangeTable):
        _check_range(source, table)
    elif isinstance(table, LocationTable):
        _check_location(source, table)
    elif isinstance(table, ThrowTable):
        _check_throw(source, table)
    elif isinstance(table, BounceTable):
        _check_bounce(source, table)
    elif isinstance(table, ActionTable):
        require_unique(source, "$.row[{}].action", (r.action for r in table.row))
        _signed(source, "$.row[{}].cost", [r.cost for r in table.row], positive=False)
    else:
        require_unique(source, "$.row[{}].condition", (r.condition for r in table.row))


# --- loading ---------------------------------------------------------------------------------------


def parse_table(source: str, text: str | bytes) -> UserTable:
    """Decode and validate one table file's text; TableError names ``source`` and the field path."""
    header = decode_table(source, text, _Header)
    family = FAMILIES.get(header.table)
    if family is None:
        known = ", ".join(FAMILIES)
        raise table_error(
            source,
            "$.table",
            f"unknown table {excerpt(header.table)!r}: this loader reads {known} "
            "(damage tables: damage_tables)",
        )
    table = decode_table(source, text, family)
    _check(source, table)
    return msgspec.structs.replace(table, source=source)


def table_id(path: Path) -> str:
    """The ``table`` a file declares (only its header is checked), so a scenario loader can send each file
    to the loader of its family: :data:`FAMILIES` here, the damage tables to :mod:`.damage_tables`."""
    return decode_table(str(path), read_user_file(path, TableError, "a table file"), _Header).table


def load_table(path: Path) -> UserTable:
    """Read, decode and validate the table file at ``path``; TableError names the file and field path."""
    return parse_table(str(path), read_user_file(path, TableError, "a table file"))


def load_tables(paths: Iterable[Path], relative_to: Path | None = None) -> dict[str, UserTable]:
    """The tables of a scenario by id, read from ``paths`` (relative ones from ``relative_to``, the
    scenario's folder); two files of the same table are refused."""
    tables: dict[str, UserTable] = {}
    for path in paths:
        full = path if relative_to is None or path.is_absolute() else relative_to / path
        table = load_table(full)
        if table.table in tables:
            first = tables[table.table].source
            raise table_error(str(full), "$.table", f"Table {table.table} is already supplied by {first}")
        tables[table.table] = table
    return tables


def missing_table(name: str, procedure: str) -> MissingTable:
    """The error for a table a procedure needs and the scenario does not supply."""
    return MissingTable(
        f"{procedure} needs Table {name}, which the scenario does not supply"
        " (the text names it but does not contain it: give a table file, see docs/rulesets/fivestep.md)"
    )


# --- require ---------------------------------------------------------------------------------------


@overload
def require(tables: Tables, name: Literal["3-1", "3-2"], procedure: str) -> RangeTable: ...
@overload
def require(tables: Tables, name: Literal["3-3.4"], procedure: str) -> LocationTable: ...
@overload
def require(tables: Tables, name: Literal["3-4.0"], procedure: str) -> ThrowTable: ...
@overload
def require(tables: Tables, name: Literal["3-4.1"], procedure: str) -> BounceTable: ...
@overload
def require(tables: Tables, name: Literal["3-6"], procedure: str) -> ActionTable: ...
@overload
def require(
    tables: Tables, name: Literal["3-7.0", "3-7.1", "3-7.2", "3-7.3", "3-7.4"], procedure: str
) -> AdversityTable: ...
@overload
def require(tables: Tables, name: str, procedure: str) -> UserTable: ...
def require(tables: Tables, name: str, procedure: str) -> UserTable:
    """The table ``name`` from the scenario's ``tables``; MissingTable (a TableError) if it is not there:
    "procedure 2 to hit needs Table 3-1, which the scenario does not supply"."""
    table = tables.get(name)
    if table is None:
        raise missing_table(name, procedure)
    expected = FAMILIES.get(name)
    if expected is not None and not isinstance(table, expected):
        raise MissingTable(f"{procedure} needs Table {name}; {table.source or 'the file given'} is not one")
    return table
