"""How a campaign's file is opened: reading writes nothing, to the file or beside it (alone, beside a writer,
or over the lines a killed writer left); SQLite's files beside a campaign are its own, never a link; every
connection runs with untrusted schema off, no attached database and no value loaded past its limit."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from affray.errors import LogError
from affray.stores import connection
from affray.stores.connection import VALUE_LIMIT
from affray.stores.sqlite import Campaign
from tests.stores.campaigns import DUEL, GOLDEN, write
from tests.stores.processes import HEADER_OF, ROOT, WRITER, holding

BRAWL = (GOLDEN / "brawl.jsonl").read_bytes()


def read(campaign: Campaign, name: str) -> bytes:
    with campaign.read(name) as stream:
        return stream.read()


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Each file of the folder: its bytes and when it was last changed."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def test_reading_a_campaign_leaves_its_folder_and_its_bytes_as_they_were(path: Path) -> None:
    before = snapshot(path.parent)
    with Campaign.open(path, read_only=True) as campaign:
        assert read(campaign, "duel") == DUEL
        assert [s.name for s in campaign.stored()] == ["duel"]
        assert snapshot(path.parent) == before
    assert snapshot(path.parent) == before


LEAVE_LINES = """
import os, sys
from pathlib import Path
from affray.stores.sqlite import Campaign

campaign = Campaign.open(Path(sys.argv[1]))
output = campaign.writer("brawl")
for line in Path(sys.argv[2]).read_bytes().splitlines(keepends=True):
    output.write(line)
output.commit()
os.kill(os.getpid(), 9)
"""
"""A writer killed after committing an encounter: its lines are in the -wal it leaves, not yet in the file."""


@pytest.fixture
def left(path: Path) -> Path:
    """The campaign with the lines of a killed writer (encounter ``brawl``) in the -wal it left."""
    killed = subprocess.run(
        [sys.executable, "-c", LEAVE_LINES, path, GOLDEN / "brawl.jsonl"], cwd=ROOT, timeout=60, check=False
    )
    assert killed.returncode == -signal.SIGKILL
    assert (path.parent / "c.sqlite-wal").stat().st_size > 32
    return path


def test_the_lines_a_killed_writer_left_are_read_and_its_files_left_as_they_were(left: Path) -> None:
    before = snapshot(left.parent)
    with Campaign.open(left, read_only=True) as campaign:
        assert read(campaign, "brawl") == BRAWL
    assert snapshot(left.parent) == before


def test_the_next_writer_takes_in_the_lines_a_killed_writer_left(left: Path) -> None:
    with Campaign.open(left) as campaign:
        write(campaign, "again", DUEL)
    assert sorted(p.name for p in left.parent.iterdir()) == ["c.sqlite"]
    with Campaign.open(left, read_only=True) as campaign:
        assert [s.name for s in campaign.stored()] == ["again", "brawl", "duel"]


def test_lines_left_without_their_index_are_refused_and_nothing_is_made(left: Path) -> None:
    (left.parent / "c.sqlite-shm").unlink()
    before = snapshot(left.parent)
    with pytest.raises(
        LogError, match=r"c\.sqlite: its -wal file holds lines a writer committed and its -shm"
    ):
        Campaign.open(left, read_only=True)
    assert snapshot(left.parent) == before


def test_reading_beside_a_writer_in_another_process_reads_what_it_committed(path: Path) -> None:
    with holding(WRITER, path, "meanwhile", HEADER_OF), Campaign.open(path, read_only=True) as campaign:
        assert campaign.stored()[0].name.startswith(".meanwhile.")
        assert read(campaign, "duel") == DUEL


def test_a_campaign_written_by_another_name_is_not_read_beside_that_write(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite names the -wal after the name it is given: a writer by a hard link keeps one this name has not
    monkeypatch.setattr(connection, "WRITER_FILES_WAIT", 0.1)
    os.link(path, path.parent / "c2.sqlite")
    with holding(WRITER, path.parent / "c2.sqlite", "meanwhile", HEADER_OF):
        with pytest.raises(LogError, match=r"c\.sqlite: another affray is writing to it by another name"):
            Campaign.open(path, read_only=True)
        assert not (path.parent / "c.sqlite-wal").exists()


@pytest.fixture(params=["-wal", "-shm", "-journal"])
def planted(request: pytest.FixtureRequest, path: Path) -> Iterator[Path]:
    """A link beside the campaign, at the name of one of SQLite's files, to a file of someone else's."""
    victim = path.parent / "victim.txt"
    victim.write_bytes(b"precious\n")
    (path.parent / f"c.sqlite{request.param}").symlink_to(victim)
    yield victim
    assert victim.read_bytes() == b"precious\n"


@pytest.mark.parametrize("read_only", [True, False], ids=["read", "write"])
def test_a_link_at_the_name_of_a_file_of_sqlite_s_is_refused(
    path: Path, planted: Path, read_only: bool
) -> None:
    before = path.read_bytes()
    with pytest.raises(
        LogError, match=r"c\.sqlite: c\.sqlite-(wal|shm|journal) beside it is not a regular file"
    ):
        Campaign.open(path, read_only=read_only)
    assert path.read_bytes() == before


def test_a_rollback_journal_beside_the_campaign_is_refused(path: Path) -> None:
    (path.parent / "c.sqlite-journal").write_bytes(b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + bytes(504))
    with pytest.raises(LogError, match=r"c\.sqlite-journal beside it is a rollback journal"):
        Campaign.open(path, read_only=True)
    with pytest.raises(LogError, match=r"c\.sqlite-journal beside it is a rollback journal"):
        Campaign.open(path)


def _connections(campaign: Campaign) -> Iterator[sqlite3.Connection]:
    yield campaign._connection
    with campaign.read("duel") as stream:
        yield stream.raw._connection  # type: ignore[attr-defined]


@pytest.mark.parametrize("read_only", [True, False], ids=["read", "write"])
def test_every_connection_trusts_no_schema_attaches_nothing_and_loads_no_long_value(
    path: Path, read_only: bool
) -> None:
    with Campaign.open(path, read_only=read_only) as campaign:
        for opened in _connections(campaign):
            assert opened.execute("PRAGMA trusted_schema").fetchone() == (0,)
            assert opened.getlimit(sqlite3.SQLITE_LIMIT_LENGTH) == VALUE_LIMIT
            with pytest.raises(sqlite3.OperationalError, match="too many attached databases"):
                opened.execute("ATTACH DATABASE ':memory:' AS other")
