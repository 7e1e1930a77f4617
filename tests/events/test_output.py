"""An output written whole or not at all: beside its target until done, never by two writers at once."""

from __future__ import annotations

import fcntl
import os
import re
from pathlib import Path

import pytest

from affray.errors import LogError
from affray.events.output import OutputFile


def test_a_finished_write_takes_the_targets_name_and_leaves_nothing_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "fight.jsonl"
    output = OutputFile(target)
    output.stream.write(b"line\n")
    assert not target.exists(), "nothing takes the target's name before the write is done"
    output.commit()
    assert target.read_bytes() == b"line\n"
    assert [p.name for p in tmp_path.iterdir()] == ["fight.jsonl"]


def test_an_old_file_stays_whole_until_its_replacement_is_done(tmp_path: Path) -> None:
    target = tmp_path / "fight.jsonl"
    target.write_bytes(b"the good log\n")
    output = OutputFile(target, replace=True)
    output.stream.write(b"new\n")
    assert target.read_bytes() == b"the good log\n"
    output.commit()
    assert target.read_bytes() == b"new\n"


def test_a_failed_write_keeps_the_old_file_and_its_own_lines_as_partial(tmp_path: Path) -> None:
    target = tmp_path / "fight.jsonl"
    target.write_bytes(b"the good log\n")
    output = OutputFile(target, replace=True)
    output.stream.write(b"half\n")
    kept = output.keep_partial()
    assert (kept.name, kept.read_bytes()) == ("fight.jsonl.partial", b"half\n")
    assert target.read_bytes() == b"the good log\n"


def test_a_partial_never_replaces_an_older_partial(tmp_path: Path) -> None:
    target = tmp_path / "fight.jsonl"
    (tmp_path / "fight.jsonl.partial").write_bytes(b"older\n")
    output = OutputFile(target)
    assert output.keep_partial().name == "fight.jsonl.partial-2"
    assert (tmp_path / "fight.jsonl.partial").read_bytes() == b"older\n"


def test_a_second_writer_of_the_same_target_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "fight.jsonl"
    first = OutputFile(target, replace=True)
    with pytest.raises(LogError, match="another affray is writing it"):
        OutputFile(target, replace=True)
    first.commit()
    OutputFile(target, replace=True).commit()


def test_a_target_made_while_writing_is_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "fight.jsonl"
    output = OutputFile(target)
    output.stream.write(b"mine\n")
    target.write_bytes(b"someone else's\n")
    with pytest.raises(
        LogError, match=r"was made while affray wrote it; the log is kept in .*fight\.jsonl\.partial"
    ):
        output.commit()
    assert target.read_bytes() == b"someone else's\n"
    assert (tmp_path / "fight.jsonl.partial").read_bytes() == b"mine\n"


def test_an_existing_file_is_refused_without_replace(tmp_path: Path) -> None:
    target = tmp_path / "fight.jsonl"
    target.write_bytes(b"keep\n")
    with pytest.raises(LogError, match="already exists"):
        OutputFile(target)


def test_a_target_that_is_not_a_regular_file_is_written_in_place() -> None:
    output = OutputFile(Path("/dev/null"), replace=True)
    output.stream.write(b"gone\n")
    output.commit()
    assert Path("/dev/null").exists()


def test_a_folder_that_cannot_hold_the_file_is_one_error(tmp_path: Path) -> None:
    with pytest.raises(LogError, match=r"nowhere/fight.jsonl: cannot write: No such file or directory"):
        OutputFile(tmp_path / "nowhere" / "fight.jsonl")


# -- names a stranger could plant, and left-overs of a killed writer -------------------------------------

TEMPORARY = re.compile(r"\.fight\.jsonl\.[0-9a-f]{16}\.tmp")


def test_the_temporary_file_has_a_random_name_and_is_held_while_written(tmp_path: Path) -> None:
    target = tmp_path / "fight.jsonl"
    first = OutputFile(target)
    assert TEMPORARY.fullmatch(first.writing.name)
    with first.writing.open("rb") as other, pytest.raises(BlockingIOError):
        fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    first.discard()
    second = OutputFile(target)
    assert second.writing.name != first.writing.name
    second.discard()


