"""Rulesets by name: which scenario type a file is read into and which battle simulates it.

``affray run``, ``verify`` and ``heal`` read a scenario (from a file or a log header) and ask here for its
battle, so a new ruleset is added in one place.
"""

from __future__ import annotations

from pathlib import Path

from affray.errors import ScenarioError, read_user_file
from affray.fivestep_scenario import FivestepScenario, convert_fivestep, embed_tables
from affray.handlers.battle import Battle
from affray.handlers.fivestep.battle import FivestepBattle
from affray.scenario import Scenario, convert_scenario, parse_toml

AnyScenario = Scenario | FivestepScenario
RULESETS = ("energion", "fivestep")


def convert_any(raw: object, source: str) -> AnyScenario:
    """A decoded scenario (from TOML or a log header) checked as the scenario of its ``ruleset``."""
    ruleset = raw.get("ruleset") if isinstance(raw, dict) else None
    if ruleset == "fivestep":
        return convert_fivestep(raw, source)
    if ruleset is not None and ruleset not in RULESETS:
        raise ScenarioError(
            f"{source}: $.ruleset: expected one of {', '.join(map(repr, RULESETS))}, got {ruleset!r}"
        )
    return convert_scenario(raw, source)


def load_any(path: Path) -> AnyScenario:
    """Read the scenario file at ``path``; a fivestep scenario's table files are read with it."""
    raw = parse_toml(read_user_file(path, ScenarioError, "a scenario file"), str(path))
    scenario = convert_any(raw, str(path))
    if isinstance(scenario, FivestepScenario):
        return embed_tables(scenario, path.parent, str(path))
    return scenario


def battle_for(scenario: AnyScenario) -> Battle | FivestepBattle:
    """The battle that simulates ``scenario`` under its ruleset."""
    if isinstance(scenario, FivestepScenario):
        return FivestepBattle(scenario)
    return Battle(scenario)
