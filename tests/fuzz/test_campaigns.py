"""Hostile campaigns: a real campaign (the duel and the mage duel run into it by ``affray run``) changed as a
stranger with ``sqlite3`` may change it, then read by every command that reads one.

One change per mutant, drawn by hypothesis:

- a schema object affray never creates: a trigger, a view, an index, a table, a virtual table (with its
  shadow tables), SQLite's statistics (``ANALYZE``), each of a random name;
- a column of affray's given another type (or none) in its table's definition;
- a value of a random row and column replaced (the column's type taken out of the way for it): an integer,
  a real, text (odd unicode, control characters, not UTF-8), bytes, null, or a value of 5 to 9 MB.

What must hold for every mutant and command (replay, state, verify, encounters, export, regress): the
command gives its output or one ``error:`` line with exit 2 (verify and regress their verdicts), nothing
escapes ``main`` (no traceback, no MemoryError, no hang: the harness bounds time and memory), and the
campaign's folder and bytes are as they were: reading writes nothing. 25 mutants under the quick profile,
1000 under ``--hypothesis-profile=long``.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tests.fuzz.harness import (
    EXAMPLES,
    Mutant,
    Outcome,
    affray,
    assert_contract,
    breach,
    report,
    verify_breach,
)
from tests.stores.hostile import loosened

ENCOUNTERS = ("duel", "mage-duel")
"""The encounters of the campaign, each the log ``affray run`` writes for its example."""


class Made(bytes):
    """A campaign's bytes, shown in a few words (hypothesis shows a failing test's arguments)."""

    def __repr__(self) -> str:
        return f"<a campaign of {', '.join(ENCOUNTERS)}: {len(self):,} bytes>"


@pytest.fixture(scope="session")
def campaign_bytes(tmp_path_factory: pytest.TempPathFactory) -> Made:
    """The bytes of a campaign holding each of ``ENCOUNTERS``, as ``affray run`` made it."""
    campaign = tmp_path_factory.mktemp("fuzz-campaign") / "c.sqlite"
    for name in ENCOUNTERS:
        ran = affray("run", EXAMPLES / f"{name}.toml", "-o", campaign)
        assert_contract(Mutant(f"examples/{name}.toml", "$", "none"), ran, (0,))
    return Made(campaign.read_bytes())


class Change:
    """One change to a campaign, made by ``make`` (sqlite3.Error when SQLite will not make it: a name
    taken, a key held twice); shown in a few words."""

    def __init__(self, said: str, make: Callable[[Path], None]) -> None:
        self.said = said
        self.make = make

    def __repr__(self) -> str:
        return f"<{self.said}>"


def _run(
    statement: str, parameters: tuple[object, ...] = (), *, loose: bool = False
) -> Callable[[Path], None]:
    """Run ``statement`` on a campaign, its columns' types taken out of the way when ``loose``."""

    def make(campaign: Path) -> None:
        with loosened(campaign) if loose else _plain(campaign) as db:
            db.execute(statement, parameters)

    return make


@contextmanager
def _plain(campaign: Path) -> Iterator[sqlite3.Connection]:
    with closing(sqlite3.connect(campaign)) as db, db:
        yield db


NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,15}", fullmatch=True).filter(
    lambda name: name not in ("encounters", "events") and not name.startswith("sqlite")
)
TABLES = st.sampled_from(["encounters", "events"])

OBJECTS = {
    "trigger": "CREATE TRIGGER {name} AFTER INSERT ON {table} BEGIN SELECT 1; END",
    "trigger that deletes": "CREATE TRIGGER {name} AFTER UPDATE ON {table} BEGIN DELETE FROM encounters; END",
    "view": "CREATE VIEW {name} AS SELECT * FROM {table}",
    "index": "CREATE INDEX {name} ON {table} ({column})",
    "unique index": "CREATE UNIQUE INDEX {name} ON encounters (header)",
    "table": "CREATE TABLE {name} (x)",
    "virtual table": "CREATE VIRTUAL TABLE {name} USING fts5(x)",
    "statistics": "ANALYZE",
}


@st.composite
def foreign_objects(draw: st.DrawFn) -> Change:
    """A schema object affray never creates, of a random name."""
    kind = draw(st.sampled_from(sorted(OBJECTS)))
    name, table = draw(NAMES), draw(TABLES)
    column = "seq" if table == "events" else "events"
    statement = OBJECTS[kind].format(name=name, table=table, column=column)
    return Change(f"{kind} {name}", _run(statement))


COLUMNS = {
    "encounters": ("name", "header", "end_line", "events", "last_hash"),
    "events": ("encounter", "seq", "line"),
}
TYPES = ("TEXT", "BLOB", "INTEGER", "REAL", "ANY", "")


