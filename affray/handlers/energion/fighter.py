"""A combatant's life on the clock as one SimPy process: perceive, react, ready, then act (rule E1).

Each action is timed by its rule (:mod:`.actions`): an attack is followed by the weapon's modified speed
(E1), aiming holds still for the seconds chosen (E17), changing weapons takes its E3 time, a move lasts
one second. Before it can choose, a combatant may be out of action: unconscious or stunned (S4, S5), keeping
a hold (E15), or getting up after a knock-down.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from affray.events.energion.kinds import Perceived, Reacted, StoodUp
from affray.handlers.energion.actions import Acting, ready_first_weapon
from affray.handlers.energion.grapple import keep_hold
from affray.handlers.energion.host import Arena, EnergionHost
from affray.handlers.energion.loadout import Loadout
from affray.handlers.energion.repertoire import carry_out, legal_now
from affray.handlers.outside import Outside
from affray.kernel.clock import MS_PER_SECOND

Process = Generator[Any, Any, None]

STAND_UP_MS = MS_PER_SECOND
"""A knocked-down combatant takes a second to get up (a ruling: the text gives no time)."""


def fighter(encounter: Arena, battle: EnergionHost, loadout: Loadout, perceive_after_ms: int) -> Process:
    """Run one combatant from its perception to the end of the encounter or of itself. Its perception
    roll is in its ``combatant_joined``, its reaction roll in its ``perceived``: logged when rolled."""
    state = encounter.state
    live = state.combatants[loadout.id]

    def stopped() -> bool:
        return state.ended or live.out

    # Perception, reaction and battle initiative ending at an instant are settled before anyone acts then
    # (ruling 16): a blow or a hold at that very millisecond meets a combatant who has seen, reacted, readied.
    yield encounter.ahead(perceive_after_ms)
    if stopped():
        return
    if loadout.spec.prepared:
        reaction_ms, reaction_roll = 0, None
    else:
        reaction_ms, reaction_roll = battle.duration(encounter, loadout.id, "reaction", loadout.spec.reaction)
    encounter.emit(Perceived(combatant=loadout.id, after_ms=perceive_after_ms, reaction_roll=reaction_roll))
    if not loadout.spec.prepared:
        yield encounter.ahead(reaction_ms)
        if stopped():
            return
    encounter.emit(Reacted(combatant=loadout.id, reaction_ms=reaction_ms, prepared=loadout.spec.prepared))
    acting = Acting(encounter, battle, loadout)
    if not loadout.spec.spells:
        # E1, E3: battle initiative readies the first weapon; a caster may cast first instead (E23), its
        # spell's preparation being its battle initiative, and readies its weapon when it first needs it.
        yield from ready_first_weapon(acting)
    yield encounter.timeout(0)  # act after everything settled ahead at this instant (ruling 16)
    yield from _act(acting)


def _act(acting: Acting) -> Process:
    """Ask the controller for intents and carry them out until the encounter or the combatant ends."""
    encounter, live = acting.encounter, acting.live
    while not acting.stopped():
        now = int(encounter.now)
        if live.incapacitated(now):
            # S4, S5: unconscious or stunned: nothing until it comes round (condition_ended); for good when
            # deactivated.
            until = live.recovers_at()
            if until is None:
                return
            yield encounter.timeout(until - now)
            continue
        if live.holding is not None:
            # E15: a holder keeps its hold, second by second, until the hold is broken.
            yield encounter.timeout(MS_PER_SECOND)
            if not acting.stopped():
                keep_hold(encounter, acting.battle, acting.loadout, live)
            continue
        if live.knocked_down and live.held_by is None:
            yield encounter.timeout(STAND_UP_MS)
            if not acting.stopped():
                encounter.emit(StoodUp(combatant=acting.loadout.id, took_ms=STAND_UP_MS))
            continue
        controller = acting.controller
        if isinstance(controller, Outside):
            intent = yield from acting.ask_outside(controller, lambda: legal_now(acting))
        else:
            intent = acting.decide(controller)
        if intent is None:
            return
        yield from carry_out(acting, intent)
