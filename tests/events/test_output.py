"""An output written whole or not at all: beside its target until done, never by two writers at once."""

from __future__ import annotations

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
