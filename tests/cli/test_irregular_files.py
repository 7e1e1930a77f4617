"""No command opens for reading what is not a regular file: a fifo (which would wait forever for a writer),
a device, a socket or a folder named as a scenario, a table, a log, a campaign, a rolls file or a secret
is one ``error:`` line naming it (affray/errors.py, ``open_user_file``). And every file is bounded before
it is read: a scenario, a table or a rolls file larger than 4 MiB is one error line, not read."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from affray.errors import FILE_LIMIT
from tests.cli.conftest import DUEL, EXAMPLES, Affray, assert_user_error

IRREGULAR = "{}"
"""Where a command's argument is the file that is not regular."""
COMMANDS: dict[str, tuple[str, list[str]]] = {
    "run": ("x.toml", ["run", IRREGULAR, "-o", "out.jsonl"]),
    "battle": ("x.toml", ["battle", IRREGULAR, "--runs", "2"]),
    "adjudicate --rolls": (
        "x.toml",
        [
            "adjudicate",
            str(EXAMPLES / "table" / "duel-at-the-table.toml"),
            "-o",
            "t.jsonl",
            "--rolls",
            IRREGULAR,
        ],
    ),
    "replay": ("x.jsonl", ["replay", IRREGULAR]),
    "state": ("x.jsonl", ["state", IRREGULAR]),
    "verify": ("x.jsonl", ["verify", IRREGULAR]),
    "explain": ("x.jsonl", ["explain", IRREGULAR, "5"]),
    "diff": ("x.jsonl", ["diff", "duel.jsonl", IRREGULAR]),
    "timeline": ("x.jsonl", ["timeline", IRREGULAR, "-o", "t.png"]),
    "view": ("x.jsonl", ["view", IRREGULAR, "-o", "v.html"]),
    "whatif": ("x.jsonl", ["whatif", IRREGULAR, "--set", "brenna/hit#2=5", "-o", "w.jsonl"]),
    "heal": ("x.jsonl", ["heal", IRREGULAR, "--days", "1", "-o", "h.jsonl"]),
    "lineage": ("x.jsonl", ["lineage", IRREGULAR]),
    "import": ("x.jsonl", ["import", IRREGULAR, "-o", "c.sqlite"]),
    "verify a campaign's": ("c.sqlite", ["verify", f"{IRREGULAR}#duel"]),
    "encounters": ("c.sqlite", ["encounters", IRREGULAR]),
    "export": ("c.sqlite", ["export", f"{IRREGULAR}#duel", "-o", "e.jsonl"]),
    "seed reveal --scenario": ("x.toml", ["seed", "reveal", "alice", "--scenario", IRREGULAR]),
    "seed reveal --secret": (
        "x.secret",
        [
            "seed",
            "reveal",
            "alice",
            "--scenario",
            str(EXAMPLES / "fair" / "duel.toml"),
            "--secret",
            IRREGULAR,
        ],
    ),
}
"""Each command that reads a file the user names: the name that file has, the arguments, and the exit
status of its refusal. (``regress`` takes only regular files and folders, and skips the rest of what a
folder holds, so it never reads one.)"""


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _device(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _folder(path: Path) -> None:
    path.mkdir()


def _socket(path: Path) -> socket.socket:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    return server


KINDS: dict[str, tuple[Callable[[Path], object], str]] = {
    "fifo": (_fifo, "is a fifo, not "),
    "device": (_device, "is a character device, not "),
    "socket": (_socket, "is a socket, not "),
    "folder": (_folder, "is a directory, not "),
}
"""How to make each kind of file that is not regular, and what the refusal says."""


@pytest.fixture
def short_folder() -> Iterator[Path]:
    """A folder with a short path (a socket's path is at most 107 bytes), with the duel's log in it."""
    folder = Path(tempfile.mkdtemp(prefix="irr", dir="/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


class Unblocker:
    """Opens a fifo for writing and closes it, again and again, until stopped: a command that opened the
    fifo to read, which it must not, then reads nothing and says something other than the refusal, so
    the test fails instead of waiting forever."""

    def __init__(self, fifo: Path) -> None:
        self._fifo = fifo
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            with contextlib.suppress(OSError):  # no reader: nothing is waiting
                os.close(os.open(self._fifo, os.O_WRONLY | os.O_NONBLOCK))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def refused(affray: Affray, folder: Path, command: str, kind: str) -> None:
    """Make the command's file as ``kind`` in ``folder``, run the command there and check its refusal."""
    name, args = COMMANDS[command]
    make, said = KINDS[kind]
    path = folder / name
    made = make(path)
    unblocker = Unblocker(path) if kind == "fifo" else None
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        result = affray(*(arg.replace(IRREGULAR, name) for arg in args))
    finally:
        os.chdir(cwd)
        if unblocker is not None:
            unblocker.stop()
        if isinstance(made, socket.socket):
            made.close()
    named = "/dev/zero" if kind == "device" and "/dev/zero" in result.err else name
    assert_user_error(result, f"{named}: {said}")
    assert not (folder / "out.jsonl").exists()


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_file_that_is_not_regular_is_refused_unread(
    affray: Affray, short_folder: Path, duel_bytes: bytes, command: str, kind: str
) -> None:
    (short_folder / "duel.jsonl").write_bytes(duel_bytes)
    refused(affray, short_folder, command, kind)


@settings(max_examples=10, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(command=st.sampled_from(sorted(COMMANDS)), kind=st.sampled_from(sorted(KINDS)))
def test_whatever_reads_a_file_refuses_one_that_is_not_regular(
    affray: Affray, duel_bytes: bytes, command: str, kind: str
) -> None:
    folder = Path(tempfile.mkdtemp(prefix="irr", dir="/tmp"))
    try:
        (folder / "duel.jsonl").write_bytes(duel_bytes)
        refused(affray, folder, command, kind)
    finally:
        shutil.rmtree(folder)


def test_a_table_the_scenario_names_that_is_a_fifo_is_refused(affray: Affray, tmp_path: Path) -> None:
    shutil.copytree(EXAMPLES / "tables", tmp_path / "tables")
    shutil.copy(EXAMPLES / "bar-brawl.toml", tmp_path / "bar-brawl.toml")
    table = tmp_path / "tables" / "fivestep" / "3-6.toml"
    table.unlink()
    os.mkfifo(table)
    unblocker = Unblocker(table)
    try:
        result = affray("run", tmp_path / "bar-brawl.toml", "-o", tmp_path / "o.jsonl")
    finally:
        unblocker.stop()
    assert_user_error(result, "tables/fivestep/3-6.toml: is a fifo, not a table file")


def sparse(path: Path, size: int) -> Path:
    """A file of ``size`` bytes that takes no room on disk (a hole)."""
    with path.open("wb") as file:
        file.truncate(size)
    return path


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        pytest.param(["run", "{}", "-o", "o.jsonl"], "a scenario file", id="run"),
        pytest.param(["battle", "{}", "--runs", "2"], "a scenario file", id="battle"),
        pytest.param(
            [
                "adjudicate",
                str(EXAMPLES / "table" / "duel-at-the-table.toml"),
                "-o",
                "t.jsonl",
                "--rolls",
                "{}",
            ],
            "a rolls file",
            id="rolls",
        ),
        pytest.param(["seed", "reveal", "alice", "--scenario", "{}"], "a scenario file", id="seed-reveal"),
    ],
)
def test_a_file_of_10_gb_is_refused_unread(
    affray: Affray, tmp_path: Path, args: list[str], kind: str
) -> None:
    big = sparse(tmp_path / "big.toml", 10 * 10**9)
    result = affray(*(arg.replace("{}", str(big)) for arg in args))
    assert_user_error(result, f"{big}: larger than 4 MiB, the most {kind} may hold")


def test_a_scenario_of_exactly_the_limit_is_read(affray: Affray, tmp_path: Path) -> None:
    text = DUEL.read_text()
    scenario = tmp_path / "padded.toml"
    scenario.write_text(text + "#" * (FILE_LIMIT - len(text.encode()) - 1) + "\n")
    assert scenario.stat().st_size == FILE_LIMIT
    assert affray("run", scenario, "-o", tmp_path / "o.jsonl").code == 0
