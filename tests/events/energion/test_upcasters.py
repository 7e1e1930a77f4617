"""``attack_resolved`` and ``grapple_resolved`` of version 1 read as version 2: the modifier fields
become a list of (name, value, rule), in the order the handlers list them, those at zero left out."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from affray.events.energion.upcasters import attack_v1, grapple_v1


def test_each_modifier_field_of_a_v1_hit_becomes_a_listed_modifier_in_order() -> None:
    record: dict[str, Any] = {
        "kind": "attack_resolved",
        "hit": {
            "skill": 60,
            "ruled_modifier": 10,
            "injury_penalty": -5,
            "martial_bonus": Decimal("2.5"),
            "proficiency": 25,
        },
    }
    assert attack_v1(record)["hit"] == {
        "skill": 60,
        "modifiers": [
            {"name": "proficiency", "value": 25, "rule": "E12"},
            {"name": "martial arts", "value": Decimal("2.5"), "rule": "E13"},
            {"name": "injuries", "value": -5, "rule": "S4, S5"},
            {"name": "referee's ruling", "value": 10, "rule": "ruling"},
        ],
    }


def test_a_v1_hit_with_its_modifiers_at_zero_lists_none() -> None:
    # version 1 wrote martial_bonus 0 even when it added nothing; version 2 leaves an empty list out
    record: dict[str, Any] = {"kind": "attack_resolved", "hit": {"skill": 60, "martial_bonus": 0}}
    assert attack_v1(record)["hit"] == {"skill": 60}


def test_a_v1_grapples_injury_penalty_becomes_its_one_modifier() -> None:
    record: dict[str, Any] = {"kind": "grapple_resolved", "hit_chance": 55, "injury_penalty": -5}
    assert grapple_v1(record) == {
        "kind": "grapple_resolved",
        "hit_chance": 55,
        "modifiers": [{"name": "injuries", "value": -5, "rule": "S4, S5"}],
    }


def test_a_v1_grapple_without_injuries_lists_none() -> None:
    # version 1 before ruling 8 had no injury_penalty at all; later it wrote 0
    assert grapple_v1({"kind": "grapple_resolved", "injury_penalty": 0}) == {"kind": "grapple_resolved"}
