"""The simplest controller: go for the nearest standing enemy."""

from __future__ import annotations

from affray.kernel.space import distance, squared_distance
from affray.npc.intents import Approach, Attack, Intent, View


class NearestEnemy:
    """Attack the nearest standing enemy, approaching it first if it is out of reach.

    Ties go to the enemy listed first in the scenario.
    """

    name = "nearest"

    def decide(self, view: View) -> Intent | None:
        """Choose the nearest enemy; attack if it is within reach, else approach it."""
        me = view.me
        best = None
        for other in view.state.combatants.values():
            if other.out or other.side == me.side:
                continue
            squared = squared_distance(me.position, other.position)
            if best is None or squared < best[0]:
                best = (squared, other)
        if best is None:
            return None
        target = best[1].id
        gap = distance(me.position, best[1].position)
        if gap <= view.reach:
            return Attack(target=target, reason=f"nearest enemy, {gap} m away, within reach {view.reach} m")
        return Approach(target=target, reason=f"nearest enemy, {gap} m away, beyond reach {view.reach} m")
