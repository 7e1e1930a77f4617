"""Casting a spell on the clock (rule E23): preparation, one second of initiation, the casting time.

Damage taken while casting interrupts the spell (a SimPy interrupt of the caster's process); a caster does
not parry, since reacting to anything else would interrupt it too. At least one second passes between the
end of one spell and the start of the next. The text gives spells only their timing: what a spell does is
the scenario's (damage dice against one target within range).
"""

from __future__ import annotations

from collections.abc import Generator
from decimal import Decimal
from typing import Any

import simpy

from affray.events.energion.kinds import SpellCast, SpellInterrupted, SpellStarted
from affray.events.energion.state import EnergionCombatant, EnergionState
from affray.handlers.energion.host import Arena, EnergionHost
from affray.handlers.energion.loadout import Loadout
from affray.kernel.clock import MS_PER_SECOND, to_ms
from affray.kernel.space import distance
from affray.npc.energion.intents import Cast
from affray.npc.energion.view import SpellView

INITIATION_MS = MS_PER_SECOND
"""E23: "Spell initiation requires one second"."""
BETWEEN_SPELLS_MS = MS_PER_SECOND
"""E23: at least one second between the completion of one spell and the beginning of the next."""


def cast(
    encounter: Arena, battle: EnergionHost, loadout: Loadout, live: EnergionCombatant, intent: Cast
) -> Generator[Any, Any, None]:
    """Cast ``intent.spell`` at ``intent.target``: wait out the gap since the last spell, then prepare,
    initiate and cast; emit the spell's end, its effect, or its interruption."""
    spell = loadout.spec.spells[intent.spell]
    if live.spell_ended_ms is not None:
        rest = live.spell_ended_ms + BETWEEN_SPELLS_MS - int(encounter.now)
        if rest > 0:
            yield encounter.timeout(rest)
    preparation_ms, roll = battle.duration(encounter, loadout.id, "spell-preparation", spell.preparation)
    casting_ms = spell.casting_seconds * MS_PER_SECOND
    encounter.emit(
        SpellStarted(
            combatant=loadout.id,
            spell=spell.name,
            target=intent.target,
            preparation_ms=preparation_ms,
            initiation_ms=INITIATION_MS,
            casting_ms=casting_ms,
            roll=roll,
        )
    )
    try:
        yield encounter.timeout(preparation_ms + INITIATION_MS + casting_ms)
    except simpy.Interrupt as interrupt:
        battle.interrupted.discard(loadout.id)
        if not (encounter.state.ended or live.out):
            encounter.emit(
                SpellInterrupted(combatant=loadout.id, spell=spell.name, reason=str(interrupt.cause))
            )
        return
    state = encounter.state
    if state.ended or live.out:
        return
    target = state.combatants[intent.target]
    gap = distance(live.position, target.position)
    if target.out or gap > Decimal(str(spell.range_m)):
        why = "is out of the fight" if target.out else f"is {gap} m away, beyond {spell.range_m:g} m"
        encounter.emit(SpellInterrupted(combatant=loadout.id, spell=spell.name, reason=f"{target.id} {why}"))
        return
    effect = encounter.dice.roll(loadout.id, "spell", spell.damage)
    encounter.emit(
        SpellCast(
            combatant=loadout.id,
            spell=spell.name,
            target=target.id,
            roll=effect,
            damage=Decimal(max(effect.total, 0)),
        )
    )
    if effect.total > 0:
        battle.after_damage(encounter, target.id)


def cast_problem(loadout: Loadout, live: EnergionCombatant, state: EnergionState, intent: Cast) -> str:
    """Why the spell cannot be begun now (E23), or ""."""
    if not 0 <= intent.spell < len(loadout.spec.spells):
        return f"there is no spell number {intent.spell}"
    spell = loadout.spec.spells[intent.spell]
    target = state.combatants.get(intent.target)
    if target is None or target.out:
        return f"{intent.target} is not in the fight"
    gap = distance(live.position, target.position)
    if gap > Decimal(str(spell.range_m)):
        return f"{intent.target} is {gap} m away, beyond {spell.name}'s {spell.range_m:g} m"
    return ""


def spell_views(loadout: Loadout) -> tuple[SpellView, ...]:
    """What a controller sees of its combatant's spells."""
    views = []
    for index, spell in enumerate(loadout.spec.spells):
        fixed = 0 if isinstance(spell.preparation, str) else to_ms(Decimal(str(spell.preparation)))
        views.append(
            SpellView(
                index=index,
                name=spell.name,
                range_m=Decimal(str(spell.range_m)),
                total_ms=fixed + MS_PER_SECOND + spell.casting_seconds * MS_PER_SECOND,
            )
        )
    return tuple(views)
