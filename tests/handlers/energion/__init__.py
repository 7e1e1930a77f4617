"""Tests for the Energion handlers, and a helper that writes small scenarios as TOML text.

The handler tests build every scenario with :func:`affray.scenario.decode_scenario` from TOML text, the way a
user's file is read; :func:`scenario_toml` only saves writing the text out by hand.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TypeVar

from affray.events.base import Event
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import EnergionScenario, decode_scenario
from affray.kernel.encounter import Encounter
from affray.npc.energion.intents import Intent
from affray.npc.energion.view import View

TomlValue = str | int | float | bool | Sequence["TomlValue"] | Mapping[str, "TomlValue"]


def toml_value(value: TomlValue) -> str:
    """One value in TOML syntax: strings quoted, lists in brackets, mappings as inline tables."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{key} = {toml_value(item)}" for key, item in value.items()) + " }"
    return "[" + ", ".join(toml_value(item) for item in value) + "]"


def fighter(id: str, side: str, **fields: TomlValue) -> dict[str, TomlValue]:
    """A combatant's table: a plain 100-stat fighter with a long sword in hand, changed by ``fields``."""
    spec: dict[str, TomlValue] = {
        "id": id,
        "name": id.title(),
        "side": side,
        "damage_points": 30,
        "skill": 60,
        "weapons": [{"name": "Sword, Long"}],
    }
    spec.update(fields)
    return spec


def scenario_toml(
    *combatants: Mapping[str, TomlValue],
    rolls: Sequence[int] | None = None,
    max_seconds: int = 60,
    options: Mapping[str, TomlValue] | None = None,
) -> str:
    """The TOML text of a scenario: manual dice when ``rolls`` is given, else dice generated from seed 1."""
    lines = ['ruleset = "energion"', "seed = 1", f"max_seconds = {max_seconds}"]
    if rolls is not None:
        lines += ["", "[dice]", 'source = "manual"', f"rolls = {toml_value(list(rolls))}"]
    if options:
        lines += ["", "[options]", *(f"{key} = {toml_value(value)}" for key, value in options.items())]
    for combatant in combatants:
        lines += ["", "[[combatants]]", *(f"{key} = {toml_value(value)}" for key, value in combatant.items())]
    return "\n".join(lines) + "\n"


def scenario(
    *combatants: Mapping[str, TomlValue],
    rolls: Sequence[int] | None = None,
    max_seconds: int = 60,
    options: Mapping[str, TomlValue] | None = None,
) -> EnergionScenario:
    """A scenario decoded from :func:`scenario_toml`'s text."""
    text = scenario_toml(*combatants, rolls=rolls, max_seconds=max_seconds, options=options)
    return decode_scenario(text, "test.toml")


E = TypeVar("E", bound=Event)


class Script:
    """A controller that plays ``intents`` in order, then does nothing; it keeps every view it was shown."""

    name = "script"

    def __init__(self, *intents: Intent) -> None:
        self.intents = list(intents)
        self.views: list[View] = []

    def decide(self, view: View) -> Intent | None:
        """The next scripted intent, or None once they are spent."""
        self.views.append(view)
        return self.intents.pop(0) if self.intents else None


def of_kind(encounter: Encounter, kind: type[E]) -> list[E]:
    """The events of one kind in an encounter's log, in order."""
    return [event for event in encounter.log if isinstance(event, kind)]


def run(built: EnergionScenario, **scripts: list[Intent]) -> tuple[Encounter, dict[str, Script]]:
    """Run ``built`` with each combatant named in ``scripts`` following its intents; the rest stand idle."""
    battle = EnergionBattle(built)
    controllers = {key: Script(*scripts.get(key, [])) for key in battle.controllers}
    battle.controllers = dict(controllers)
    return battle.run(), controllers
