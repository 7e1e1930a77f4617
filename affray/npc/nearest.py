"""The simplest controller: go for the nearest standing enemy."""

from __future__ import annotations

from decimal import Decimal

from affray.kernel.space import distance
from affray.kernel.state import CombatantState
from affray.npc.intents import Approach, Attack, BreakHold, Intent, View

Distances = dict[str, tuple[object, object, Decimal]]
"""A controller's last distance to each combatant, kept while neither has moved (the same positions)."""


def nearest_enemy(
    view: View, known_distances: Distances | None = None
) -> tuple[CombatantState, Decimal] | None:
    """The first standing priority target, else the nearest standing enemy, and its distance (to the
    millimetre; ties go to the one listed first). ``known_distances`` spares recomputing them."""
    cache: Distances = {} if known_distances is None else known_distances
    me = view.me
    for wanted in view.priority:
        other = view.state.combatants.get(wanted)
        if other is not None and other.side != me.side and not other.incapacitated(view.now):
            return other, distance(me.position, other.position)
    best: tuple[Decimal, CombatantState] | None = None
    here = me.position
    for other in view.state.combatants.values():
        if other.side == me.side or other.incapacitated(view.now):
            continue
        there = other.position
        known = cache.get(other.id)
        if known is not None and known[0] is here and known[1] is there:
            gap = known[2]
        else:
            gap = distance(here, there)
            cache[other.id] = (here, there, gap)
        if best is None or gap < best[0]:
            best = (gap, other)
    if best is None:
        return None
    return best[1], best[0]


class NearestEnemy:
    """Attack the nearest standing enemy, approaching it first if it is out of reach.

    It never changes weapons: with its weapon thrown or out of ammunition it stops acting.
    """

    name = "nearest"

    def __init__(self) -> None:
        self.distances: Distances = {}

    def decide(self, view: View) -> Intent | None:
        """Choose the nearest enemy; attack if it is within reach, else approach it."""
        if view.me.held_by is not None:
            return BreakHold(reason=f"held by {view.me.held_by}")
        found = nearest_enemy(view, self.distances)
        if found is None or not (view.me.weapon_ready and view.arm.usable):
            return None
        target, gap = found
        reach = view.arm.reach
        if gap <= reach:
            return Attack(target=target.id, reason=f"nearest enemy, {gap} m away, within reach {reach} m")
        return Approach(target=target.id, reason=f"nearest enemy, {gap} m away, beyond reach {reach} m")
