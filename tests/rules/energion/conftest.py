"""The Energion seed text, for the tests that check the packaged tables against it cell by cell."""

from __future__ import annotations

from pathlib import Path

import pytest

SEED = Path(__file__).resolve().parents[3].parent / "shared/seeds/002_89a09327553cc4c0.txt"


@pytest.fixture(scope="session")
def seed_lines() -> list[str]:
    """The seed's lines; the test is skipped where the shared folder is not beside the checkout."""
    if not SEED.is_file():
        pytest.skip(f"seed text not found at {SEED}")
    return SEED.read_text(encoding="utf-8").splitlines()


def cells(line: str) -> list[str]:
    """The cells of one markdown table row, stripped."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]
