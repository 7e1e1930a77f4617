"""A campaign's lock is its own file's: an flock on the file (its device and inode) that every name reaching
it meets, that makes nothing beside it, that writers hold alone and readers share, and that leaves SQLite's
own locks alone."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from affray.errors import LogError
from affray.stores import lock
from affray.stores.lock import lock_holders
from affray.stores.sqlite import Campaign
from tests.stores.campaigns import DUEL
from tests.stores.processes import HEADER_OF, READER, SQLITE_WRITER, WRITER, end, holding


def identity(path: Path) -> tuple[int, int]:
    found = os.stat(path)
    return found.st_dev, found.st_ino


def _symbolic_link(path: Path) -> Path:
    (path.parent / "link.sqlite").symlink_to(path.name)
    return path.parent / "link.sqlite"


def _hard_link(path: Path) -> Path:
    os.link(path, path.parent / "c2.sqlite")
    return path.parent / "c2.sqlite"


def _another_path(path: Path) -> Path:
    (path.parent / "sub").mkdir()
    return path.parent / "sub" / ".." / "." / path.name


NAMES: dict[str, Callable[[Path], Path]] = {
    "symbolic link": _symbolic_link,
    "hard link": _hard_link,
    "another path": _another_path,
}


@pytest.mark.parametrize("name", sorted(NAMES))
def test_a_writer_by_any_name_of_the_file_meets_the_lock_in_this_process(path: Path, name: str) -> None:
    other = NAMES[name](path)
    with (
        Campaign.open(path),
        pytest.raises(LogError, match=r"another affray is writing to it \(this process\)"),
    ):
        Campaign.open(other)


@pytest.mark.parametrize("name", sorted(NAMES))
def test_a_writer_by_any_name_of_the_file_meets_the_lock_of_another_process(path: Path, name: str) -> None:
    other = NAMES[name](path)
    with holding(WRITER, path, "meanwhile", HEADER_OF) as writer:
        with pytest.raises(LogError) as refused:
            Campaign.open(other)
        assert str(refused.value) == (
            f"{other}: another affray is writing to it (process {writer.pid}); wait for it to finish"
        )
    with Campaign.open(other) as campaign:
        assert [s.name for s in campaign.stored()] == ["duel"]


def test_nothing_is_made_beside_the_campaign_to_lock_it(path: Path) -> None:
    with Campaign.open(path) as campaign:
        output = campaign.writer("second")
        output.write(DUEL.splitlines(keepends=True)[0])
        beside = sorted(p.name for p in path.parent.iterdir())
        output.discard()
    assert beside == ["c.sqlite", "c.sqlite-shm", "c.sqlite-wal"]  # SQLite's own, while it writes
    assert sorted(p.name for p in path.parent.iterdir()) == ["c.sqlite"]


def test_a_link_at_the_name_of_an_older_affray_s_lock_file_is_never_followed(path: Path) -> None:
    victim = path.parent / "victim.txt"
    victim.write_bytes(b"precious\n")
    (path.parent / ".c.sqlite.lock").symlink_to(victim)
    with Campaign.open(path) as campaign:
        output = campaign.writer("second")
        for line in DUEL.splitlines(keepends=True):
            output.write(line)
        output.commit()
    assert victim.read_bytes() == b"precious\n"
    assert os.readlink(path.parent / ".c.sqlite.lock") == str(victim)


def test_the_writer_is_found_by_the_file_s_device_and_inode(path: Path) -> None:
    assert lock_holders(identity(path)) == []
    with Campaign.open(path):
        assert lock_holders(identity(path)) == [("WRITE", os.getpid())]
    with Campaign.open(path, read_only=True):
        assert lock_holders(identity(path)) == [("READ", os.getpid())]
    assert lock_holders(identity(path)) == []


def test_a_writer_waits_for_a_reader_and_is_refused_naming_it_when_the_reader_stays(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lock, "READERS_WAIT", 0.2)
    with holding(READER, path, "duel") as reader:
        with pytest.raises(LogError) as refused:
            Campaign.open(path)
        assert str(refused.value) == (
            f"{path}: another affray is reading it (process {reader.pid}) and did not finish within 0.2 s; "
            "try again once it has"
        )
        assert end(reader) == 0
        with Campaign.open(path) as campaign:
            campaign.delete("duel")


def test_readers_share_the_lock_with_each_other(path: Path) -> None:
    with (
        holding(READER, path, "duel"),
        Campaign.open(path, read_only=True) as campaign,
        campaign.read("duel") as stream,
    ):
        assert stream.read() == DUEL


def test_a_reader_of_this_process_keeps_this_process_from_writing(path: Path) -> None:
    with (
        Campaign.open(path, read_only=True) as campaign,
        campaign.read("duel"),
        pytest.raises(LogError, match=r"c\.sqlite: this process is reading it, so it cannot write"),
    ):
        Campaign.open(path)
    with Campaign.open(path):
        pass


def test_the_lock_lets_sqlite_take_its_own_write_lock(path: Path) -> None:
    with Campaign.open(path):
        raw = sqlite3.connect(path, isolation_level=None, timeout=0)
        try:
            raw.execute("BEGIN IMMEDIATE")  # SQLite's fcntl locks, not blocked by the flock held
            raw.execute("ROLLBACK")
        finally:
            raw.close()


def test_sqlite_s_own_write_lock_does_not_keep_a_writer_from_the_lock(path: Path) -> None:
    with holding(SQLITE_WRITER, path):
        file = lock.CampaignFile.open(path, "c.sqlite")
        try:
            file.exclude()
            assert lock_holders(identity(path)) == [("WRITE", os.getpid())]
        finally:
            file.close()


def _posix_locks(path: Path) -> list[str]:
    """This process's POSIX (fcntl) locks on the file: SQLite's."""
    device, inode = identity(path)
    key = f"{os.major(device):02x}:{os.minor(device):02x}:{inode}"
    table = Path("/proc/locks").read_text().splitlines()
    return [line for line in table if " POSIX " in line and f" {os.getpid()} {key} " in line]


def test_ending_one_use_of_the_file_keeps_sqlite_s_locks_of_another(path: Path) -> None:
    # closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's too
    with Campaign.open(path) as campaign:
        held = _posix_locks(path)
        assert held, "SQLite holds a shared lock on the file of a campaign in write-ahead-log mode"
        with Campaign.open(path, read_only=True) as reader, reader.read("duel") as stream:
            assert stream.read() == DUEL
        assert campaign.exists("duel")
        assert _posix_locks(path) == held
