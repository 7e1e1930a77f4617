"""Whether the rules would carry out an Energion intent now: one check per kind of intent, each given the
:class:`Situation` and the intent's target (None for an intent not aimed at a combatant).

:mod:`.repertoire` pairs each kind of intent with its check. A check passes only what the handlers would
carry out and what does something. Nothing here rolls: an intent may still fail on a roll (a robot's
malfunction, S5; a punch in a kick's recovery second, E13; a part presented in random cover, E16).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from affray.events.energion.state import EnergionCombatant, EnergionState
from affray.handlers.energion.attack import arm_for_attack, barred_now, spent
from affray.handlers.energion.grapple import grapple_problem
from affray.handlers.energion.loadout import Loadout
from affray.handlers.energion.resolution import cover_now
from affray.handlers.energion.spells import cast_problem
from affray.handlers.energion.weapons import change_time
from affray.kernel.clock import MS_PER_SECOND
from affray.kernel.space import distance
from affray.npc.energion.intents import (
    Aim,
    Approach,
    Attack,
    BreakHold,
    Cast,
    ChangeWeapon,
    Charge,
    Flee,
    Grapple,
    Intent,
)
from affray.rules.energion import ranged

FULL_COVER = 100


class Situation:
    """What legality reads: the combatant's figures and live state (read, never changed), the state of
    the encounter, ``now``, the loadouts by id, and whether its first weapon is still to be readied."""

    def __init__(
        self,
        loadout: Loadout,
        state: EnergionState,
        now: int,
        loadouts: Mapping[str, Loadout],
        unreadied: bool,
    ) -> None:
        self.loadout = loadout
        self.live: EnergionCombatant = state.combatants[loadout.id]
        self.state = state
        self.now = now
        self.loadouts = loadouts
        self.unreadied = unreadied

    def gap(self, target: EnergionCombatant) -> Decimal:
        """How far ``target`` is."""
        return distance(self.live.position, target.position)


def can_attack(s: Situation, intent: Attack, target: EnergionCombatant) -> bool:
    """E1, E8, E13, E16, E20: a usable weapon, in reach or range, the target not wholly behind cover."""
    arm = arm_for_attack(s.loadout, s.live, intent)
    if intent.arm is not None and arm.index != intent.arm:
        return False
    live = s.live
    if barred_now(live, arm, readying=s.unreadied and arm.index == 0):
        return False
    kicked = live.kicked_ms is not None and s.now - live.kicked_ms < MS_PER_SECOND
    if kicked and arm.martial == "kick":
        return False
    gap = s.gap(target)
    if not arm.ranged:
        return gap <= arm.reach
    hidden = cover_now(target, s.loadouts[target.id], s.now)[0] >= FULL_COVER
    return ranged.range_band(arm.weapon.ranges, gap) is not None and not hidden


def can_approach(s: Situation, intent: Approach, target: EnergionCombatant) -> bool:
    """A move toward a target beyond the reach of the weapon in hand."""
    return s.gap(target) > s.loadout.arms[s.live.weapon_index].reach


def can_charge(s: Situation, intent: Charge, target: EnergionCombatant) -> bool:
    """E21: a run at a target beyond reach, with a melee weapon in hand that can strike on arrival."""
    arm = s.loadout.arms[s.live.weapon_index]
    strikes = not barred_now(s.live, arm, readying=s.unreadied and arm.index == 0)
    return arm.mode == "melee" and strikes and s.gap(target) > arm.reach


def can_flee(s: Situation, intent: Flee, target: EnergionCombatant) -> bool:
    """A run away from any standing enemy."""
    return True


def can_aim(s: Situation, intent: Aim, target: EnergionCombatant) -> bool:
    """E17: a ready missile or hurled weapon with a shot or throw left, the target within its range."""
    arm = s.loadout.arms[s.live.weapon_index]
    ready = (s.live.weapon_ready or (s.unreadied and arm.index == 0)) and not spent(s.live, arm)
    return arm.ranged and ready and ranged.range_band(arm.weapon.ranges, s.gap(target)) is not None


def can_grapple(s: Situation, intent: Grapple, target: EnergionCombatant) -> bool:
    """E15: a procedure it knows, in reach, allowed by its damage (S4, ruling 8)."""
    return not grapple_problem(s.loadout, s.live, target, intent)


def can_cast(s: Situation, intent: Cast, target: None) -> bool:
    """E23: a spell it has, at a target standing within its range."""
    return not cast_problem(s.loadout, s.live, s.state, intent)


def can_change(s: Situation, intent: ChangeWeapon, target: None) -> bool:
    """E3: another carried weapon it can take up."""
    return not isinstance(change_time(s.loadout, s.live, intent), str)


def always(s: Situation, intent: Intent, target: None) -> bool:
    """Waiting and surrender are always carried out."""
    return True


def can_break_hold(s: Situation, intent: BreakHold, target: None) -> bool:
    """E15: only a held combatant breaks a hold."""
    return s.live.held_by is not None
