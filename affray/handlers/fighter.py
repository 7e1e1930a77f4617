"""A combatant's life on the clock as one SimPy process: perceive, react, ready, then fight (rule E1)."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from affray.events.base import Roll
from affray.events.kinds import Moved, Perceived, Reacted, TargetChosen, WeaponReadied
from affray.handlers.attack import resolve_attack
from affray.handlers.loadout import Loadout
from affray.kernel.clock import MS_PER_SECOND
from affray.kernel.encounter import Encounter
from affray.kernel.space import approach, distance, metres, step_toward
from affray.npc.intents import Approach, View

if TYPE_CHECKING:
    from affray.handlers.battle import Battle

Process = Generator[Any, Any, None]


def fighter(
    encounter: Encounter, battle: Battle, me: Loadout, perceive_after_ms: int, roll: Roll | None
) -> Process:
    """Run one combatant from its perception to the end of the encounter or of itself."""
    state = encounter.state
    mine = state.combatants[me.id]

    def stopped() -> bool:
        return state.ended or mine.out

    yield encounter.timeout(perceive_after_ms)
    if stopped():
        return
    encounter.emit(Perceived(combatant=me.id, after_ms=perceive_after_ms, roll=roll))

    if me.spec.prepared:
        reaction_ms, reaction_roll = 0, None
    else:
        reaction_ms, reaction_roll = battle.duration(encounter, me.id, "reaction", me.spec.reaction)
        yield encounter.timeout(reaction_ms)
        if stopped():
            return
    encounter.emit(
        Reacted(combatant=me.id, reaction_ms=reaction_ms, prepared=me.spec.prepared, roll=reaction_roll)
    )

    yield encounter.timeout(me.readiness_ms)
    if stopped():
        return
    encounter.emit(
        WeaponReadied(
            combatant=me.id,
            weapon=me.weapon.name,
            readiness=me.carried.readiness,
            chart_initiative=me.weapon.initiative,
            chart_speed=me.weapon.speed,
            speed_adjustment=me.speed_adjustment,
            initiative_ms=me.readiness_ms,
            speed_ms=me.speed_ms,
        )
    )

    controller = battle.controllers[me.id]
    step = metres(me.spec.move_rate)
    while not stopped():
        intent = controller.decide(View(me=mine, reach=me.reach, state=state))
        if intent is None:
            return
        target = state.combatants[intent.target]
        if mine.target != intent.target:
            encounter.emit(
                TargetChosen(
                    combatant=me.id,
                    target=intent.target,
                    controller=controller.name,
                    reason=intent.reason,
                    distance=distance(mine.position, target.position),
                )
            )
        if isinstance(intent, Approach):
            yield encounter.timeout(MS_PER_SECOND)
            if stopped():
                return
            gap = distance(mine.position, target.position)
            if gap > me.reach:
                if gap - me.reach <= step:
                    end = approach(mine.position, target.position, me.reach)
                else:
                    end = step_toward(mine.position, target.position, step)
                encounter.emit(
                    Moved(
                        combatant=me.id,
                        toward=intent.target,
                        start=mine.position,
                        end=end,
                        distance=distance(mine.position, end),
                    )
                )
            continue
        event = encounter.emit(resolve_attack(encounter, me, battle.loadouts[intent.target]))
        battle.after_attack(encounter, event)
        yield encounter.timeout(me.speed_ms)
