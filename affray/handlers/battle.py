"""A scenario made into an encounter: combatants join, their processes start, the clock runs to the end."""

from __future__ import annotations

from collections.abc import Generator, Iterable
from decimal import Decimal
from typing import Any

import msgspec

from affray import __version__
from affray.events.base import Roll
from affray.events.codec import CURRENT_VERSIONS, ENCODER, LogHeader
from affray.events.kinds import AttackResolved, CombatantJoined, CombatantOut, EncounterEnded
from affray.handlers.fighter import fighter
from affray.handlers.loadout import Loadout, build_loadouts
from affray.kernel.clock import MS_PER_SECOND, to_ms
from affray.kernel.dice import DICE_ALGORITHM, Dice, DiceSource, GeneratedDice, ManualDice
from affray.kernel.encounter import Encounter, EventSink
from affray.kernel.space import metres
from affray.npc.intents import Controller
from affray.npc.nearest import NearestEnemy
from affray.npc.tactician import Tactician
from affray.rules.energion.formulas import tidy
from affray.rules.energion.tables import EnergionTables, load_tables
from affray.scenario import Scenario, Seconds

RULESET = "energion"
RULESET_VERSION = "1"
CONTROLLERS: dict[str, type[Controller]] = {"nearest": NearestEnemy, "tactician": Tactician}


class Battle:
    """An Energion encounter built from a scenario; ``run`` simulates it into an Encounter."""

    def __init__(self, scenario: Scenario, tables: EnergionTables | None = None) -> None:
        self.scenario = scenario
        self.loadouts: dict[str, Loadout] = build_loadouts(scenario, tables or load_tables())
        self.controllers: dict[str, Controller] = {
            spec.id: CONTROLLERS[spec.controller]() for spec in scenario.combatants
        }

    def header(self) -> LogHeader:
        """The log header for this scenario."""
        return LogHeader(
            affray_version=__version__,
            ruleset=RULESET,
            ruleset_version=RULESET_VERSION,
            dice=DICE_ALGORITHM,
            seed=self.scenario.seed,
            event_versions=dict(CURRENT_VERSIONS),
            scenario=msgspec.Raw(ENCODER.encode(self.scenario)),
        )

    def dice_source(self) -> DiceSource:
        """Generated streams from the seed, or the referee's rolls in order."""
        if self.scenario.dice.source == "manual":
            return ManualDice(self.scenario.dice.rolls)
        return GeneratedDice(self.scenario.seed)

    def run(self, sinks: Iterable[EventSink] = (), *, trace: bool = False) -> Encounter:
        """Simulate the encounter to its end and return it, its state and its log."""
        encounter = Encounter(Dice(self.dice_source()), trace=trace)
        encounter.sinks.extend(sinks)
        for me in self.loadouts.values():
            spec = me.spec
            encounter.emit(
                CombatantJoined(
                    combatant=me.id,
                    name=spec.name,
                    side=spec.side,
                    damage_points=Decimal(spec.damage_points),
                    position=(metres(spec.position[0]), metres(spec.position[1])),
                    weapon=me.arms[0].weapon.name,
                    armor=me.armor.name,
                    shield=me.shield.name if me.shield else None,
                    cover=spec.cover,
                )
            )
        perceptions = {
            me.id: self.duration(encounter, me.id, "perception", me.spec.perception)
            for me in self.loadouts.values()
        }
        first = min(ms for ms, _ in perceptions.values())
        for me in self.loadouts.values():
            ms, roll = perceptions[me.id]
            encounter.process(fighter(encounter, self, me, ms - first, roll))
        encounter.process(self._time_limit(encounter))
        encounter.run(until=encounter.finished)
        return encounter

    def duration(
        self, encounter: Encounter, combatant: str, purpose: str, value: Seconds
    ) -> tuple[int, Roll | None]:
        """A time in milliseconds from a scenario value: seconds as given, or rolled dice read as seconds."""
        if isinstance(value, str):
            roll = encounter.dice.roll(combatant, purpose, value)
            return max(roll.total, 0) * MS_PER_SECOND, roll
        return to_ms(Decimal(str(value))), None

    def after_attack(self, encounter: Encounter, event: AttackResolved) -> None:
        """Put a target at 0 damage points out, and end the encounter when one side is left."""
        if event.damage is None:
            return
        target = encounter.state.combatants[event.target]
        if target.out or target.damage_left > 0:
            return
        reason = f"damage points at {tidy(target.damage_left)}"
        encounter.emit(CombatantOut(combatant=target.id, reason=reason))
        sides = encounter.state.standing_sides()
        if len(sides) <= 1:
            winner = sides[0] if sides else None
            encounter.emit(
                EncounterEnded(
                    winner=winner,
                    reason=f"only side {winner} still stands" if winner else "no side stands",
                )
            )
            encounter.finish()

    def _time_limit(self, encounter: Encounter) -> Generator[Any, Any, None]:
        yield encounter.timeout(self.scenario.max_seconds * MS_PER_SECOND)
        if not encounter.state.ended:
            encounter.emit(
                EncounterEnded(winner=None, reason=f"time limit of {self.scenario.max_seconds} s reached")
            )
        encounter.finish()