def _retyping(table: str, column: str, kind: str) -> Callable[[Path], None]:
    """Declare ``column`` of ``table`` to be of type ``kind`` (of none, when empty) in the schema."""

    def make(campaign: Path) -> None:
        with closing(sqlite3.connect(campaign, isolation_level=None)) as db:
            (sql,) = db.execute("SELECT sql FROM sqlite_schema WHERE name = ?", (table,)).fetchone()
            retyped = re.sub(rf"(?m)^(    {column}) [A-Z]+", rf"\1 {kind}".rstrip(), sql)
            db.execute("PRAGMA writable_schema = ON")
            db.execute("UPDATE sqlite_schema SET sql = ? WHERE name = ?", (retyped, table))

    return make


@st.composite
def retyped_columns(draw: st.DrawFn) -> Change:
    """A column of affray's given another type, or none, in its table's definition."""
    table = draw(TABLES)
    column = draw(st.sampled_from(COLUMNS[table]))
    kind = draw(st.sampled_from(TYPES))
    return Change(f"{table}.{column} declared {kind or 'with no type'}", _retyping(table, column, kind))


VALUES = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**63 - 1).map(lambda v: ("?", (v,), f"integer {v}")),
    st.floats(allow_nan=False).map(lambda v: ("?", (v,), f"real {v!r}")),
    st.text(max_size=300).map(lambda v: ("?", (v,), f"text of {len(v)} characters")),
    st.binary(max_size=300).map(lambda v: ("?", (v,), f"{len(v)} bytes")),
    st.just(("NULL", (), "null")),
    st.sampled_from(
        [
            ("zeroblob(5000000)", (), "5 MB of zero bytes"),
            ("zeroblob(9000000)", (), "9 MB of zero bytes"),
            ("CAST(zeroblob(9000000) AS TEXT)", (), "9 MB of text"),
            ("CAST(x'ff61c3' AS TEXT)", (), "text that is not UTF-8"),
            ("'a' || char(10, 27, 91, 50, 74) || 'b'", (), "text with a newline and an escape code"),
            ("CAST({column} AS TEXT)", (), "its value as text"),
        ]
    ),
)


@st.composite
def changed_values(draw: st.DrawFn) -> Change:
    """A value of a random row and column replaced."""
    table = draw(TABLES)
    column = draw(st.sampled_from(COLUMNS[table]))
    value, parameters, said = draw(VALUES)
    value = value.format(column=column)
    encounter = draw(st.integers(1, len(ENCOUNTERS)))
    if table == "encounters":
        where, keys = "id = ?", (encounter,)
        at = f"encounter {encounter}"
    else:
        seq = draw(st.integers(1, 27))
        where, keys = "encounter = ? AND seq = ?", (encounter, seq)
        at = f"encounter {encounter}, seq {seq}"
    statement = f"UPDATE {table} SET {column} = {value} WHERE {where}"
    return Change(f"{table}.{column} of {at}: {said}", _run(statement, (*parameters, *keys), loose=True))


CHANGES = st.one_of(foreign_objects(), retyped_columns(), changed_values())

READS = {
    "replay": ("replay", "{c}#{name}"),
    "state": ("state", "{c}#{name}"),
    "verify": ("verify", "{c}#{name}"),
    "encounters": ("encounters", "{c}"),
    "export": ("export", "{c}", "-o", "{out}"),
    "regress": ("regress", "{c}"),
}
STATUSES = {"regress": (0, 1, 2)}
"""The exit statuses each reading command may give (0 or 2 unless named here; verify says its own)."""


def _changed(campaign: Path, change: Change) -> bool:
    """Make ``change``; False when SQLite would not."""
    try:
        change.make(campaign)
    except sqlite3.Error:
        return False
    return True


def _folder(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


_PROGRESS = re.compile(r"^\d+/\d+ logs, .*\n", re.M)
"""A line of regress's progress on stderr."""


def _judged(command: str, outcome: Outcome) -> str:
    if command == "verify":
        return verify_breach(outcome)
    if command == "regress":
        outcome = dataclasses.replace(outcome, err=_PROGRESS.sub("", outcome.err))
    return breach(outcome, STATUSES.get(command, (0, 2)))


@given(change=CHANGES, command=st.sampled_from(sorted(READS)), name=st.sampled_from(ENCOUNTERS))
def test_every_reading_command_answers_a_hostile_campaign_and_writes_nothing(
    campaign_bytes: Made, change: Change, command: str, name: str
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        campaign = Path(folder) / "held" / "c.sqlite"
        campaign.parent.mkdir()
        campaign.write_bytes(campaign_bytes)
        assume(_changed(campaign, change))
        before = _folder(campaign.parent)
        out = Path(folder) / "out"
        outcome = affray(*(arg.format(c=campaign, name=name, out=out) for arg in READS[command]))
        mutant = Mutant("a campaign of the duel and the mage duel", str(change), command, campaign)
        problem = _judged(command, outcome)
        assert not problem, report(mutant, outcome, problem)
        after = _folder(campaign.parent)
        assert after == before, report(mutant, outcome, f"the campaign's folder changed: {sorted(after)}")
        shutil.rmtree(out, ignore_errors=True)
