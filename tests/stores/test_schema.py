"""A file is a campaign only when its schema is exactly affray's: any object affray did not create, or a table
of affray's defined otherwise, is refused before a table is read, and the file is left as it was."""

from __future__ import annotations

import contextlib
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from affray.errors import LogError
from affray.stores import schema
from affray.stores.sqlite import Campaign
from tests.stores.hostile import CHANGED_TABLES, FOREIGN_OBJECTS, change, redefine
from tests.stores.processes import ROOT


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_campaign_holds_affray_s_three_tables_and_the_index_of_its_names(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        rows = db.execute("SELECT type, name, tbl_name FROM sqlite_schema ORDER BY name").fetchall()
        (version,) = db.execute("PRAGMA user_version").fetchone()
    assert (version, rows) == (
        2,
        [
            ("table", "encounters", "encounters"),
            ("table", "events", "events"),
            ("table", "signatures", "signatures"),
            ("index", "sqlite_autoindex_encounters_1", "encounters"),
        ],
    )
    assert {(row.type, row.name) for row in schema.expected_rows()} == {
        (t.encode(), n.encode()) for t, n, _ in rows
    }


@pytest.mark.parametrize("read_only", [True, False], ids=["read", "write"])
@pytest.mark.parametrize("kind", sorted(FOREIGN_OBJECTS))
def test_an_object_affray_did_not_create_is_refused_and_the_file_left_as_it_was(
    path: Path, kind: str, read_only: bool
) -> None:
    statement, named = FOREIGN_OBJECTS[kind]
    change(path, statement)
    before = snapshot(path.parent)
    with pytest.raises(LogError) as refused:
        Campaign.open(path, read_only=read_only)
    assert (
        str(refused.value)
        == f"{path}: not an affray campaign (it holds {named}, which affray did not create)"
    )
    assert snapshot(path.parent) == before


@pytest.mark.parametrize("read_only", [True, False], ids=["read", "write"])
@pytest.mark.parametrize("how", sorted(CHANGED_TABLES))
def test_a_table_defined_otherwise_is_refused_and_the_file_left_as_it_was(
    path: Path, how: str, read_only: bool
) -> None:
    table, old, new = CHANGED_TABLES[how]
    redefine(path, table, old, new)
    before = snapshot(path.parent)
    with pytest.raises(LogError) as refused:
        Campaign.open(path, read_only=read_only)
    assert str(refused.value) == (
        f"{path}: not an affray campaign (it holds the table {table} defined otherwise than affray defines "
        "it, which affray did not create)"
    )
    assert snapshot(path.parent) == before


def test_a_campaign_without_one_of_affray_s_tables_is_refused(path: Path) -> None:
    change(path, "DROP TABLE events")
    with pytest.raises(LogError, match=r"not an affray campaign \(it has no events table\)$"):
        Campaign.open(path, read_only=True)


PLANT_IN_THE_WAL = """
import os, sqlite3, sys

connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute(
    "CREATE TRIGGER wipe AFTER UPDATE OF name ON encounters "
    "BEGIN DELETE FROM encounters WHERE id <> NEW.id; END"
)
os.kill(os.getpid(), 9)
"""
"""A trigger committed to the campaign's -wal by a process killed before SQLite moved it into the file."""


def test_an_object_in_the_wal_a_killed_writer_left_is_refused_to_a_writer_and_nothing_changes(
    path: Path,
) -> None:
    planted = subprocess.run(
        [sys.executable, "-c", PLANT_IN_THE_WAL, path], cwd=ROOT, timeout=60, check=False
    )
    assert planted.returncode == -signal.SIGKILL
    before = snapshot(path.parent)
    assert sorted(before) == ["c.sqlite", "c.sqlite-shm", "c.sqlite-wal"]
    for read_only in (True, False):
        with pytest.raises(
            LogError, match=r"it holds a trigger wipe on encounters, which affray did not create"
        ):
            Campaign.open(path, read_only=read_only)
    assert snapshot(path.parent) == before
