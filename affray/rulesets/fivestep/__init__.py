"""The five-step ruleset (seed 000): surprise, primary attack, Agility Points, to hit and damage, rules
F1-F13, with the procedure of each step chosen by the scenario.

docs/rulesets/fivestep.md gives the rules, the rulings and the format of the tables a user supplies.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affray.events.fivestep.state import vocabulary
from affray.handlers.fivestep.scenario import (
    CONTROLLERS,
    RULES_ON,
    FivestepScenario,
    TableFile,
    convert_fivestep,
    embed_tables,
)
from affray.kernel.ruleset import Ruleset
from affray.npc.outside import check_controllers
from affray.rulesets.fivestep.display import DISPLAY
from affray.rulesets.fivestep.explanation import EXPLAINERS
from affray.rulesets.fivestep.marks import MARKERS
from affray.rulesets.fivestep.narration import TELLERS
from affray.rulesets.fivestep.seating import FivestepSeating
from affray.rulesets.fivestep.special_damage import SPECIAL_DAMAGE_HOST
from affray.rulesets.fivestep.tables import tables
from affray.rulesets.special_damage.hosting import carried_by

if TYPE_CHECKING:
    from affray.handlers.fivestep.battle import FivestepBattle


def files(scenario: FivestepScenario) -> tuple[str, ...]:
    """The table files the scenario names."""
    return tuple(t.path if isinstance(t, TableFile) else t for t in scenario.tables.values())


def load(raw: Mapping[str, Any], source: str, folder: Path | None) -> FivestepScenario:
    """A fivestep scenario: from a file, with the table files it names read from ``folder``; from a log
    header, with the tables' text it holds."""
    scenario = convert_fivestep(raw, source)
    if folder is None:
        return scenario
    check_controllers([c.controller for c in scenario.combatants], CONTROLLERS, source, folder)
    return embed_tables(scenario, folder, source)


def battle(scenario: FivestepScenario) -> FivestepBattle:
    """The battle that simulates ``scenario``: the handlers are imported by the commands that fight,
    not by those that read a log."""
    from affray.handlers.fivestep.battle import FivestepBattle

    return FivestepBattle(scenario)


RULESET = Ruleset(
    name="fivestep",
    version="4",
    in_rounds=True,
    standing_orders=True,
    description="five steps: surprise, primary attack, Agility Points as time, to hit, damage to body parts",
    vocabularies=vocabulary,
    load=load,
    battle=battle,
    tellers=TELLERS,
    explainers=EXPLAINERS,
    display=DISPLAY,
    modules=("special_damage",),
    tables=tables,
    files=files,
    rules_on=RULES_ON,
    markers=MARKERS,
    seating=FivestepSeating(),
)
"""The five-step ruleset."""

carried_by(SPECIAL_DAMAGE_HOST)  # what the special_damage module reads of this host's log
