"""A ruleset's tables as people read them, for ``affray rules``: rows under column headings, found by name."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

import msgspec

from affray.names import close_names, name_key

Cell = str | int | float | Decimal | bool | None
"""One value of a row: as the table prints it (None for an empty cell)."""


def _text(cell: Cell) -> str:
    if cell is None:
        return "-"
    if isinstance(cell, bool):
        return "yes" if cell else "no"
    if isinstance(cell, float):
        return f"{cell:g}"
    return str(cell)


@dataclass(frozen=True)
class RulesTable:
    """One table of a ruleset or module: the first column holds the names a scenario uses."""

    name: str
    """What is typed to list it: ``affray rules energion weapons``."""
    title: str
    rules: str
    """The rule ids it serves ("E2, E3, E10")."""
    source: str
    """Where its figures come from: the seed text as printed, or invented example data."""
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"table {self.name}: row {row!r} does not have {len(self.columns)} cells")

    def names(self) -> list[str]:
        """The name of each row, in order."""
        return [_text(row[0]) for row in self.rows]

    def matching(self, query: str) -> RulesTable:
        """The rows named ``query`` (case ignored), else the rows whose names are close to it."""
        exact = tuple(row for row in self.rows if name_key(_text(row[0])) == name_key(query))
        if exact:
            return replace(self, rows=exact)
        close = set(close_names(query, self.names(), limit=None))
        return replace(self, rows=tuple(row for row in self.rows if _text(row[0]) in close))

    def lines(self) -> list[str]:
        """The table as aligned text: a heading line, then a line per row."""
        cells = [list(self.columns), *([_text(cell) for cell in row] for row in self.rows)]
        widths = [max(len(line[i]) for line in cells) for i in range(len(self.columns))]
        return [
            "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
            for line in cells
        ]

    def records(self) -> list[Mapping[str, Cell]]:
        """The rows as mappings from column heading to cell, for ``--json``."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


TABLE_ENCODER = msgspec.json.Encoder(decimal_format="number")
"""Tables as JSON: figures as numbers."""


def table_summary(table: RulesTable) -> dict[str, Any]:
    """What ``affray rules --json`` lists of a table: all but its rows, and how many there are."""
    return {
        "name": table.name,
        "title": table.title,
        "rules": table.rules,
        "source": table.source,
        "rows": len(table.rows),
    }


def table_record(owner: str, table: RulesTable) -> dict[str, Any]:
    """A table as ``affray rules NAME TABLE --json`` shows it: its ruleset or module, and every row."""
    return {
        "of": owner,
        "name": table.name,
        "title": table.title,
        "rules": table.rules,
        "source": table.source,
        "columns": list(table.columns),
        "rows": table.records(),
    }
