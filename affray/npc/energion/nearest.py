"""The simplest Energion controller: go for the nearest standing enemy."""

from __future__ import annotations

from affray.npc.energion.intents import Approach, Attack, BreakHold, ChangeWeapon, Intent
from affray.npc.energion.view import View
from affray.npc.targeting import TargetMemory


class NearestEnemy:
    """Attack the nearest standing enemy, approaching it first if it is out of reach.

    It never changes weapons: with its weapon thrown or out of ammunition it stops acting.
    """

    name = "nearest"
    steady = True
    """It decides by the field alone (its own hold, readiness and weapon, the roster, its priority
    targets), so its answer holds until one of them changes."""

    def __init__(self) -> None:
        self.memory = TargetMemory()

    def decide(self, view: View) -> Intent | None:
        """Choose the first standing priority target, else the nearest enemy; attack if it is within reach,
        else approach it."""
        if view.me.held_by is not None:
            return BreakHold(reason=f"held by {view.me.held_by}")
        chosen = self.memory.nearest(view.me, view.field, view.now, view.priority)
        if chosen is not None and not view.me.readied and view.arm.usable:
            return ChangeWeapon(
                index=view.arm.index, method="drop_and_grab", reason=f"ready the {view.arm.name}"
            )
        if chosen is None or not (view.me.weapon_ready and view.arm.usable):
            return None
        target, gap = chosen
        reach = view.arm.reach
        which = "priority target" if target.id in view.priority else "nearest enemy"
        if gap <= reach:
            return Attack(target=target.id, reason=f"{which}, {gap} m away, within reach {reach} m")
        return Approach(target=target.id, reason=f"{which}, {gap} m away, beyond reach {reach} m")
