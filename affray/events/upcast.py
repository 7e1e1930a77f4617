"""Upcasters: bring an event recorded under an older version of its kind up to the current one.

A log's header names the version of every kind it was written with. When that version is older than the
kind's ``VERSION``, each line of that kind is decoded to a plain mapping, passed through the upcasters for
``(kind, version)``, ``(kind, version + 1)``, ... and only then converted to the current Struct.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

UPCASTERS: dict[tuple[str, int], Upcaster] = {}
"""``(kind, from_version) -> function`` turning a record of ``from_version`` into ``from_version + 1``."""


def upcaster(kind: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register the function that upgrades ``kind`` records from ``from_version`` to the next."""

    def register(function: Upcaster) -> Upcaster:
        UPCASTERS[(kind, from_version)] = function
        return function

    return register


def missing_steps(kind: str, recorded: int, current: int) -> list[int]:
    """The versions between ``recorded`` and ``current`` that have no upcaster."""
    return [v for v in range(recorded, current) if (kind, v) not in UPCASTERS]


def upcast(record: dict[str, Any], recorded: int, current: int) -> dict[str, Any]:
    """Apply the upcasters for ``record['kind']`` from ``recorded`` up to ``current``."""
    kind = record["kind"]
    for version in range(recorded, current):
        record = UPCASTERS[(kind, version)](record)
    return record
