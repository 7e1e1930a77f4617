"""The campaign most store tests start from."""

from __future__ import annotations

from pathlib import Path

import pytest

from affray.stores.sqlite import Campaign
from tests.stores.campaigns import DUEL, write


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """``c.sqlite`` holding the golden duel as encounter ``duel``, closed."""
    made = tmp_path / "c.sqlite"
    with Campaign.open(made, create=True) as campaign:
        write(campaign, "duel", DUEL)
    return made
