"""The README's example is true: its commands run from a fresh folder print what it shows.

Each ``$ affray ...`` line of the README's example block is run as a real process; the lines the README
shows under it must be the command's output, in order, where ``...`` stands for any number of lines left
out. Stale text (an old digest, a changed column) fails.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
BLOCK = re.search(r"^Example \(tests/test_readme\.py.*?```\n(.*?)```", README, re.S | re.M)


def _sessions() -> list[tuple[str, list[str]]]:
    """Each command of the example block with the output lines the README shows for it."""
    assert BLOCK is not None, "the README's example block is missing"
    sessions: list[tuple[str, list[str]]] = []
    for line in BLOCK.group(1).splitlines():
        if line.startswith("$ "):
            sessions.append((line[2:], []))
        else:
            sessions[-1][1].append(line)
    return sessions


def _shown_in(shown: list[str], printed: list[str]) -> bool:
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


def test_the_readme_has_an_example_that_starts_with_a_run() -> None:
    sessions = _sessions()
    assert sessions[0][0].startswith("affray run ")
    assert len(sessions) >= 4


def test_the_readme_example_prints_what_it_shows(tmp_path: Path) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    for command, shown in _sessions():
        args = shlex.split(command)
        assert args[0] == "affray"
        done = subprocess.run(
            [sys.executable, "-m", "affray", *args[1:]],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, (command, done.stderr)
        printed = done.stdout.splitlines()
        assert _shown_in(shown, printed), (
            f"$ {command}\nREADME shows:\n" + "\n".join(shown) + ("\nprinted:\n" + "\n".join(printed))
        )


@pytest.mark.parametrize(
    ("shown", "printed", "holds"),
    [
        (["a", "b"], ["a", "b"], True),
        (["a", "b"], ["a", "b", "c"], False),
        (["...", "b", "..."], ["a", "b", "c"], True),
        (["a", "...", "c"], ["a", "b", "c"], True),
        (["a", "c"], ["a", "b", "c"], False),
        (["...", "x"], ["a", "b"], False),
    ],
)
def test_shown_lines_match_with_gaps_only_where_the_readme_has_them(
    shown: list[str], printed: list[str], holds: bool
) -> None:
    assert _shown_in(shown, printed) is holds
