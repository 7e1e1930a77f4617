"""Command transcripts in the documentation, checked: each ``$ affray ...`` line is run as a real process
in a fresh folder (with ``examples`` linked in), and the lines shown under it must be what it prints, in
order, ``...`` standing for any number of lines left out. A command that should exit otherwise than 0 says
so at the end of its line: ``$ affray diff a.jsonl b.jsonl   # exit 1``.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_STATUS = re.compile(r"\s+# exit (\d+)$")


def sessions(block: str) -> list[tuple[str, list[str]]]:
    """Each command of a transcript with the output lines shown for it."""
    found: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], []))
        elif found:
            found[-1][1].append(line)
    return found


def shown_in(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` holds the ``shown`` lines in order: consecutive, but for ``...`` gaps."""
    at = 0
    gap = False
    for line in shown:
        if line == "...":
            gap = True
            continue
        if gap:
            while at < len(printed) and printed[at] != line:
                at += 1
        if at >= len(printed) or printed[at] != line:
            return False
        at += 1
        gap = False
    return gap or at == len(printed)


def check(block: str, folder: Path) -> None:
    """Run every command of ``block`` in ``folder`` in turn; fail on a status or output not shown."""
    if not (folder / "examples").exists():
        (folder / "examples").symlink_to(ROOT / "examples")
    for command, shown in sessions(block):
        status = _STATUS.search(command)
        args = shlex.split(command[: status.start()] if status else command)
        assert args[0] == "affray", command
        done = subprocess.run(
            [sys.executable, "-m", "affray", *args[1:]],
            capture_output=True,
            text=True,
            cwd=folder,
            timeout=120,
            check=False,
        )
        assert done.returncode == (int(status.group(1)) if status else 0), (command, done.stderr)
        printed = done.stdout.splitlines()
        assert shown_in(shown, printed), (
            f"$ {command}\nshown:\n" + "\n".join(shown) + ("\nprinted:\n" + "\n".join(printed))
        )
