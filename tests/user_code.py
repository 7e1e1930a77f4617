"""Modules of user code (controllers from outside affray) that tests write and affray imports.

``module(folder, source)`` writes one under a name of its own; tests/conftest.py restores ``sys.path`` and
forgets every such module, and the examples' own ``bots`` package, after each test.
"""

from __future__ import annotations

import importlib
import itertools
import sys
import textwrap
from pathlib import Path

EXAMPLE_PACKAGES = ("bots", "bots.utility")
"""What the examples' scenarios import (examples/bots)."""

_numbers = itertools.count()
_written: list[str] = []


def module(folder: Path, source: str) -> str:
    """Write ``source`` (dedented) as a module of its own in ``folder``; its name."""
    name = f"user_code_{next(_numbers)}"
    (folder / f"{name}.py").write_text(textwrap.dedent(source))
    importlib.invalidate_caches()
    _written.append(name)
    return name


def forget() -> None:
    """Drop every module written here (and any module inside one made a package), and the examples'
    packages, from ``sys.modules``."""
    for name in (*EXAMPLE_PACKAGES, *_written):
        for imported in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
            del sys.modules[imported]
    _written.clear()
