"""What a campaign is: its suffixes, its marks, the schema affray creates, and the check that a file holds
that schema and nothing else.

A file is a campaign when its first 100 bytes are a SQLite header marked with affray's ``application_id``
and a schema version it reads, and its ``sqlite_schema`` holds exactly the rows that version's schema makes
(its tables, two in version 1 and three in version 2, and the index SQLite makes for the encounters'
names), compared column by column: a trigger, a view, an index, another table, a column defined otherwise
(a generated or default-expression column, a changed CHECK, a table that is not STRICT) makes it a file
affray did not write, refused before any statement reads or writes a table.
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
from typing import NamedTuple

from affray.errors import LogError, excerpt, printable

APPLICATION_ID = int.from_bytes(b"afry", "big")
"""SQLite's ``application_id`` of a campaign: the ASCII of ``afry``."""
SCHEMA_VERSION = 2
"""The campaign schema this affray writes, kept as SQLite's ``user_version``: version 2 keeps the signature
lines after each encounter's end line; version 1, which has no table for them, is read as it is, and
upgraded to 2 when a signature is first stored in it."""
OLDEST_VERSION = 1
"""The oldest campaign schema this affray reads."""
HEADER_BYTES = 100
"""The length of a SQLite file's header, read before SQLite opens the file."""
_SQLITE_MAGIC = b"SQLite format 3\x00"
_UTF8 = 1
"""The header's text encoding of a database that holds its text as UTF-8."""

# The text of each CREATE statement is what SQLite keeps in sqlite_schema, and what a campaign's schema is
# compared with: never change a character of it without a new SCHEMA_VERSION.
_TABLES = """
CREATE TABLE encounters (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    header BLOB NOT NULL,
    end_line BLOB NULL,
    events INTEGER NOT NULL CHECK (events >= 0),
    last_hash TEXT NOT NULL
) STRICT;
CREATE TABLE events (
    encounter INTEGER NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL CHECK (seq >= 1),
    line BLOB NOT NULL,
    PRIMARY KEY (encounter, seq)
) WITHOUT ROWID, STRICT;
"""
"""The tables of schema version 1."""
_SIGNATURES = """
CREATE TABLE signatures (
    encounter INTEGER NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 1),
    line BLOB NOT NULL,
    PRIMARY KEY (encounter, position)
) WITHOUT ROWID, STRICT;
"""
"""The table version 2 adds: each encounter's signature lines, in the order they follow its end line."""
UPGRADE = (_SIGNATURES.strip().removesuffix(";"), f"PRAGMA user_version = {SCHEMA_VERSION}")
"""The statements that make a campaign of schema version 1 one of version 2, run within a transaction."""


def script(version: int = SCHEMA_VERSION) -> str:
    """The script that makes an empty campaign of schema ``version``."""
    tables = _TABLES + (_SIGNATURES if version >= 2 else "")
    marks = f"PRAGMA application_id = {APPLICATION_ID};\nPRAGMA user_version = {version};\n"
    return f"BEGIN;\n{marks}{tables}COMMIT;\n"


SCHEMA = script()
"""The script that makes an empty campaign's schema."""

_SHOWN = 2000
"""The most of one ``sqlite_schema`` value that is fetched: far more than affray's longest statement, so a
longer one is foreign whatever it holds."""


def not_campaign(where: str, why: str) -> LogError:
    """The error for a file that is no affray campaign."""
    return LogError(f"{where}: not an affray campaign ({why})")


class SchemaRow(NamedTuple):
    """One row of ``sqlite_schema`` as fetched: each column's SQLite type and its value as bytes (None when
    it is not text or is longer than is fetched)."""

    types: tuple[str, str, str, str]
    type: bytes | None
    name: bytes | None
    table: bytes | None
    sql: bytes | None


_SCHEMA_ROWS = f"""
SELECT typeof(type), typeof(name), typeof(tbl_name), typeof(sql),
    CASE WHEN typeof(type) = 'text' AND length(type) <= {_SHOWN} THEN CAST(type AS BLOB) END,
    CASE WHEN typeof(name) = 'text' AND length(name) <= {_SHOWN} THEN CAST(name AS BLOB) END,
    CASE WHEN typeof(tbl_name) = 'text' AND length(tbl_name) <= {_SHOWN} THEN CAST(tbl_name AS BLOB) END,
    CASE WHEN typeof(sql) = 'text' AND length(sql) <= {_SHOWN} THEN CAST(sql AS BLOB) END
FROM sqlite_schema LIMIT ?
"""
"""Each row of ``sqlite_schema``, every value's type and length checked before it is fetched."""


