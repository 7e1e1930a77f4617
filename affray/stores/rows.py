"""The values a campaign holds, each checked in SQL before it is fetched.

Every column read is selected as three values: its SQLite type (``typeof``), its length when it has the
type affray stores there (``length``, which for a BLOB SQLite reads from the record without loading the
value), and the value itself only when both are as affray writes them. So a row a stranger made (a line
held as TEXT, a name that is an INTEGER or a BLOB, a header of 900 MB) is an error naming the row and what
is wrong, and no value longer than affray keeps is ever loaded; the line limit of a log
(``MAX_LINE_BYTES``) bounds every stored line and header.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Literal, NamedTuple, cast

import msgspec

from affray.errors import LogError, excerpt, printable
from affray.events.codec import MAX_LINE_BYTES
from affray.events.signature import MAX_SIGNATURE_BYTES
from affray.stores.connection import error_code

NAME_LIMIT = 200
"""The longest name, in characters, an encounter may be given."""
STORED_NAME_LIMIT = NAME_LIMIT + 40
"""The longest name a stored encounter may have: a temporary or partial one adds to its name."""
HASH_LIMIT = 64
"""The longest chain hash a campaign may hold (affray's are 32 hexadecimal digits)."""

_SAID = {
    "text": "text",
    "blob": "bytes (a blob)",
    "integer": "an integer",
    "real": "a real number",
    "null": "null",
}

Kind = Literal["text", "blob", "integer"]


class Bad(Exception):
    """A value that is not as affray stores it: what is wrong with it."""


class Column(NamedTuple):
    """A column as affray stores it: its name in SQL, how an error says it, its SQLite type, and the
    bounds of its values (the longest text in characters or blob in bytes, and how that limit is said;
    the least integer)."""

    sql: str
    said: str
    kind: Kind
    longest: int = 0
    limit_said: str = ""
    least: int = 0
    nullable: bool = False

    def select(self) -> str:
        """Three expressions: the type, the length (when of the right type), and the value (when of the
        right type and length; text as its bytes, so a text that is not UTF-8 is found here)."""
        name = self.sql
        typed = f"typeof({name}) = '{self.kind}'"
        if self.kind == "integer":
            return f"typeof({name}), NULL, CASE WHEN {typed} THEN {name} END"
        value = f"CAST({name} AS BLOB)" if self.kind == "text" else name
        return (
            f"typeof({name}), CASE WHEN {typed} THEN length({name}) END, "
            f"CASE WHEN {typed} AND length({name}) <= {self.longest} THEN {value} END"
        )

    def value(self, type_of: str, length: int | None, value: object) -> object:
        """The value fetched, checked: Bad saying what is wrong with it."""
        if type_of == "null" and self.nullable:
            return None
        if type_of != self.kind:
            raise Bad(f"{self.said} is stored as {_SAID.get(type_of, type_of)}, not as {_SAID[self.kind]}")
        if self.kind == "integer":
            assert isinstance(value, int)
            if value < self.least:
                raise Bad(f"{self.said} is {value}, less than {self.least}")
            return value
        if value is None:
            unit = "characters" if self.kind == "text" else "bytes"
            raise Bad(
                f"{self.said} is {length:,} {unit} long, longer than the {self.longest:,} {self.limit_said}"
            )
        assert isinstance(value, bytes)
        if self.kind == "blob":
            return value
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise Bad(f"{self.said} is not UTF-8 text") from None


NAME = Column("name", "its name", "text", STORED_NAME_LIMIT, "characters a stored name may have")
HEADER = Column("header", "its header", "blob", MAX_LINE_BYTES, "bytes a log line may hold")
END_LINE = Column(
    "end_line", "its end line", "blob", MAX_LINE_BYTES, "bytes a log line may hold", nullable=True
)
EVENTS = Column("events", "its count of events", "integer")
LAST_HASH = Column("last_hash", "its last chain hash", "text", HASH_LIMIT, "characters a chain hash may have")
LINE = Column("line", "its line", "blob", MAX_LINE_BYTES, "bytes a log line may hold")
SIGNATURE_LINE = Column(
    "line", "its signature line", "blob", MAX_SIGNATURE_BYTES, "bytes a signature line may hold"
)


def select(columns: Sequence[Column], rest: str, *, first: str = "id") -> str:
    """``SELECT first, <each column checked> rest``."""
    return f"SELECT {first}, {', '.join(column.select() for column in columns)} {rest}"


def values(columns: Sequence[Column], row: Sequence[object]) -> list[object]:
    """The checked values of a row selected by ``select`` (its first value left out); Bad for the first
    that is not as affray stores it."""
    checked = []
    for at, column in enumerate(columns):
        type_of, length, value = row[1 + 3 * at : 4 + 3 * at]
        checked.append(column.value(str(type_of), cast(int | None, length), value))
    return checked


class Stored(msgspec.Struct, frozen=True):
    """An encounter a campaign holds: its name, how many event lines it holds, and whether its end line
    is stored (a partial or temporary encounter has none)."""

    name: str
    events: int
    whole: bool


class Held(NamedTuple):
    """An encounter's row, as the writer needs it."""

    id: int
    header: bytes
    end_line: bytes | None
    events: int
    last_hash: str


_NAMED = select([NAME], "FROM encounters WHERE id = ?")
_LISTED = (NAME, EVENTS, END_LINE)
_LISTING = select(_LISTED, "FROM encounters ORDER BY name LIMIT ?")


def encounter_named(connection: sqlite3.Connection, where: str, id: int) -> str:
    """How an error names the encounter of row ``id``: ``campaign.sqlite#NAME``, or by its id when its name
    is not one affray stores."""
    try:
        row = connection.execute(_NAMED, (id,)).fetchone()
        name = values([NAME], row)[0] if row is not None else None
    except (Bad, sqlite3.DataError):
        name = None
    if isinstance(name, str):
        return f"{where}#{excerpt(printable(name))}"
    return f"{where}: the encounter of id {id}"


def _bad_row(connection: sqlite3.Connection, where: str, id: int, bad: Bad) -> LogError:
    return LogError(f"{encounter_named(connection, where, id)}: {bad}; affray did not write it so")


def listing(connection: sqlite3.Connection, where: str, limit: int = -1) -> list[Stored]:
    """The encounters (the first ``limit`` by name; all when -1), each checked."""
    encounters = []
    try:
        for row in connection.execute(_LISTING, (limit,)):
            try:
                name, events, end_line = values(_LISTED, row)
            except Bad as bad:
                raise _bad_row(connection, where, row[0], bad) from None
            encounters.append(Stored(cast(str, name), cast(int, events), end_line is not None))
    except sqlite3.DataError as exc:
        raise too_big(connection, where, exc) from None
    return encounters


_CHAIN = (END_LINE, EVENTS, LAST_HASH)
_HELD = select((HEADER, *_CHAIN), "FROM encounters WHERE name = ?")
_HELD_BUT_HEADER = select(_CHAIN, "FROM encounters WHERE name = ?")


def held(connection: sqlite3.Connection, where: str, name: str, *, header: bool = True) -> Held | None:
    """The row of encounter ``name`` (None when there is none), each value checked; its header only when
    asked for (else empty). ``where`` names the encounter in errors."""
    columns = (HEADER, *_CHAIN) if header else _CHAIN
    row = fetching(connection, where, _HELD if header else _HELD_BUT_HEADER, (name,)).fetchone()
    if row is None:
        return None
    try:
        checked = values(columns, row)
    except Bad as bad:
        raise LogError(f"{where}: {bad}; affray did not write it so") from None
    end_line, events, last_hash = checked[-3:]
    return Held(
        row[0],
        cast(bytes, checked[0]) if header else b"",
        cast(bytes | None, end_line),
        cast(int, events),
        cast(str, last_hash),
    )


_BAD_LINE = f"""
SELECT seq, seq_type, line_type, length FROM (
    SELECT CASE WHEN typeof(seq) = 'integer' THEN seq END AS seq, typeof(seq) AS seq_type,
        typeof(line) AS line_type, CASE WHEN typeof(line) = 'blob' THEN length(line) END AS length
    FROM events WHERE encounter = ?
) WHERE seq_type <> 'integer' OR seq < 1 OR line_type <> 'blob' OR length > {MAX_LINE_BYTES} LIMIT 1
"""
"""The first event row of an encounter that is not as affray stores it, found without loading a line."""


def check_lines(connection: sqlite3.Connection, where: str, encounter: int) -> None:
    """LogError naming the first event line of the encounter that is not as affray stores it."""
    row = connection.execute(_BAD_LINE, (encounter,)).fetchone()
    if row is None:
        return
    seq, seq_type, line_type, length = row
    if seq_type != "integer":
        problem = f"a seq is stored as {_SAID.get(seq_type, seq_type)}, not as an integer"
    elif seq < 1:
        problem = f"seq {seq}: a seq is 1 or more"
    else:
        try:
            LINE.value(line_type, length, None)
            problem = f"seq {seq}: its line is not as affray stores it"
        except Bad as bad:
            problem = f"seq {seq}: {bad}"
    raise LogError(f"{where}: {problem}; affray did not write it so")


LINES = select([LINE], "FROM events WHERE encounter = ? ORDER BY seq", first="seq")
"""Each event line of an encounter by seq, checked as ``values`` checks it."""
SIGNATURE_LINES = select(
    [SIGNATURE_LINE], "FROM signatures WHERE encounter = ? ORDER BY position", first="position"
)
"""Each signature line of an encounter (schema version 2) in order, checked as ``values`` checks it."""


def fetching(
    connection: sqlite3.Connection, where: str, query: str, parameters: tuple[object, ...]
) -> sqlite3.Cursor:
    """A cursor on ``query`` (its first row fetched); when a value in the table is longer than SQLite may
    load, LogError naming its encounter."""
    try:
        return connection.execute(query, parameters)
    except sqlite3.DataError as exc:
        raise too_big(connection, where, exc) from None


def too_big(connection: sqlite3.Connection, where: str, exc: sqlite3.Error) -> Exception:
    """For an error that a value too long to load gave: LogError naming the encounter whose name or hash
    it is (text, whose length SQLite cannot tell without loading it); else ``exc`` itself."""
    if error_code(exc) != sqlite3.SQLITE_TOOBIG:
        return exc
    for (id,) in connection.execute("SELECT id FROM encounters"):
        for column in (NAME, LAST_HASH):
            try:
                connection.execute(
                    f"SELECT length({column.sql}) FROM encounters WHERE id = ?", (id,)
                ).fetchone()
            except sqlite3.DataError:
                return LogError(
                    f"{where}: the encounter of id {id}: {column.said} is longer than the "
                    f"{column.longest:,} {column.limit_said}; affray did not write it so"
                )
    return exc
