"""The toy on the clock: each fighter a SimPy process swinging at the nearest standing enemy."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from decimal import Decimal
from typing import Annotated, Any, Literal

import msgspec

from affray.events.base import Event
from affray.handlers.shared import Finisher, time_limit
from affray.kernel.dice import Dice
from affray.kernel.encounter import Encounter, EventSink
from affray.kernel.fairseed import FairSeed
from affray.kernel.scenario import Dice as DiceSection
from affray.kernel.scenario import Identifier, Section, Seed, check_dice, check_fighters, convert
from affray.kernel.space import metres
from affray.npc.field import FieldWatch, watch_of
from affray.npc.targeting import nearest_enemy
from tests.toy.kinds import FighterJoined, Swung
from tests.toy.state import ToyState, vocabulary

Arena = Encounter[ToyState]


class Fighter(Section, frozen=True, kw_only=True):
    """A toy fighter as the scenario gives it."""

    id: Identifier
    name: str
    side: Identifier
    points: Annotated[int, msgspec.Meta(ge=1, le=1000)]
    skill: Annotated[int, msgspec.Meta(ge=1, le=20)]
    speed: Annotated[int, msgspec.Meta(ge=1, le=60)] = 2
    position: tuple[float, float] = (0.0, 0.0)
    priority_targets: list[str] = msgspec.field(default_factory=list)


class ToyScenario(Section, frozen=True, kw_only=True):
    """A toy encounter: its seed, dice, time limit and fighters."""

    ruleset: Literal["toy"]
    seed: Seed
    name: str = ""
    max_seconds: Annotated[int, msgspec.Meta(ge=1, le=3600)] = 120
    dice: DiceSection = DiceSection()
    fair_seed: FairSeed | msgspec.UnsetType = msgspec.UNSET
    """Commitments and reveals that give the seed (kernel/fairseed.py); not written when absent."""
    modules: Annotated[list[str], msgspec.Meta(max_length=0)] = msgspec.field(default_factory=list)
    """The toy carries no module."""
    combatants: Annotated[list[Fighter], msgspec.Meta(min_length=2)]


def load(raw: Any, source: str, folder: Any) -> ToyScenario:
    """A toy scenario from a file's or a header's mapping."""
    scenario = convert(raw, ToyScenario, source)
    check_fighters(scenario.combatants, source)
    check_dice(scenario.dice, source)
    return scenario


class ToyBattle(Finisher):
    """A toy scenario made ready to run."""

    def __init__(self, scenario: ToyScenario) -> None:
        self.scenario = scenario

    def replay_decisions(self, recorded: Callable[[], Event | None], *, strict: bool = False) -> None:
        """Nothing to take: the toy's fighters play themselves."""

    def notices(self) -> list[str]:
        """Nothing to note."""
        return []

    def run(self, sinks: Iterable[EventSink] = (), *, trace: bool = False, keep_log: bool = True) -> Arena:
        """Every fighter joins, then swings until one side stands or time is up."""
        encounter: Arena = Encounter(
            Dice(self.scenario.dice.source_for(self.scenario.seed)),
            vocabulary(),
            trace=trace,
            keep_log=keep_log,
        )
        encounter.sinks.extend(sinks)
        for spec in self.scenario.combatants:
            encounter.emit(
                FighterJoined(
                    combatant=spec.id,
                    name=spec.name,
                    side=spec.side,
                    damage_points=Decimal(spec.points),
                    position=(metres(spec.position[0]), metres(spec.position[1])),
                    skill=spec.skill,
                    speed_ms=spec.speed * 1000,
                )
            )
        watch = watch_of(encounter)
        for spec in self.scenario.combatants:
            encounter.process(self._swings(encounter, spec, watch))
        encounter.process(time_limit(encounter, self.scenario.max_seconds))
        encounter.run(until=encounter.finished)
        return encounter

    def _swings(self, encounter: Arena, spec: Fighter, watch: FieldWatch) -> Generator[Any, Any, None]:
        me = encounter.state.combatants[spec.id]
        while True:
            yield encounter.timeout(me.speed_ms)
            if encounter.state.ended or me.out:
                return
            found = nearest_enemy(me, watch.roster(), int(encounter.now), spec.priority_targets)
            if found is None:
                return
            target = encounter.state.combatants[found[0].id]
            roll = encounter.dice.roll(me.id, "swing", "1d20")
            damage = encounter.dice.roll(me.id, "damage", "1d6") if roll.total <= me.skill else None
            encounter.emit(
                Swung(
                    attacker=me.id,
                    target=target.id,
                    roll=roll,
                    skill=me.skill,
                    damage_roll=damage,
                    damage=Decimal(damage.total) if damage else Decimal(0),
                )
            )
            if target.damage_left <= 0 and not target.out:
                self.put_out(encounter, target.id, f"no points left ({target.damage_left})")
