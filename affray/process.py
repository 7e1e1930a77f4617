"""Whether affray runs as its own process, the ``affray`` command, rather than as a library in another
program (the pytest plugin, a script): settings that belong to the whole process and cannot be undone
(SQLite's heap limit) are made only in affray's own."""

from __future__ import annotations

_OWN = False


def run_as_affrays_own() -> None:
    """Mark this process as the ``affray`` command's own (its entry point calls this first)."""
    global _OWN
    _OWN = True


def is_affrays_own() -> bool:
    """Whether this process is the ``affray`` command's own."""
    return _OWN
