"""Campaigns as a stranger may make them, with Python's own ``sqlite3`` as any tool would: values of any type
or size in affray's columns, and schema objects affray never creates.

A STRICT table takes only values of its columns' types, so ``loosened`` takes the types out of the tables'
definitions for a while (``PRAGMA writable_schema``), lets a change be made, and puts affray's definitions
back: the file then holds affray's schema, word for word, and values no affray writes.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

LOOSE = {
    "encounters": (
        "CREATE TABLE encounters (id INTEGER PRIMARY KEY, name NOT NULL UNIQUE, header NOT NULL, "
        "end_line NULL, events NOT NULL, last_hash NOT NULL)"
    ),
    "events": (
        "CREATE TABLE events (encounter INTEGER NOT NULL REFERENCES encounters(id) ON DELETE CASCADE, "
        "seq NOT NULL, line NOT NULL, PRIMARY KEY (encounter, seq)) WITHOUT ROWID"
    ),
    "signatures": (
        "CREATE TABLE signatures (encounter INTEGER NOT NULL REFERENCES encounters(id) ON DELETE CASCADE, "
        "position NOT NULL, line NOT NULL, PRIMARY KEY (encounter, position)) WITHOUT ROWID"
    ),
}
"""affray's tables with no type on their columns (none STRICT), so any value goes in."""


def _definitions(path: Path) -> dict[str, str]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return dict(db.execute("SELECT name, sql FROM sqlite_schema WHERE type = 'table'").fetchall())


def _define(path: Path, tables: dict[str, str]) -> None:
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("PRAGMA writable_schema = ON")
        for name, sql in tables.items():
            db.execute("UPDATE sqlite_schema SET sql = ? WHERE name = ?", (sql, name))


@contextlib.contextmanager
def loosened(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection to the campaign at ``path`` on which any value goes in any column; committed and
    closed on leaving, and affray's table definitions put back."""
    original = _definitions(path)
    _define(path, LOOSE)
    try:
        with contextlib.closing(sqlite3.connect(path)) as db, db:
            yield db
    finally:
        _define(path, original)


def change(path: Path, *statements: str) -> None:
    """Run ``statements`` on the campaign at ``path`` as another tool would, committed."""
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        for statement in statements:
            db.execute(statement)


FOREIGN_OBJECTS = {
    "trigger": (
        "CREATE TRIGGER wipe AFTER UPDATE OF name ON encounters "
        "BEGIN DELETE FROM encounters WHERE id <> NEW.id; END",
        "a trigger wipe on encounters",
    ),
    "view": ("CREATE VIEW names AS SELECT name FROM encounters", "a view names"),
    "index": ("CREATE INDEX by_events ON encounters (events)", "an index by_events on encounters"),
    "table": ("CREATE TABLE notes (text TEXT)", "a table notes"),
    "virtual table": ("CREATE VIRTUAL TABLE notes USING fts5(text)", "a virtual table notes"),
    "stat table": ("ANALYZE", "a table sqlite_stat1"),
}
"""A schema object affray never creates, by kind: its statement and how affray's error names it."""

CHANGED_TABLES = {
    "generated column": (
        "encounters",
        "    last_hash TEXT NOT NULL\n",
        "    last_hash TEXT NOT NULL,\n    shout TEXT GENERATED ALWAYS AS (upper(name)) VIRTUAL\n",
    ),
    "default expression": (
        "encounters",
        "    last_hash TEXT NOT NULL\n",
        "    last_hash TEXT NOT NULL DEFAULT (hex(randomblob(16)))\n",
    ),
    "changed check": ("events", "CHECK (seq >= 1)", "CHECK (seq >= 0)"),
    "not strict": ("events", "WITHOUT ROWID, STRICT", "WITHOUT ROWID"),
}
"""A table of affray's defined otherwise, by what changed: which table, and what in its definition is
replaced by what."""


def redefine(path: Path, table: str, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in the definition of ``table`` in the campaign's schema (its rows left as
    they are)."""
    sql = _definitions(path)[table]
    assert old in sql
    _define(path, {table: sql.replace(old, new)})
