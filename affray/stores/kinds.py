"""Which store a path names: a campaign (many encounters in one SQLite file) by its suffix, else a log
file. Apart from the campaign code, so that telling them apart loads no SQLite."""

from __future__ import annotations

from pathlib import Path

SUFFIXES = (".sqlite", ".sqlite3", ".db")
"""A path ending in one of these names a campaign (compared without regard to case)."""


def is_campaign_path(path: Path) -> bool:
    """Whether ``path`` names a campaign rather than a JSON Lines log, by its suffix."""
    return Path(path).suffix.lower() in SUFFIXES
