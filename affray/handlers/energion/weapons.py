"""A combatant's weapons as its controller sees them, and the time it takes to change them (rule E3)."""

from __future__ import annotations

from affray.events.energion.state import WEAPON_ARM, EnergionCombatant
from affray.handlers.energion.loadout import Loadout
from affray.kernel.clock import MS_PER_SECOND
from affray.npc.energion.intents import ChangeWeapon
from affray.npc.energion.view import ArmView


def change_time(loadout: Loadout, live: EnergionCombatant, intent: ChangeWeapon) -> int | str:
    """Rule E3: drop and grab is 1 s plus the new weapon's initiative; putting away safely is the
    initiative of each weapon. With the hand already empty (a weapon thrown), only the new initiative."""
    if not 0 <= intent.index < len(loadout.arms):
        return f"there is no weapon number {intent.index}"
    if WEAPON_ARM in live.disabled:
        return "its weapon arm is unusable"
    new = loadout.arms[intent.index]
    if not arm_views(loadout, live)[intent.index].usable:
        return f"{new.weapon.name} is spent"
    if intent.index == live.weapon_index and live.weapon_ready:
        return f"{new.weapon.name} is already in hand"
    if not live.weapon_ready:
        return new.initiative_ms
    if intent.method == "drop_and_grab":
        return MS_PER_SECOND + new.initiative_ms
    return loadout.arms[live.weapon_index].initiative_ms + new.initiative_ms


def arm_views(loadout: Loadout, live: EnergionCombatant) -> tuple[ArmView, ...]:
    """What a controller sees of its combatant's weapons: uses left, martial kind."""
    used = live.used
    return tuple(
        ArmView(
            index=arm.index,
            name=arm.weapon.name,
            mode=arm.mode,
            reach=arm.reach,
            ranges=arm.weapon.ranges,
            speed_ms=arm.speed_ms,
            initiative_ms=arm.initiative_ms,
            uses_left=None if arm.uses is None else arm.uses - used.get(str(arm.index), 0),
            martial=arm.martial,
        )
        for arm in loadout.arms
    )
