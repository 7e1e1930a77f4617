"""A scenario's user-supplied tables, each parsed by the loader of its family (docs/rulesets/fivestep.md).

The tables of surprise to grenades (F5-F9) go to :mod:`.usertables`, the damage tables (F10-F12) to
:mod:`.damage_tables`; which one reads a file is decided by the ``table`` id the file declares, which must
be the id the scenario gives it.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from affray.errors import excerpt, printable
from affray.rules.fivestep import damage_tables, usertables
from affray.rules.fivestep.damage_tables import DamageTables
from affray.rules.fivestep.usertables import UserTable
from affray.rules.tabledata import decode_table, table_error

__all__ = ["TableSet", "parse_table_set"]


class _Declared(msgspec.Struct, frozen=True):
    table: str


class TableSet(msgspec.Struct, frozen=True, kw_only=True):
    """The tables a scenario supplies: those of F5-F9 by id, the damage tables bundled, and which of them
    are invented example data."""

    user: dict[str, UserTable]
    damage: DamageTables
    examples: tuple[str, ...] = ()


def parse_table_set(files: Mapping[str, tuple[str, str]]) -> TableSet:
    """Parse every ``id -> (source, text)``; a file declaring another table than its id is a TableError."""
    user: dict[str, UserTable] = {}
    damage: list[damage_tables.DamageTable] = []
    examples: list[str] = []
    for key, (source, text) in files.items():
        declared = decode_table(source, text, _Declared).table
        if declared != key:
            raise table_error(
                source,
                "$.table",
                f"the file is Table {printable(excerpt(declared))}, but the scenario names it {key}",
            )
        table: UserTable | damage_tables.DamageTable
        if declared in usertables.FAMILIES:
            table = user[declared] = usertables.parse_table(source, text)
        else:
            table = damage_tables.parse_table(source, text)
            damage.append(table)
        if table.example:
            examples.append(declared)
    return TableSet(user=user, damage=damage_tables.bundle(damage), examples=tuple(examples))
