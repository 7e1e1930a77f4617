"""A real ``python -m affray`` process killed with SIGKILL, which no handler sees, mid-write."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from os import PathLike

KILL_WITHIN_S = 60
"""How long the run may take to write what it must before it is killed."""


def killed_once_written(
    arguments: Sequence[str | PathLike[str]], written: Callable[[int], int], enough: int
) -> int:
    """Start ``python -m affray *arguments``, kill it with SIGKILL once ``written(pid)`` (the events it has
    written so far) reaches ``enough``, and return its pid."""
    run = subprocess.Popen(
        [sys.executable, "-m", "affray", *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + KILL_WITHIN_S
        while written(run.pid) < enough:
            assert run.poll() is None, run.stderr.read() if run.stderr else ""
            assert time.monotonic() < deadline, "the run wrote too few events in a minute"
            time.sleep(0.02)
    finally:
        run.kill()
        run.wait(timeout=30)
        if run.stderr:
            run.stderr.close()
    assert run.returncode == -9
    return run.pid
