"""Memory stays bounded by the state and one line, whatever a log's length (docs/log-format.md).

Each command runs as a real process; its peak resident set size is read from the kernel's accounting of
that child (``os.wait4``), so nothing else in the test process counts. A fight of 26 combatants with
10,000 damage points each, under a day's time limit, gives a log of over 100 MB.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

import pytest

from affray.events.codec import MAX_BLOCK_BYTES, MAX_LINE_BYTES
from affray.events.reader import TOO_LONG
from tests.cli.conftest import EXAMPLES
from tests.strategies import BLOCK, log_lines, rechain

LIMIT_MB = 200
"""The most memory replay, state and verify may take on a log of any length."""
LONG_LOG_MB = 100


class Measured(NamedTuple):
    """What a command did: its exit status, its peak resident set size in MB, its last line of output
    and its stderr."""

    code: int
    peak_mb: float
    last_out: str
    err: str


LAUNCHER = """
import os, subprocess, sys, time
out, err, *command = sys.argv[1:]
with open(out, "wb") as stdout, open(err, "wb") as stderr:
    child = subprocess.Popen(command, stdout=stdout, stderr=stderr)
    deadline = time.monotonic() + 120
    while True:  # reaped by wait4 itself, which reads this child's own usage
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            child.kill()
        time.sleep(0.05)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"""
"""Runs the command as its own child and reports its exit status and peak RSS (KiB). A child's peak counts
the memory of the process it was forked from (Linux keeps the old image's high-water mark across exec), so
the command is started from this small launcher, not from the test process, however large that has grown."""


def measure(*args: str | os.PathLike[str]) -> Measured:
    """Run ``python -m affray *args`` as a child of a small launcher, within two minutes, and measure it."""
    with tempfile.TemporaryDirectory() as folder:
        out, err = Path(folder) / "out", Path(folder) / "err"
        command = [sys.executable, "-m", "affray", *map(os.fspath, args)]
        launched = subprocess.run(
            [sys.executable, "-c", LAUNCHER, str(out), str(err), *command],
            capture_output=True,
            text=True,
            timeout=180,
            check=True,
        )
        code, peak_kib = map(int, launched.stdout.split())
        last = out.read_bytes()[-4096:].decode(errors="replace").splitlines()
        return Measured(code, peak_kib / 1024, last[-1] if last else "", err.read_text(errors="replace"))


def siege(combatants_a_side: int) -> str:
    """A scenario of two lines of fighters who trade blows for a whole day of game time."""
    lines = ['ruleset = "energion"', "seed = 7", 'name = "A long siege"', "max_seconds = 86400", ""]
    for side, x in (("north", 0), ("south", 4)):
        for i in range(combatants_a_side):
            lines += [
                "[[combatants]]",
                f'id = "{side}{i}"',
                f'name = "{side} {i}"',
                f'side = "{side}"',
                f"position = [{x}, {2 * i}]",
                "damage_points = 10000",
                "skill = 60",
                "parry = 10",
                "stats = { ST = 100, AG = 100, CO = 100 }",
                'weapons = [{ name = "Sword, Long", readiness = "at_hand" }]',
                'armor = "Chain Suit"',
                'perception = "1d10"',
                "reaction = 1",
                "",
            ]
    return "\n".join(lines)


class LongRun(NamedTuple):
    """A log of over 100 MB and how ``affray run`` did writing it."""

    log: Path
    run: Measured


@pytest.fixture(scope="module")
def long_run(tmp_path_factory: pytest.TempPathFactory) -> LongRun:
    """A real log of over 100 MB, written by ``affray run``."""
    folder = tmp_path_factory.mktemp("siege")
    scenario = folder / "siege.toml"
    scenario.write_text(siege(14))
    log = folder / "siege.jsonl"
    run = measure("run", scenario, "-o", log)
    assert run.code == 0, run.err
    assert log.stat().st_size > LONG_LOG_MB * 1_000_000
    return LongRun(log, run)


@pytest.mark.thorough
def test_a_run_of_a_long_fight_holds_none_of_its_log(long_run: LongRun, tmp_path: Path) -> None:
    short = measure("run", EXAMPLES / "duel.toml", "-o", tmp_path / "duel.jsonl")
    assert long_run.run.peak_mb < short.peak_mb + 20  # 20 MB for the siege's state, against 100 of log


@pytest.mark.thorough
@pytest.mark.parametrize("command", ["replay", "state"])
def test_a_command_on_a_100_mb_log_stays_under_200_mb(long_run: LongRun, command: str) -> None:
    measured = measure(command, long_run.log)
    assert (measured.code, measured.err) == (0, "")
    assert measured.peak_mb < LIMIT_MB


@pytest.mark.thorough
def test_verify_checks_every_event_of_a_100_mb_log_under_200_mb(long_run: LongRun) -> None:
    measured = measure("verify", long_run.log)
    events = long_run.log.read_bytes().count(b"\n") - 2
    assert measured.last_out.startswith(f"ok: {long_run.log}: {events} events chain, fold and re-simulate")
    assert measured.peak_mb < LIMIT_MB


@pytest.fixture(scope="module")
def junk_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log's header, then one line of 256 MiB that never ends."""
    tmp_path = tmp_path_factory.mktemp("junk")
    duel = tmp_path / "duel.jsonl"
    assert measure("run", EXAMPLES / "duel.toml", "-o", duel).code == 0
    junk = tmp_path / "junk.jsonl"
    with junk.open("wb") as out:
        out.write(duel.read_bytes().split(b"\n", 1)[0] + b"\n")
        for _ in range(64):
            out.write(b"x" * MAX_LINE_BYTES)
    return junk


@pytest.mark.parametrize("command", ["replay", "state"])
def test_a_line_longer_than_the_limit_is_named_and_not_read(junk_log: Path, command: str) -> None:
    measured = measure(command, junk_log)
    assert measured.code == 0
    assert f"line 2 (seq 1): line 2 {TOO_LONG}" in measured.err
    assert measured.peak_mb < LIMIT_MB


def test_verify_fails_a_line_longer_than_the_limit_without_reading_it(junk_log: Path) -> None:
    measured = measure("verify", junk_log)
    assert measured.code == 1
    assert measured.last_out == f"FAILED: {junk_log}: line 2 (seq 1): line 2 {TOO_LONG}"
    assert measured.peak_mb < LIMIT_MB


@pytest.mark.thorough
@pytest.mark.parametrize("command", ["view", "explain"])
def test_a_look_late_into_a_100_mb_log_stays_under_200_mb(
    long_run: LongRun, command: str, tmp_path: Path
) -> None:
    events = long_run.log.read_bytes().count(b"\n") - 2
    late = {
        "view": ("view", long_run.log, "-o", tmp_path / "late.html", "--from", "86000"),
        "explain": ("explain", long_run.log, str(events - 10)),
    }
    measured = measure(*late[command])
    assert (measured.code, measured.err) == (0, "")
    assert measured.peak_mb < LIMIT_MB


@pytest.fixture(scope="module")
def widest_block(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A format 2 log whose first block is as wide as a block may be: the duel's two combatants joined,
    then 254 decisions of about 64 KB each, every one scoring 2,150 options (the most objects a reader
    holds for as many bytes), 16.4 MB of lines it holds until the block's hash is checked."""
    folder = tmp_path_factory.mktemp("wide")
    duel = folder / "duel.jsonl"
    assert measure("run", EXAMPLES / "duel.toml", "-o", duel).code == 0
    header, *events = log_lines(duel.read_bytes())
    scores = ",".join(f'{{"option":"o{i}","score":1.0}}' for i in range(2150))
    decisions = [
        b'{"kind":"intent_chosen","seq":%d,"combatant":"brenna","controller":"external","intent":null,'
        b'"scores":[%s]}' % (seq, scores.encode())
        for seq in range(3, 3 + BLOCK - 2)
    ]
    wide = folder / "wide.jsonl"
    data = rechain([header, *events[:2], *decisions])
    assert MAX_BLOCK_BYTES - 2**20 < len(data) - len(header) < MAX_BLOCK_BYTES
    wide.write_bytes(data)
    return wide


@pytest.mark.parametrize("command", ["replay", "state"])
def test_a_block_as_wide_as_a_block_may_be_is_read_under_200_mb(widest_block: Path, command: str) -> None:
    measured = measure(command, widest_block)
    assert measured.code == 0, measured.err
    assert measured.peak_mb < LIMIT_MB
