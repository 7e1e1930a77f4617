"""Tests for the fivestep handlers, and helpers that build small fivestep scenarios.

Scenarios are converted from plain mappings with :func:`affray.fivestep_scenario.convert_fivestep`, the way a
file's TOML is, and their tables are read from ``examples/tables/fivestep/`` (INVENTED EXAMPLE DATA).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from affray.events.base import Event
from affray.handlers.fivestep.battle import FivestepBattle
from affray.handlers.fivestep.scenario import FivestepScenario, convert_fivestep, embed_tables
from affray.kernel.encounter import Encounter
from affray.npc.fivestep.controllers import Step, TurnView

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
E = TypeVar("E", bound=Event)

BODY = [
    {"name": "head", "points": 10, "vital": True},
    {"name": "chest", "points": 30, "vital": True},
    {"name": "abdomen", "points": 20, "vital": True},
    {"name": "right arm", "points": 12},
    {"name": "left arm", "points": 12},
    {"name": "right leg", "points": 16},
    {"name": "left leg", "points": 16},
]
"""Bodies for the tests; the parts are those of the example Table 3-3.4."""
FIST = {
    "name": "Fist",
    "combat": "hand_to_hand",
    "difficulty": 20,
    "damage": "1",
    "wep_mod": 1,
    "action": "punch",
}
RIFLE = {
    "name": "Rifle",
    "combat": "weaponry",
    "difficulty": 40,
    "damage": "2",
    "wep_mod": 4,
    "action": "fire a rifle",
    "special_type": "Projectile rifle",
}
GRENADE = {
    "name": "Grenade",
    "combat": "grenade",
    "damage": "2",
    "wep_mod": 3,
    "action": "throw a grenade",
    "blast_m": 4,
    "count": 3,
}
TABLES = {
    name: f"tables/fivestep/{name}.toml"
    for name in ("3-1", "3-2", "3-3", "3-3.4", "3-6", "3-7.0", "3-7.1", "3-8")
}


def character(id: str, side: str, **fields: Any) -> dict[str, Any]:
    """A character with fists, 50 in every attribute, 2 m from the origin along x by default."""
    spec: dict[str, Any] = {
        "id": id,
        "name": id.title(),
        "side": side,
        "body": "human",
        "perception": 50,
        "agility": 50,
        "aim": 60,
        "brawl": 60,
        "strength": 60,
        "weapons": [FIST],
    }
    spec.update(fields)
    return spec


def scenario(
    *characters: Mapping[str, Any],
    procedures: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    tables: Mapping[str, str] | None = None,
    rolls: Sequence[int] | None = None,
    sides: Sequence[Mapping[str, Any]] = (),
    adversity: Mapping[str, Any] | None = None,
    max_seconds: int = 60,
    body: Sequence[Mapping[str, Any]] = BODY,
    seed: int = 1,
    **top: Any,
) -> FivestepScenario:
    """A fivestep scenario: action procedure 2 and Table 3-6 unless told otherwise; manual dice when
    ``rolls`` is given; ``top`` adds top-level fields (``modules``, ``rulings``, ...)."""
    raw: dict[str, Any] = {
        "ruleset": "fivestep",
        "seed": seed,
        "max_seconds": max_seconds,
        "procedures": {"action": 2, **(procedures or {})},
        "options": {"move_action": "run 1 m", **(options or {})},
        "tables": dict(TABLES if tables is None else tables),
        "bodies": {"human": list(body)},
        "sides": list(sides),
        "combatants": list(characters),
    }
    raw.update(top)
    if rolls is not None:
        raw["dice"] = {"source": "manual", "rolls": list(rolls)}
    if adversity is not None:
        raw["adversity"] = adversity
    return embed_tables(convert_fivestep(raw, "test.toml"), EXAMPLES, "test.toml")


def run(built: FivestepScenario, **controllers: Any) -> Encounter:
    """Simulate ``built``; ``controllers`` replace the controllers of the named characters."""
    battle = FivestepBattle(built)
    battle.controllers.update(controllers)
    return battle.run()


def of_kind(log: Sequence[Event], kind: type[E]) -> list[E]:
    """The events of one kind, in log order."""
    return [e for e in log if isinstance(e, kind)]


class Scripted:
    """A controller that declares the given plans one after another, then nothing."""

    name = "scripted"

    def __init__(self, *plans: list[Step]) -> None:
        self.plans = list(plans)
        self.views: list[TurnView] = []

    def plan(self, view: TurnView) -> list[Step]:
        """The next plan in the script."""
        self.views.append(view)
        return self.plans.pop(0) if self.plans else []