def test_a_link_at_the_lock_name_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    (tmp_path / ".fight.jsonl.lock").symlink_to(victim)
    with pytest.raises(LogError, match=r"fight\.jsonl: \.fight\.jsonl\.lock beside it is a link; remove it"):
        OutputFile(tmp_path / "fight.jsonl")
    assert victim.read_bytes() == b"precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".fight.jsonl.lock", "victim.txt"]


def test_a_dangling_link_at_the_lock_name_makes_no_file_where_it_points(tmp_path: Path) -> None:
    (tmp_path / ".fight.jsonl.lock").symlink_to(tmp_path / "made-through-the-link")
    with pytest.raises(LogError, match="is a link; remove it"):
        OutputFile(tmp_path / "fight.jsonl")
    assert not (tmp_path / "made-through-the-link").exists()


def test_a_fifo_at_the_lock_name_is_refused_without_waiting(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / ".fight.jsonl.lock")
    with pytest.raises(LogError, match=r"\.fight\.jsonl\.lock beside it is not a lock file; remove it"):
        OutputFile(tmp_path / "fight.jsonl")


def test_a_hard_link_at_the_lock_name_is_refused_and_left_alone(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    os.link(victim, tmp_path / ".fight.jsonl.lock")
    with pytest.raises(LogError, match=r"\.fight\.jsonl\.lock beside it is not a lock file; remove it"):
        OutputFile(tmp_path / "fight.jsonl")
    assert victim.read_bytes() == b"precious\n"
    assert os.path.samefile(victim, tmp_path / ".fight.jsonl.lock")


def test_the_lock_is_never_written(tmp_path: Path) -> None:
    (tmp_path / ".fight.jsonl.lock").touch()  # left by a writer that was killed
    output = OutputFile(tmp_path / "fight.jsonl")
    assert (tmp_path / ".fight.jsonl.lock").read_bytes() == b""
    output.write(b"line\n")
    output.commit()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.jsonl"]


def test_a_lock_removed_while_it_was_being_taken_is_taken_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race of removing a lock file: the writer before opened it, this one opened it too, then the
    writer before finished (removing the name) before this one locked it. A lock on a file no longer at
    the name would let a third writer in; the writer must lock the file the name holds now."""
    lock = tmp_path / ".fight.jsonl.lock"
    lock.touch()  # the writer before's lock
    real = fcntl.flock
    calls: list[int] = []

    def writer_before_finishes_first(fd: int, operation: int) -> None:
        if not calls:
            lock.unlink()
        calls.append(operation)
        real(fd, operation)

    monkeypatch.setattr(fcntl, "flock", writer_before_finishes_first)
    output = OutputFile(tmp_path / "fight.jsonl")
    monkeypatch.setattr(fcntl, "flock", real)
    with lock.open("rb") as third, pytest.raises(BlockingIOError):
        real(third.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    output.discard()


def _left_by_a_killed_writer(folder: Path, lines: bytes = b"header\nevent\n") -> Path:
    """What SIGKILL leaves: a temporary file nobody holds, and the lock file."""
    left = folder / ".fight.jsonl.0123456789abcdef.tmp"
    left.write_bytes(lines)
    (folder / ".fight.jsonl.lock").touch()
    return left


def test_a_killed_writers_temporary_file_is_kept_as_partial_and_said(tmp_path: Path) -> None:
    left = _left_by_a_killed_writer(tmp_path)
    output = OutputFile(tmp_path / "fight.jsonl")
    assert output.notices == [
        f"{tmp_path / 'fight.jsonl'}: a run that was killed while writing it left {left.name}; "
        f"kept as {tmp_path / 'fight.jsonl.partial'}"
    ]
    assert (tmp_path / "fight.jsonl.partial").read_bytes() == b"header\nevent\n"
    assert not left.exists()
    output.notices.clear()
    output.commit()
    assert output.notices == [], "the partial just kept and said is not said again"


def test_a_temporary_file_a_living_writer_holds_is_left_alone(tmp_path: Path) -> None:
    left = _left_by_a_killed_writer(tmp_path)
    with left.open("rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        output = OutputFile(tmp_path / "fight.jsonl")
        output.discard()
    assert output.notices == []
    assert left.exists()
    assert not (tmp_path / "fight.jsonl.partial").exists()


@pytest.mark.parametrize("planted", ["a link", "a hard link"])
def test_a_temporary_name_that_is_no_file_of_affrays_is_left_alone(tmp_path: Path, planted: str) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    left = tmp_path / ".fight.jsonl.0123456789abcdef.tmp"
    if planted == "a link":
        left.symlink_to(victim)
    else:
        os.link(victim, left)
    (tmp_path / ".fight.jsonl.lock").touch()
    OutputFile(tmp_path / "fight.jsonl").discard()
    assert left.exists()
    assert not (tmp_path / "fight.jsonl.partial").exists()
    assert victim.read_bytes() == b"precious\n"


def test_a_partial_of_an_earlier_failed_run_is_said_when_a_run_succeeds(tmp_path: Path) -> None:
    (tmp_path / "fight.jsonl.partial").write_bytes(b"older\n")
    (tmp_path / "fight.jsonl.partial-2").write_bytes(b"older still\n")
    output = OutputFile(tmp_path / "fight.jsonl")
    output.write(b"line\n")
    assert output.notices == []
    output.commit()
    assert output.notices == [
        f"{tmp_path / 'fight.jsonl'}: {tmp_path / 'fight.jsonl.partial'} (and 1 more), from an earlier run "
        "that failed, is still beside it"
    ]
    assert (tmp_path / "fight.jsonl.partial").read_bytes() == b"older\n"


def test_a_link_at_the_target_is_refused_without_replace(tmp_path: Path) -> None:
    (tmp_path / "fight.jsonl").symlink_to(tmp_path / "made-through-the-link")
    with pytest.raises(LogError, match="a link has that name; choose another name or pass --force"):
        OutputFile(tmp_path / "fight.jsonl")
    assert not (tmp_path / "made-through-the-link").exists()


def test_a_link_at_the_target_is_replaced_not_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    (tmp_path / "fight.jsonl").symlink_to(victim)
    output = OutputFile(tmp_path / "fight.jsonl", replace=True)
    output.write(b"line\n")
    output.commit()
    assert victim.read_bytes() == b"precious\n"
    assert not (tmp_path / "fight.jsonl").is_symlink()
    assert (tmp_path / "fight.jsonl").read_bytes() == b"line\n"


def test_a_partial_is_kept_beside_a_link_without_following_it(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    (tmp_path / "fight.jsonl.partial").symlink_to(victim)
    output = OutputFile(tmp_path / "fight.jsonl")
    output.write(b"half\n")
    assert output.keep_partial() == tmp_path / "fight.jsonl.partial-2"
    assert victim.read_bytes() == b"precious\n"


def test_a_link_to_a_device_is_written_in_place(tmp_path: Path) -> None:
    """``-o /dev/stdout`` is a link to the process's stdout: a device or a pipe is written in place."""
    (tmp_path / "out.jsonl").symlink_to("/dev/null")
    output = OutputFile(tmp_path / "out.jsonl", replace=True)
    assert output.in_place
    output.write(b"line\n")
    output.commit()
    assert os.readlink(tmp_path / "out.jsonl") == "/dev/null"


def test_a_fifo_nothing_reads_is_an_error_not_a_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "out.jsonl")
    with pytest.raises(LogError, match="a pipe that nothing reads yet; start its reader first"):
        OutputFile(tmp_path / "out.jsonl", replace=True)


def test_a_fifo_with_a_reader_is_written_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        output = OutputFile(fifo, replace=True)
        output.write(b"line\n")
        output.commit()
        assert os.read(reader, 100) == b"line\n"
    finally:
        os.close(reader)


def test_a_folder_at_the_target_is_refused(tmp_path: Path) -> None:
    (tmp_path / "fight.jsonl").mkdir()
    with pytest.raises(LogError, match="is a folder; name a file"):
        OutputFile(tmp_path / "fight.jsonl", replace=True)
