"""The special damage seed text, for the tests that check the packaged tables against it row by row."""

from __future__ import annotations

from pathlib import Path

import pytest

SEED = Path(__file__).resolve().parents[3].parent / "shared/seeds/001_509e4fcaef70c437.txt"


@pytest.fixture(scope="session")
def seed_lines() -> list[str]:
    """The seed's lines; the test is skipped where the shared folder is not beside the checkout."""
    if not SEED.is_file():
        pytest.skip(f"seed text not found at {SEED}")
    return SEED.read_text(encoding="utf-8").splitlines()


def section(lines: list[str], start: str, stop: str | None) -> list[str]:
    """The lines after the first one equal to ``start``, up to the next one starting with ``stop``."""
    first = lines.index(start) + 1
    out: list[str] = []
    for line in lines[first:]:
        if stop is not None and line.startswith(stop):
            break
        out.append(line)
    return out
