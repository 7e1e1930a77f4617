"""The Energion ruleset (seed 002): the second-by-second combat system, rules E1-E24 on the clock.

docs/rulesets/energion.md lists where each rule lives and every ruling made where the text is silent.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affray.events.energion.state import vocabulary
from affray.handlers.energion.scenario import CONTROLLERS, RULES_ON, EnergionScenario, convert_scenario
from affray.kernel.ruleset import Ruleset, package_data
from affray.npc.outside import check_controllers
from affray.rulesets.energion.display import DISPLAY
from affray.rulesets.energion.explanation import EXPLAINERS
from affray.rulesets.energion.marks import MARKERS
from affray.rulesets.energion.narration import TELLERS
from affray.rulesets.energion.seating import EnergionSeating
from affray.rulesets.energion.special_damage import SPECIAL_DAMAGE_HOST
from affray.rulesets.energion.tables import tables
from affray.rulesets.special_damage.hosting import carried_by

if TYPE_CHECKING:
    from affray.handlers.energion.battle import EnergionBattle


def load(raw: Mapping[str, Any], source: str, folder: Path | None) -> EnergionScenario:
    """An Energion scenario from a file's or a header's mapping (it names no other files); a file's
    controllers from outside affray are imported from its folder first."""
    scenario = convert_scenario(raw, source)
    if folder is not None:
        check_controllers([c.controller for c in scenario.combatants], CONTROLLERS, source, folder)
    return scenario


def battle(scenario: EnergionScenario) -> EnergionBattle:
    """The battle that simulates ``scenario``: the handlers are imported by the commands that fight,
    not by those that read a log."""
    from affray.handlers.energion.battle import EnergionBattle

    return EnergionBattle(scenario)


RULESET = Ruleset(
    name="energion",
    version="7",
    standing_orders=True,
    description="second by second: perception, initiative, weapon speed, parries, shots, spells, grappling",
    vocabularies=vocabulary,
    load=load,
    battle=battle,
    tellers=TELLERS,
    explainers=EXPLAINERS,
    display=DISPLAY,
    modules=("special_damage",),
    tables=tables,
    rules_on=RULES_ON,
    markers=MARKERS,
    seating=EnergionSeating(),
    data=package_data("affray.rules.energion"),
)
"""The Energion ruleset."""

carried_by(SPECIAL_DAMAGE_HOST)  # what the special_damage module reads of this host's log
