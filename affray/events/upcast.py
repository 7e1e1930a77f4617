"""Upcasters: bring an event recorded under an older version of its kind up to the current one.

A log's header names the version of every kind it was written with. When that version is older than the
kind's ``VERSION``, each line of that kind is decoded to a plain mapping, passed through the upcasters for
``(kind, version)``, ``(kind, version + 1)``, ... and only then converted to the current Struct. A ruleset
or module gives the upcasters of its kinds in its vocabulary part (``Part.upcasters``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from affray.events.vocabulary import Upcaster


def lacks_a_step(
    upcasters: Mapping[tuple[str, int], Upcaster], kind: str, recorded: int, current: int
) -> bool:
    """Whether some version from ``recorded`` up to ``current`` has no upcaster; found by counting the
    upcasters, so a version absurdly far back (a damaged header's -2**63) costs no more than one step."""
    covered = sum(1 for name, version in upcasters if name == kind and recorded <= version < current)
    return covered < current - recorded


def upcast(
    upcasters: Mapping[tuple[str, int], Upcaster], record: dict[str, Any], recorded: int, current: int
) -> dict[str, Any]:
    """Apply the upcasters for ``record['kind']`` from ``recorded`` up to ``current``."""
    kind = record["kind"]
    for version in range(recorded, current):
        record = upcasters[(kind, version)](record)
    return record


def renamed(former: str, field: str) -> Upcaster:
    """An upcaster that gives member ``former`` its new name ``field`` (left out when it is missing)."""

    def upcaster(record: dict[str, Any]) -> dict[str, Any]:
        if former in record:
            record[field] = record.pop(former)
        return record

    return upcaster
