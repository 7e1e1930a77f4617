"""Every Energion intent, each declared once with how the rules treat it: what the menu offers of it,
whether it is aimed at a combatant, whether it takes up the first weapon, the check of :mod:`.legal` and
the process of :mod:`.actions` that carries it out.

The menu, the legal intents a controller from outside affray is offered and the carrying out of any
intent are derived from :data:`REPERTOIRE`, so a new intent is its struct, its check, its process and
one entry here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from affray.events.energion.state import EnergionCombatant
from affray.handlers.energion import actions, legal
from affray.handlers.energion.actions import Acting, Process
from affray.handlers.energion.legal import Situation
from affray.handlers.energion.loadout import Loadout
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


class IntentRules(NamedTuple):
    """How the rules treat one kind of intent."""

    kind: type[Any]
    offered: Callable[[Loadout, str], Iterable[Intent]]
    """What the menu offers of it: against each enemy (given its id) when ``per_enemy``, else once
    (given "")."""
    per_enemy: bool
    aimed: bool
    """Aimed at a combatant, who must be standing and becomes the target (``target_chosen``)."""
    takes_weapon: Callable[[EnergionCombatant, Any], bool]
    """Whether it needs the first weapon readied (E1, E3) before it is carried out."""
    allowed: Callable[[Situation, Any, Any], bool]
    act: Callable[[Acting, Any], Process]


def _yes(live: EnergionCombatant, intent: Any) -> bool:
    return True


def _no(live: EnergionCombatant, intent: Any) -> bool:
    return False


def _the_first(live: EnergionCombatant, intent: ChangeWeapon) -> bool:
    return intent.index == live.weapon_index


def _attacks(loadout: Loadout, enemy: str) -> Iterable[Intent]:
    """The weapon in hand, then each martial arm (E13)."""
    yield Attack(target=enemy, reason="")
    yield from (Attack(target=enemy, arm=arm.index, reason="") for arm in loadout.arms if arm.martial)


def _casts(loadout: Loadout, enemy: str) -> Iterable[Intent]:
    return (Cast(spell=n, target=enemy, reason="") for n in range(len(loadout.spec.spells)))


def _changes(loadout: Loadout, enemy: str) -> Iterable[Intent]:
    for index in range(len(loadout.arms)):
        yield ChangeWeapon(index=index, method="drop_and_grab", reason="")
        yield ChangeWeapon(index=index, method="put_away", reason="")


REPERTOIRE: tuple[IntentRules, ...] = (
    IntentRules(
        kind=Attack,
        offered=_attacks,
        per_enemy=True,
        aimed=True,
        takes_weapon=_yes,
        allowed=legal.can_attack,
        act=actions.act_attack,
    ),
    IntentRules(
        kind=Approach,
        offered=lambda loadout, enemy: (Approach(target=enemy, reason=""),),
        per_enemy=True,
        aimed=True,
        takes_weapon=_no,
        allowed=legal.can_approach,
        act=actions.act_approach,
    ),
    IntentRules(
        kind=Charge,
        offered=lambda loadout, enemy: (Charge(target=enemy, reason=""),),
        per_enemy=True,
        aimed=True,
        takes_weapon=_yes,
        allowed=legal.can_charge,
        act=actions.act_approach,
    ),
    IntentRules(
        kind=Flee,
        offered=lambda loadout, enemy: (Flee(target=enemy, reason=""),),
        per_enemy=True,
        aimed=True,
        takes_weapon=_no,
        allowed=legal.can_flee,
        act=actions.act_flee,
    ),
    IntentRules(
        kind=Aim,
        offered=lambda loadout, enemy: (Aim(target=enemy, seconds=1, reason=""),),
        per_enemy=True,
        aimed=True,
        takes_weapon=_yes,
        allowed=legal.can_aim,
        act=actions.act_aim,
    ),
    IntentRules(
        kind=Grapple,
        offered=lambda loadout, enemy: (
            Grapple(procedure=p.name, target=enemy, reason="") for p in loadout.grapples
        ),
        per_enemy=True,
        aimed=True,
        takes_weapon=_no,
        allowed=legal.can_grapple,
        act=actions.act_grapple,
    ),
    IntentRules(
        kind=Cast,
        offered=lambda loadout, enemy: (
            Cast(spell=n, target=enemy, reason="") for n in range(len(loadout.spec.spells))
        ),
        per_enemy=True,
        aimed=False,  # at the spell's own target, which the spell checks (E23)
        takes_weapon=_no,
        allowed=legal.can_cast,
        act=actions.act_cast,
    ),
    IntentRules(
        kind=ChangeWeapon,
        offered=_changes,
        per_enemy=False,
        aimed=False,
        takes_weapon=_the_first,
        allowed=legal.can_change,
        act=actions.act_change_weapon,
    ),
    IntentRules(
        kind=Wait,
        offered=lambda loadout, enemy: (Wait(seconds=1, reason=""),),
        per_enemy=False,
        aimed=False,
        takes_weapon=_no,
        allowed=legal.always,
        act=actions.act_wait,
    ),
    IntentRules(
        kind=BreakHold,
        offered=lambda loadout, enemy: (BreakHold(reason=""),),
        per_enemy=False,
        aimed=False,
        takes_weapon=_no,
        allowed=legal.can_break_hold,
        act=actions.act_not_held,
    ),
    IntentRules(
        kind=Surrender,
        offered=lambda loadout, enemy: (Surrender(reason=""),),
        per_enemy=False,
        aimed=False,
        takes_weapon=_no,
        allowed=legal.always,
        act=actions.act_surrender,
    ),
)
"""Every intent, in the menu's order: against each enemy first, then those offered once."""

