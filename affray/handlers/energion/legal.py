"""The intents an Energion combatant may choose now: what a controller from outside affray is offered.

:func:`menu` is every intent a combatant could ever be offered in its encounter, in a fixed order (a
reinforcement-learning agent's actions); :func:`legal` keeps those the rules would carry out now and
that do something. Nothing here rolls: an intent may still fail on a roll (a robot's malfunction, S5; a
punch in a kick's recovery second, E13; a part presented in random cover, E16).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
    Surrender,
    Wait,
)
from affray.rules.energion import ranged

FULL_COVER = 100


def menu(me: Loadout, enemies: tuple[str, ...]) -> tuple[Intent, ...]:
    """Every intent ``me`` could be offered against ``enemies``, in a fixed order: for each enemy, attack
    (and each martial arm), approach, charge, flee, aim a second, its grapples and its spells; then each
    weapon change, a second's wait, breaking a hold and surrender. Reasons are left empty."""
    martial = tuple(arm.index for arm in me.arms if arm.martial)
    offered: list[Intent] = []
    for enemy in enemies:
        offered.append(Attack(target=enemy, reason=""))
        offered.extend(Attack(target=enemy, arm=index, reason="") for index in martial)
        offered.extend((Approach(target=enemy, reason=""), Charge(target=enemy, reason="")))
        offered.extend((Flee(target=enemy, reason=""), Aim(target=enemy, seconds=1, reason="")))
        offered.extend(Grapple(procedure=p.name, target=enemy, reason="") for p in me.grapples)
        offered.extend(Cast(spell=n, target=enemy, reason="") for n in range(len(me.spec.spells)))
    for index in range(len(me.arms)):
        offered.append(ChangeWeapon(index=index, method="drop_and_grab", reason=""))
        offered.append(ChangeWeapon(index=index, method="put_away", reason=""))
    offered.extend((Wait(seconds=1, reason=""), BreakHold(reason=""), Surrender(reason="")))
    return tuple(offered)


def menu_for(loadouts: Mapping[str, Loadout], combatant: str) -> tuple[Intent, ...]:
    """The :func:`menu` of ``combatant`` against the combatants of the other sides, in file order."""
    me = loadouts[combatant]
    return menu(me, tuple(c for c, other in loadouts.items() if other.spec.side != me.spec.side))


class Situation:
    """What legality reads: the combatant's figures and live state (read, never changed), the state of
    the encounter, ``now``, the loadouts by id, and whether its first weapon is still to be readied."""

    def __init__(
        self,
        me: Loadout,
        state: EnergionState,
        now: int,
        loadouts: Mapping[str, Loadout],
        unreadied: bool,
    ) -> None:
        self.me = me
        self.mine: EnergionCombatant = state.combatants[me.id]
        self.state = state
        self.now = now
        self.loadouts = loadouts
        self.unreadied = unreadied

    def gap(self, target: EnergionCombatant) -> Decimal:
        """How far ``target`` is."""
        return distance(self.mine.position, target.position)


def legal(situation: Situation, offered: tuple[Intent, ...]) -> tuple[Intent, ...]:
    """The intents of ``offered`` that the rules would carry out now and that do something."""
    return tuple(intent for intent in offered if allowed(situation, intent))


def allowed(s: Situation, intent: Intent) -> bool:
    """Whether the rules would carry ``intent`` out now (held, only breaking the hold: E15)."""
    if s.mine.held_by is not None:
        return isinstance(intent, BreakHold)
    check = UNTARGETED.get(type(intent))
    if check is not None:
        return check(s, intent)
    target = s.state.combatants.get(getattr(intent, "target", ""))
    if target is None or target.out:
        return False
    return TARGETED[type(intent)](s, intent, target)


def _attack(s: Situation, intent: Attack, target: EnergionCombatant) -> bool:
    """E1, E8, E13, E16, E20: a usable weapon, in reach or range, the target not wholly behind cover."""
    arm = arm_for_attack(s.me, s.mine, intent)
    if intent.arm is not None and arm.index != intent.arm:
        return False
    mine = s.mine
    if barred_now(mine, arm, readying=s.unreadied and arm.index == 0):
        return False
    kicked = mine.kicked_ms is not None and s.now - mine.kicked_ms < MS_PER_SECOND
    if kicked and arm.martial == "kick":
        return False
    gap = s.gap(target)
    if not arm.ranged:
        return gap <= arm.reach
    hidden = cover_now(target, s.loadouts[target.id], s.now)[0] >= FULL_COVER
    return ranged.range_band(arm.weapon.ranges, gap) is not None and not hidden


def _approach(s: Situation, intent: Approach, target: EnergionCombatant) -> bool:
    """A move toward a target beyond the reach of the weapon in hand."""
    return s.gap(target) > s.me.arms[s.mine.weapon_index].reach


def _charge(s: Situation, intent: Charge, target: EnergionCombatant) -> bool:
    """E21: a run at a target beyond reach, with a melee weapon in hand that can strike on arrival."""
    arm = s.me.arms[s.mine.weapon_index]
    strikes = not barred_now(s.mine, arm, readying=s.unreadied and arm.index == 0)
    return arm.mode == "melee" and strikes and s.gap(target) > arm.reach


def _flee(s: Situation, intent: Flee, target: EnergionCombatant) -> bool:
    return True


def _aim(s: Situation, intent: Aim, target: EnergionCombatant) -> bool:
    """E17: a ready missile or hurled weapon with a shot or throw left, the target within its range."""
    arm = s.me.arms[s.mine.weapon_index]
    ready = (s.mine.weapon_ready or (s.unreadied and arm.index == 0)) and not spent(s.mine, arm)
    return arm.ranged and ready and ranged.range_band(arm.weapon.ranges, s.gap(target)) is not None


def _grapple(s: Situation, intent: Grapple, target: EnergionCombatant) -> bool:
    return not grapple_problem(s.me, s.mine, target, intent)


def _cast(s: Situation, intent: Cast) -> bool:
    return not cast_problem(s.me, s.mine, s.state, intent)


def _change(s: Situation, intent: ChangeWeapon) -> bool:
    return not isinstance(change_time(s.me, s.mine, intent), str)


def _always(s: Situation, intent: Intent) -> bool:
    return True


def _not_held(s: Situation, intent: BreakHold) -> bool:
    return False  # a combatant that is held never gets here


UNTARGETED: dict[type, Callable[..., bool]] = {
    BreakHold: _not_held,
    Cast: _cast,
    Surrender: _always,
    Wait: _always,
    ChangeWeapon: _change,
}
TARGETED: dict[type, Callable[..., bool]] = {
    Attack: _attack,
    Approach: _approach,
    Charge: _charge,
    Flee: _flee,
    Aim: _aim,
    Grapple: _grapple,
}
