"""docs/settling-a-dispute.md is true: its transcripts, run in order in one fresh folder, print what it
shows (tests/transcripts.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.transcripts import ROOT, check, sessions

PAGE = (ROOT / "docs" / "settling-a-dispute.md").read_text()
BLOCKS = re.findall(r"^```console\n(.*?)^```", PAGE, re.S | re.M)


def test_the_page_walks_through_every_command_of_a_dispute() -> None:
    commands = {command.split()[1] for block in BLOCKS for command, _ in sessions(block)}
    assert {
        "run",
        "replay",
        "explain",
        "whatif",
        "diff",
        "lineage",
        "verify",
        "adjudicate",
        "seed",
        "sign",
        "redact",
        "reveal",
    } <= commands


@pytest.mark.thorough  # a long test: .ci/run runs it after the quick suite
def test_the_pages_transcripts_print_what_it_shows(tmp_path: Path) -> None:
    for block in BLOCKS:
        check(block, tmp_path)