def _rows(connection: sqlite3.Connection, limit: int) -> list[SchemaRow]:
    rows = []
    for type_of, name_of, table_of, sql_of, kind, name, table, sql in connection.execute(
        _SCHEMA_ROWS, (limit,)
    ):
        rows.append(SchemaRow((type_of, name_of, table_of, sql_of), kind, name, table, sql))
    return rows


@functools.cache
def expected_rows(version: int = SCHEMA_VERSION) -> frozenset[SchemaRow]:
    """The rows of ``sqlite_schema`` that the schema of ``version`` makes, as SQLite records them (its
    autoindexes too)."""
    with contextlib.closing(sqlite3.connect(":memory:", isolation_level=None)) as connection:
        connection.executescript(script(version))
        return frozenset(_rows(connection, 100))


def check_header(where: str, head: bytes) -> None:
    """LogError unless ``head``, a file's first bytes, is the header of a SQLite database marked as a
    campaign of the schema this affray reads."""
    if not head:
        raise not_campaign(where, "an empty file")
    if len(head) < HEADER_BYTES or not head.startswith(_SQLITE_MAGIC):
        raise not_campaign(where, "not a SQLite file")
    check_marks(where, int.from_bytes(head[68:72], "big"), int.from_bytes(head[60:64], "big"))
    if int.from_bytes(head[56:60], "big") not in (0, _UTF8):
        raise not_campaign(where, "its text is not kept as UTF-8, as affray keeps it")


def check_marks(where: str, application_id: int, version: int) -> None:
    """LogError unless a database's ``application_id`` and ``user_version`` mark a campaign this affray
    reads."""
    if application_id != APPLICATION_ID:
        database = f"a SQLite database whose application_id is {application_id:#x}"
        raise not_campaign(where, f"{database}, not affray's {APPLICATION_ID:#x}")
    if version > SCHEMA_VERSION:
        raise LogError(
            f"{where}: its campaign schema is version {version}, newer than this affray reads "
            f"({SCHEMA_VERSION}); use a newer affray"
        )
    if version < OLDEST_VERSION:
        raise not_campaign(where, f"its schema version is {version}")


def check_schema(connection: sqlite3.Connection, where: str) -> int:
    """The database's schema version; LogError unless it holds exactly affray's schema of that version:
    its marks, and every row of ``sqlite_schema`` (type, name, table and statement) as that schema makes
    it, nothing more or less. Run before any statement reads or writes a table."""
    (application_id,) = connection.execute("PRAGMA application_id").fetchone()
    (version,) = connection.execute("PRAGMA user_version").fetchone()
    check_marks(where, application_id, version)
    expected = expected_rows(version)
    rows = _rows(connection, len(expected) + 1)
    for row in rows:
        if row not in expected:
            raise not_campaign(where, f"it holds {_described(row, expected)}, which affray did not create")
    missing = sorted(expected - set(rows), key=lambda row: row.name or b"")
    if missing:
        raise not_campaign(where, f"it has no {_text(missing[0].name)} {_text(missing[0].type)}")
    return int(version)


def _text(value: bytes | None) -> str:
    if value is None:
        return "(a value that is not short text)"
    return excerpt(printable(value.decode("utf-8", "replace")))


def _described(row: SchemaRow, expected: frozenset[SchemaRow]) -> str:
    """A foreign row of ``sqlite_schema`` in a few words: ``a trigger t on encounters``."""
    texts = row.types[:3] == ("text", "text", "text") and row.types[3] in ("text", "null")
    if not texts or None in (row.type, row.name, row.table):
        return f"an entry {_text(row.name)} of sqlite_schema whose values are not short text"
    kind = "virtual table" if (row.sql or b"").startswith(b"CREATE VIRTUAL TABLE") else _text(row.type)
    if any(row.name == mine.name and row.type == mine.type for mine in expected):
        return f"the {kind} {_text(row.name)} defined otherwise than affray defines it"
    on = f" on {_text(row.table)}" if row.type in (b"trigger", b"index") else ""
    article = "an" if kind[:1] in "aeiou" else "a"
    return f"{article} {kind} {_text(row.name)}{on}"
