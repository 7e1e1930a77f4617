"""How Energion events recorded under older versions of their kinds read today (``Part.upcasters``)."""

from __future__ import annotations

from typing import Any

from affray.events.energion.kinds import INJURIES, MARTIAL_ARTS, PROFICIENCY, RULING

_ATTACK_V1 = (
    ("proficiency", PROFICIENCY, "E12"),
    ("martial_bonus", MARTIAL_ARTS, "E13"),
    ("injury_penalty", INJURIES, "S4, S5"),
    ("ruled_modifier", RULING, "ruling"),
)
"""``attack_resolved`` version 1: each modifier of the hit in a field of its own, and what version 2
names it and cites, in the order version 2 lists them."""
_GRAPPLE_V1 = (("injury_penalty", INJURIES, "S4, S5"),)
"""``grapple_resolved`` version 1: the injuries' penalty in a field of its own."""


def _listed(record: dict[str, Any], fields: tuple[tuple[str, str, str], ...]) -> dict[str, Any]:
    """``record`` with ``fields`` taken out and those that are not zero listed as its ``modifiers``."""
    modifiers = []
    for field, name, rule in fields:
        value = record.pop(field, 0)
        if value:
            modifiers.append({"name": name, "value": value, "rule": rule})
    if modifiers:
        record["modifiers"] = modifiers
    return record


def attack_v1(record: dict[str, Any]) -> dict[str, Any]:
    """``attack_resolved`` 1 to 2: the hit's modifier fields become its list of modifiers."""
    hit = record.get("hit")
    if isinstance(hit, dict):
        _listed(hit, _ATTACK_V1)
    return record


def grapple_v1(record: dict[str, Any]) -> dict[str, Any]:
    """``grapple_resolved`` 1 to 2: ``injury_penalty`` becomes the list of modifiers."""
    return _listed(record, _GRAPPLE_V1)
