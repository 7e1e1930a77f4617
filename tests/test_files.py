"""affray.files: every file affray writes is created new under a random name beside its target and moved
onto it; nothing is written through a link, a fifo or a file a stranger put at any name affray uses."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import pytest

from affray import files
from affray.errors import AffrayError

TEMPORARY = re.compile(r"\.page\.html\.[0-9a-f]{16}\.tmp")


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file outside the folder written to, that must never change."""
    path = tmp_path / "victim.txt"
    path.write_bytes(b"precious\n")
    return path


@pytest.fixture
def out(tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    folder.mkdir()
    return folder


def names(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


def test_a_file_is_written_whole_and_nothing_is_left_beside_it(out: Path) -> None:
    files.write_new(out / "page.html", b"<p>hi</p>", force=False, flag="-o")
    assert (out / "page.html").read_bytes() == b"<p>hi</p>"
    assert names(out) == ["page.html"]


def test_a_function_writes_to_the_open_file(out: Path) -> None:
    def write(file: BinaryIO) -> None:
        file.write(b"a")
        file.write(b"b")

    files.write_new(out / "page.html", write, force=False, flag="-o")
    assert (out / "page.html").read_bytes() == b"ab"


def test_the_temporary_file_is_new_under_a_random_name_beside_the_target(out: Path) -> None:
    seen: list[str] = []

    def look(file: BinaryIO) -> None:
        seen.extend(names(out))

    files.write_new(out / "page.html", look, force=False, flag="-o")
    files.write_new(out / "page.html", look, force=True, flag="-o")
    assert len(seen) == 3  # the first temporary; then the page and the second temporary
    temporaries = [name for name in seen if name != "page.html"]
    assert all(TEMPORARY.fullmatch(name) for name in temporaries), temporaries
    assert temporaries[0] != temporaries[1]


def test_a_link_at_the_target_is_replaced_and_what_it_points_to_is_untouched(out: Path, victim: Path) -> None:
    (out / "page.html").symlink_to(victim)
    files.write_new(out / "page.html", b"page", force=True, flag="-o")
    assert victim.read_bytes() == b"precious\n"
    assert not (out / "page.html").is_symlink()
    assert (out / "page.html").read_bytes() == b"page"


def test_a_link_at_the_target_is_refused_without_force(out: Path, victim: Path) -> None:
    (out / "page.html").symlink_to(victim)
    with pytest.raises(AffrayError, match=r"^-o .*page\.html: a link has that name; --force replaces it$"):
        files.check_target(out / "page.html", force=False, flag="-o")
    with pytest.raises(AffrayError, match="a link was made there meanwhile; --force replaces it"):
        files.write_new(out / "page.html", b"page", force=False, flag="-o")
    assert victim.read_bytes() == b"precious\n"
    assert names(out) == ["page.html"]


def test_a_dangling_link_at_the_target_counts_as_there_and_is_never_followed(
    out: Path, tmp_path: Path
) -> None:
    nowhere = tmp_path / "made-through-the-link"
    (out / "page.html").symlink_to(nowhere)
    with pytest.raises(AffrayError, match="a link has that name"):
        files.check_target(out / "page.html", force=False, flag="--plots")
    with pytest.raises(AffrayError, match="a link was made there meanwhile"):
        files.write_new(out / "page.html", b"page", force=False, flag="--plots")
    assert not nowhere.exists()
    files.write_new(out / "page.html", b"page", force=True, flag="--plots")
    assert not nowhere.exists()
    assert (out / "page.html").read_bytes() == b"page"


def test_a_hard_link_at_the_target_keeps_its_other_name_whole(out: Path, victim: Path) -> None:
    os.link(victim, out / "page.html")
    files.write_new(out / "page.html", b"page", force=True, flag="-o")
    assert victim.read_bytes() == b"precious\n"
    assert (out / "page.html").read_bytes() == b"page"


def test_a_fifo_at_the_target_is_replaced_not_written_into(out: Path) -> None:
    os.mkfifo(out / "page.html")
    with pytest.raises(AffrayError, match="a special file has that name; --force replaces it"):
        files.check_target(out / "page.html", force=False, flag="-o")
    files.write_new(out / "page.html", b"page", force=True, flag="-o")
    assert stat.S_ISREG(os.lstat(out / "page.html").st_mode)


def test_a_folder_at_the_target_is_refused_before_any_work(out: Path) -> None:
    (out / "page.html").mkdir()
    with pytest.raises(AffrayError, match=r"page\.html: is a folder; name a file$"):
        files.check_target(out / "page.html", force=True, flag="-o")


def test_a_link_to_a_folder_at_the_target_is_refused_too(out: Path, tmp_path: Path) -> None:
    (out / "page.html").symlink_to(tmp_path)
    with pytest.raises(AffrayError, match="is a folder; name a file"):
        files.check_target(out / "page.html", force=True, flag="-o")


def test_a_folder_at_the_target_fails_the_write_and_leaves_nothing(out: Path) -> None:
    (out / "page.html").mkdir()
    with pytest.raises(AffrayError, match=r"^-o .*page\.html: cannot write it \(Is a directory\)$"):
        files.write_new(out / "page.html", b"page", force=True, flag="-o")
    assert names(out) == ["page.html"]


def test_a_missing_folder_is_refused_before_any_work(tmp_path: Path) -> None:
    target = tmp_path / "nowhere" / "page.html"
    with pytest.raises(AffrayError, match=r"^--junit .*page\.html: there is no folder .*nowhere$"):
        files.check_target(target, force=False, flag="--junit")
    with pytest.raises(AffrayError, match=r"cannot write it \(No such file or directory\)"):
        files.write_new(target, b"x", force=False, flag="--junit")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in a read-only folder")
def test_a_read_only_folder_is_one_error_and_nothing_is_made(out: Path) -> None:
    out.chmod(0o555)
    try:
        with pytest.raises(AffrayError, match=r"cannot write it \(Permission denied\)"):
            files.write_new(out / "page.html", b"x", force=False, flag="-o")
    finally:
        out.chmod(0o755)
    assert names(out) == []


def test_a_folder_no_file_can_be_made_in_is_one_error() -> None:
    with pytest.raises(AffrayError, match=r"^-o /proc/page\.html: cannot write it \("):
        files.write_new(Path("/proc/page.html"), b"x", force=False, flag="-o")


@pytest.mark.parametrize("stopped", [KeyboardInterrupt, ValueError])
def test_a_write_stopped_half_way_leaves_the_old_file_and_nothing_else(
    out: Path, stopped: type[BaseException]
) -> None:
    (out / "page.html").write_bytes(b"old")

    def half(file: BinaryIO) -> None:
        file.write(b"half")
        raise stopped

    with pytest.raises(stopped):
        files.write_new(out / "page.html", half, force=True, flag="-o")
    assert names(out) == ["page.html"]
    assert (out / "page.html").read_bytes() == b"old"


def test_an_error_writing_is_one_error_naming_the_flag(out: Path) -> None:
    def full(file: BinaryIO) -> None:
        raise OSError(28, "No space left on device")

    with pytest.raises(
        AffrayError, match=r"^--plots .*page\.html: cannot write it \(No space left on device\)$"
    ):
        files.write_new(out / "page.html", full, force=False, flag="--plots")
    assert names(out) == []


def _planted(out: Path, victim: Path) -> Iterator[Path]:
    """Links to the victim at every name beside ``page.html`` a stranger could guess affray uses."""
    for name in (
        ".page.html.partial.html",
        ".page.html.partial",
        f".page.html.{os.getpid()}.tmp",
        "page.html.partial",
    ):
        (out / name).symlink_to(victim)
        yield out / name


def test_links_at_every_name_a_stranger_could_guess_are_left_alone(out: Path, victim: Path) -> None:
    planted = list(_planted(out, victim))
    files.write_new(out / "page.html", b"page", force=False, flag="-o")
    assert victim.read_bytes() == b"precious\n"
    assert all(os.readlink(path) == str(victim) for path in planted)
    assert names(out) == sorted(["page.html", *(p.name for p in planted)])


def test_a_random_name_that_is_taken_is_never_written_through(
    out: Path, victim: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = iter([bytes.fromhex("0123456789abcdef"), bytes.fromhex("fedcba9876543210")])
    monkeypatch.setattr(files.os, "urandom", lambda size: next(drawn))
    (out / ".page.html.0123456789abcdef.tmp").symlink_to(victim)
    files.write_new(out / "page.html", b"page", force=False, flag="-o")
    assert victim.read_bytes() == b"precious\n"
    assert (out / "page.html").read_bytes() == b"page"
    assert os.readlink(out / ".page.html.0123456789abcdef.tmp") == str(victim)


def test_a_folder_is_made_with_its_parents(tmp_path: Path) -> None:
    files.make_folder(tmp_path / "a" / "plots", "--plots")
    files.make_folder(tmp_path / "a" / "plots", "--plots")
    assert (tmp_path / "a" / "plots").is_dir()


@pytest.mark.parametrize("held", ["a file", "a link"])
def test_a_folder_name_held_by_something_else_is_one_error(tmp_path: Path, held: str) -> None:
    folder = tmp_path / "plots"
    if held == "a file":
        folder.write_bytes(b"x")
    else:
        folder.symlink_to(tmp_path / "nowhere")
    with pytest.raises(AffrayError, match=rf"^--plots .*plots: {held} has that name, not a folder$"):
        files.make_folder(folder, "--plots")
    assert not (tmp_path / "nowhere").exists()


def test_a_new_file_abandoned_leaves_nothing(out: Path) -> None:
    made = files.NewFile(out / "r.csv", force=False, flag="-o")
    made.file.write(b"run,seed\n")
    made.abandon()
    assert names(out) == []


def test_a_file_system_without_hard_links_still_takes_a_new_file_and_refuses_an_old_one(
    out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_hard_links(*args: object, **kwargs: object) -> None:
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(files.os, "link", no_hard_links)
    files.write_new(out / "page.html", b"page", force=False, flag="-o")
    assert (out / "page.html").read_bytes() == b"page"
    with pytest.raises(AffrayError, match="a file was made there meanwhile; --force replaces it"):
        files.write_new(out / "page.html", b"other", force=False, flag="-o")
    assert (out / "page.html").read_bytes() == b"page"
    assert names(out) == ["page.html"]
