"""The README's example is true: its commands run from a fresh folder print what it shows
(tests/transcripts.py). Stale text (an old digest, a changed column) fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.transcripts import ROOT, check, sessions, shown_in

README = (ROOT / "README.md").read_text()
BLOCK = re.search(r"^Example \(tests/test_readme\.py.*?```\n(.*?)```", README, re.S | re.M)


def _sessions() -> list[tuple[str, list[str]]]:
    assert BLOCK is not None, "the README's example block is missing"
    return sessions(BLOCK.group(1))


def test_the_readme_has_an_example_that_starts_with_a_run() -> None:
    sessions = _sessions()
    assert sessions[0][0].startswith("affray run ")
    assert len(sessions) >= 4


def test_the_readme_example_prints_what_it_shows(tmp_path: Path) -> None:
    assert BLOCK is not None
    check(BLOCK.group(1), tmp_path)


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
    assert shown_in(shown, printed) is holds
