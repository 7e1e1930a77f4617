"""Another process holding a campaign: started with a script, ready once it prints a line, and ended (by its
pid) when the test is done with it."""

from __future__ import annotations

import contextlib
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADER_OF = ROOT / "tests" / "golden" / "brawl.jsonl"
"""The log whose header a WRITER begins its encounter with."""
READY_SECONDS = 60
"""How long a process may take to say it is ready before the test fails."""

READER = """
import sys
from pathlib import Path
from affray.stores.sqlite import Campaign

with Campaign.open(Path(sys.argv[1]), read_only=True) as campaign:
    stream = campaign.read(sys.argv[2])
print("ready", flush=True)
sys.stdin.readline()
stream.close()
"""
"""Opens a stream of an encounter (holding the campaign as a reader) until told to end."""

WRITER = """
import sys
from pathlib import Path
from affray.stores.sqlite import Campaign

with Campaign.open(Path(sys.argv[1])) as campaign:
    output = campaign.writer(sys.argv[2])
    output.write(Path(sys.argv[3]).read_bytes().splitlines(keepends=True)[0])
    print("ready", flush=True)
    sys.stdin.readline()
    output.discard()
"""
"""Holds a campaign as its writer, an encounter begun (the header of the log file named), until told."""

SQLITE_WRITER = """
import sqlite3, sys

connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
print("ready", flush=True)
sys.stdin.readline()
connection.execute("ROLLBACK")
connection.close()
"""
"""Holds SQLite's own write lock on a database (its fcntl locks), as another program would, until told."""


@contextlib.contextmanager
def holding(script: str, *args: str | Path) -> Iterator[subprocess.Popen[str]]:
    """A process running ``script`` with ``args``, once it has printed that it is ready; told to end
    (its stdin closed) on leaving, and killed by its pid if it does not."""
    process = subprocess.Popen(
        [sys.executable, "-c", script, *map(str, args)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert process.stdin is not None
    assert process.stdout is not None
    assert process.stderr is not None
    try:
        ready, _, _ = select.select([process.stdout], [], [], READY_SECONDS)
        line = process.stdout.readline() if ready else ""
        assert line == "ready\n", f"{line!r}; {process.stderr.read() if process.poll() is not None else ''}"
        yield process
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)
        process.stdout.close()
        process.stderr.close()


def end(process: subprocess.Popen[str]) -> int:
    """Tell the process to end, and its exit status once it has."""
    assert process.stdin is not None
    process.stdin.close()
    return process.wait(timeout=30)