RULES_OF: Mapping[type[Any], IntentRules] = {rules.kind: rules for rules in REPERTOIRE}
"""Each kind of intent's rules."""


def menu(loadout: Loadout, enemies: tuple[str, ...]) -> tuple[Intent, ...]:
    """Every intent the combatant of ``loadout`` could be offered against ``enemies``, in a fixed order (a
    reinforcement-learning agent's actions): for each enemy, what :data:`REPERTOIRE` offers against it;
    then what it offers once. Reasons are left empty."""
    offered: list[Intent] = []
    for enemy in enemies:
        for rules in REPERTOIRE:
            if rules.per_enemy:
                offered.extend(rules.offered(loadout, enemy))
    for rules in REPERTOIRE:
        if not rules.per_enemy:
            offered.extend(rules.offered(loadout, ""))
    return tuple(offered)


def menu_for(loadouts: Mapping[str, Loadout], combatant: str) -> tuple[Intent, ...]:
    """The :func:`menu` of ``combatant`` against the combatants of the other sides, in file order."""
    loadout = loadouts[combatant]
    return menu(loadout, tuple(c for c, other in loadouts.items() if other.spec.side != loadout.spec.side))


def allowed(s: Situation, intent: Intent) -> bool:
    """Whether the rules would carry ``intent`` out now and it would do something (held, only breaking
    the hold: E15)."""
    if s.live.held_by is not None:
        return isinstance(intent, BreakHold)
    rules = RULES_OF[type(intent)]
    if not rules.aimed:
        return rules.allowed(s, intent, None)
    target = s.state.combatants.get(getattr(intent, "target", ""))
    return target is not None and not target.out and rules.allowed(s, intent, target)


def legal_now(acting: Acting) -> tuple[Intent, ...]:
    """The intents of the combatant's menu the rules would carry out now."""
    if acting.menu is None:
        acting.menu = menu_for(acting.battle.loadouts, acting.loadout.id)
    now = int(acting.encounter.now)
    situation = Situation(
        acting.loadout, acting.encounter.state, now, acting.battle.loadouts, acting.unreadied
    )
    return tuple(intent for intent in acting.menu if allowed(situation, intent))


def carry_out(acting: Acting, intent: Intent) -> Process:
    """Carry out ``intent``: what a held combatant may do, the intent's own process, or a refusal."""
    live = acting.live
    if live.held_by is not None:
        if isinstance(intent, BreakHold):
            yield from actions.break_hold(acting)
        else:
            reason = f"held by {live.held_by} ({live.hold}): it can only try to break the hold"
            yield acting.encounter.timeout(acting.refuse(type(intent).__name__.lower(), reason))
        return
    rules = RULES_OF[type(intent)]
    if acting.unreadied and rules.takes_weapon(live, intent):
        # a caster that did not cast first readies its weapon now (E1, E3), then acts
        yield from actions.ready_first_weapon(acting)
        if acting.stopped() or isinstance(intent, ChangeWeapon):
            return
    if rules.aimed:
        target = getattr(intent, "target", None)
        aimed_at = acting.encounter.state.combatants.get(target) if isinstance(target, str) else None
        if aimed_at is None or aimed_at.out:
            why = f"no combatant {target!r}" if aimed_at is None else f"{target} is out of the fight"
            yield acting.encounter.timeout(acting.refuse(intent.words(), why))
            return
        actions.choose_target(acting, intent)
    yield from rules.act(acting, intent)
