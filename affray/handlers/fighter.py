"""A combatant's life on the clock as one SimPy process: perceive, react, ready, then act (rule E1).

Each action is timed by its rule: an attack is followed by the weapon's modified speed (E1), aiming holds
still for the seconds chosen (E17), changing weapons takes its E3 time, a move lasts one second. An intent
the rules do not allow now is refused with an ``action_refused`` event, and the combatant waits a second.
"""

from __future__ import annotations

from collections.abc import Generator
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from affray.events.kinds import (
    ActionRefused,
    AimStarted,
    Perceived,
    Reacted,
    StoodUp,
    TargetChosen,
    Waited,
    WeaponChanged,
    WeaponReadied,
)
from affray.events.special import CheckRolled
from affray.handlers.attack import aim_shot, resolve_attack, velocity_now
from affray.handlers.grapple import grapple, grapple_problem, keep_hold, try_to_break
from affray.handlers.loadout import Arm, Loadout
from affray.handlers.movement import ESCAPE_DISTANCE, escaped, flee, move
from affray.handlers.spells import cast, cast_problem, spell_views
from affray.handlers.weapons import arm_views, change_time
from affray.kernel.clock import MS_PER_SECOND
from affray.kernel.encounter import Encounter
from affray.kernel.space import distance, metres
from affray.kernel.state import CombatantState
from affray.npc.intents import (
    Aim,
    Approach,
    Attack,
    BreakHold,
    Cast,
    ChangeWeapon,
    Charge,
    Flee,
    Grapple,
    View,
    Wait,
)
from affray.rules.energion import close_combat, ranged

if TYPE_CHECKING:
    from affray.handlers.battle import Battle

Process = Generator[Any, Any, None]

STAND_UP_MS = MS_PER_SECOND
"""A knocked-down combatant takes a second to get up (a ruling: the text gives no time)."""
MARTIAL_GAP_MS = MS_PER_SECOND // close_combat.MAX_ATTACKS_PER_SECOND


def fighter(encounter: Encounter, battle: Battle, me: Loadout, perceive_after_ms: int) -> Process:
    """Run one combatant from its perception to the end of the encounter or of itself. Its perception
    roll is in its ``combatant_joined``, its reaction roll in its ``perceived``: logged when rolled."""
    state = encounter.state
    mine = state.combatants[me.id]

    def stopped() -> bool:
        return state.ended or mine.out

    yield encounter.timeout(perceive_after_ms)
    if stopped():
        return
    if me.spec.prepared:
        reaction_ms, reaction_roll = 0, None
    else:
        reaction_ms, reaction_roll = battle.duration(encounter, me.id, "reaction", me.spec.reaction)
    encounter.emit(Perceived(combatant=me.id, after_ms=perceive_after_ms, reaction_roll=reaction_roll))
    if not me.spec.prepared:
        yield encounter.timeout(reaction_ms)
        if stopped():
            return
    encounter.emit(Reacted(combatant=me.id, reaction_ms=reaction_ms, prepared=me.spec.prepared))

    first = me.arms[0]
    yield encounter.timeout(first.readiness_ms)
    if stopped():
        return
    if "right arm" in mine.disabled:
        encounter.emit(
            ActionRefused(combatant=me.id, action="ready weapon", reason="its weapon arm is unusable")
        )
    else:
        _ready(encounter, me, first)
    yield from _act(encounter, battle, me, mine)


def _ready(encounter: Encounter, me: Loadout, first: Arm) -> None:
    """Rule E3: battle initiative has run; the first weapon is ready."""
    encounter.emit(
        WeaponReadied(
            combatant=me.id,
            weapon=first.weapon.name,
            readiness=first.carried.readiness,
            chart_initiative=first.weapon.initiative,
            chart_speed=first.weapon.speed,
            speed_adjustment=first.speed_adjustment,
            initiative_ms=first.readiness_ms,
            speed_ms=first.speed_ms,
        )
    )


def _act(encounter: Encounter, battle: Battle, me: Loadout, mine: CombatantState) -> Process:
    """Ask the controller for intents and carry them out until the encounter or the combatant ends."""
    state = encounter.state

    def stopped() -> bool:
        return state.ended or mine.out

    controller = battle.controllers[me.id]
    step = metres(me.spec.move_rate)
    counted = any(arm.uses is not None for arm in me.arms)
    arms = arm_views(me, mine)
    spells = spell_views(me)
    grapples = tuple(p.name for p in me.grapples)
    priority = tuple(me.spec.priority_targets)
    parries = bool(me.shield or me.martial_level or me.spec.parry or any(a.weapon.parry for a in me.arms))
    while not stopped():
        if mine.deactivated:
            return
        now = int(encounter.now)
        if mine.incapacitated(now):
            # S4, S5: unconscious or stunned: nothing until it comes round (condition_ended).
            yield encounter.timeout(max(mine.unconscious_until_ms or 0, mine.stunned_until_ms or 0) - now)
            continue
        if mine.holding is not None:
            # E15: a holder keeps its hold, second by second, until the hold is broken.
            yield encounter.timeout(MS_PER_SECOND)
            if not stopped():
                keep_hold(encounter, battle, me, mine)
            continue
        if mine.knocked_down and mine.held_by is None:
            yield encounter.timeout(STAND_UP_MS)
            if not stopped():
                encounter.emit(StoodUp(combatant=me.id, took_ms=STAND_UP_MS))
            continue
        if counted:
            arms = arm_views(me, mine)
        intent = controller.decide(
            View(
                me=mine,
                arms=arms,
                state=state,
                now=int(encounter.now),
                spells=spells,
                grapples=grapples,
                pace=step,
                parries=parries,
                priority=priority,
            )
        )
        if intent is None:
            return
        if mine.held_by is not None:
            if isinstance(intent, BreakHold):
                try_to_break(encounter, battle, me, mine)
                yield encounter.timeout(MS_PER_SECOND)
            else:
                reason = f"held by {mine.held_by} ({mine.hold}): it can only try to break the hold"
                yield encounter.timeout(_refuse(encounter, me.id, type(intent).__name__.lower(), reason))
            continue
        if isinstance(intent, BreakHold):
            yield encounter.timeout(_refuse(encounter, me.id, "break a hold", "it is not held"))
            continue
        if isinstance(intent, Cast):
            problem = cast_problem(me, mine, state, intent)
            if problem:
                yield encounter.timeout(_refuse(encounter, me.id, f"cast spell {intent.spell}", problem))
            else:
                yield from cast(encounter, battle, me, mine, intent)
            continue
        if isinstance(intent, Wait):
            encounter.emit(Waited(combatant=me.id, seconds=max(intent.seconds, 1), reason=intent.reason))
            yield encounter.timeout(max(intent.seconds, 1) * MS_PER_SECOND)
            continue
        if isinstance(intent, ChangeWeapon):
            took = change_time(me, mine, intent)
            if isinstance(took, str):
                yield encounter.timeout(_refuse(encounter, me.id, f"change to weapon {intent.index}", took))
                continue
            yield encounter.timeout(took)
            if stopped():
                return
            encounter.emit(
                WeaponChanged(
                    combatant=me.id,
                    from_weapon=mine.weapon if mine.weapon_ready else None,
                    to_weapon=me.arms[intent.index].weapon.name,
                    to_index=intent.index,
                    method=intent.method,
                    took_ms=took,
                )
            )
            continue
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
        if isinstance(intent, Flee):
            yield encounter.timeout(MS_PER_SECOND)
            if stopped():
                return
            flee(encounter, me, mine, target, step)
            if escaped(state, mine):
                battle.put_out(encounter, me.id, f"fled: {ESCAPE_DISTANCE} m or more from every enemy")
            continue
        if isinstance(intent, Approach | Charge):
            yield encounter.timeout(MS_PER_SECOND)
            if stopped():
                return
            move(encounter, me, mine, target, step)
            arm = me.arms[mine.weapon_index]
            arrived = distance(mine.position, target.position) <= arm.reach
            if isinstance(intent, Charge) and arm.mode == "melee" and arrived and not target.out:
                # E21: arriving at a run, the charger strikes at once with the speed of the charge.
                now = int(encounter.now)
                speed = ranged.relative_speed(velocity_now(mine, now), velocity_now(target, now))
                strike = Attack(target=target.id, reason=intent.reason)
                yield encounter.timeout(_attack(encounter, battle, me, mine, strike, charge_speed=speed))
        elif isinstance(intent, Aim):
            arm = me.arms[mine.weapon_index]
            if not (arm.ranged and mine.weapon_ready):
                reason = f"{arm.weapon.name} is not a ready missile or hurled weapon"
                yield encounter.timeout(_refuse(encounter, me.id, f"aim at {intent.target}", reason))
                continue
            if mine.aim_target != intent.target:
                encounter.emit(
                    AimStarted(
                        combatant=me.id, target=intent.target, weapon=me.arms[mine.weapon_index].weapon.name
                    )
                )
            yield encounter.timeout(max(intent.seconds, 1) * MS_PER_SECOND)
        elif isinstance(intent, Attack):
            yield encounter.timeout(_attack(encounter, battle, me, mine, intent))
        elif isinstance(intent, Grapple):
            problem = grapple_problem(me, mine, target, intent)
            if problem:
                yield encounter.timeout(
                    _refuse(encounter, me.id, f"{intent.procedure} {intent.target}", problem)
                )
            else:
                yield encounter.timeout(grapple(encounter, battle, me, intent))


def _attack(
    encounter: Encounter,
    battle: Battle,
    me: Loadout,
    mine: CombatantState,
    intent: Attack,
    *,
    charge_speed: Decimal | None = None,
) -> int:
    """Strike or shoot, or refuse what cannot be done; return how long until the next action (E1's gap)."""
    arm = me.arms[mine.weapon_index]
    defender = battle.loadouts[intent.target]
    action = f"attack {intent.target}"
    picked = me.arms[intent.arm] if intent.arm is not None and 0 <= intent.arm < len(me.arms) else None
    if picked is not None and picked.martial and arm.martial:
        arm = picked
    spent = arm.uses is not None and mine.used.get(str(arm.index), 0) >= arm.uses
    malfunction = sum(injury.malfunction_chance for injury in mine.injuries) if mine.injuries else 0
    if malfunction:
        # S5: a damaged robot's systems may fail it, action by action.
        check = encounter.dice.roll(me.id, "malfunction", "1d100")
        encounter.emit(
            CheckRolled(
                combatant=me.id,
                check="malfunction",
                roll=check,
                chance=Decimal(malfunction),
                under=check.total <= malfunction,
            )
        )
        if check.total <= malfunction:
            return _refuse(encounter, me.id, action, f"malfunction: {check.total} within {malfunction}%")
    if mine.injuries and not arm.ranged and any(injury.no_melee for injury in mine.injuries):
        return _refuse(encounter, me.id, action, "its damage allows no melee attack")
    if arm.martial == "kick":
        if "right leg" in mine.disabled or "left leg" in mine.disabled:
            return _refuse(encounter, me.id, action, "a kick needs both legs")
    elif "right arm" in mine.disabled:
        return _refuse(encounter, me.id, action, "its weapon arm is unusable")
    if not mine.weapon_ready or spent:
        return _refuse(encounter, me.id, action, f"no usable weapon in hand ({arm.weapon.name})")
    shot = None
    if arm.ranged:
        aimed = aim_shot(encounter, me, arm, defender)
        if isinstance(aimed, str):
            return _refuse(encounter, me.id, action, aimed)
        shot = aimed
    else:
        gap = distance(mine.position, encounter.state.combatants[intent.target].position)
        if gap > arm.reach:
            return _refuse(
                encounter, me.id, action, f"{intent.target} is {gap} m away, beyond reach {arm.reach} m"
            )
    recovery = None
    if arm.martial and mine.kicked_ms is not None and encounter.now - mine.kicked_ms < MS_PER_SECOND:
        # E13: the second after a kick is recovery: punches only, each needing an AGbonus roll.
        if arm.martial == "kick":
            return _refuse(encounter, me.id, action, "recovering from a kick: punches only this second")
        recovery = encounter.dice.roll(me.id, "recovery", "1d100")
        if recovery.total > me.ag_bonus:
            encounter.emit(
                CheckRolled(
                    combatant=me.id,
                    check="kick recovery (AGbonus)",
                    roll=recovery,
                    chance=me.ag_bonus,
                    under=False,
                )
            )
            reason = f"recovering from a kick: AGbonus roll {recovery.total} over {me.ag_bonus}"
            return _refuse(encounter, me.id, action, reason)
    event = encounter.emit(
        resolve_attack(
            encounter,
            me,
            arm,
            defender,
            shot,
            locations=battle.locations,
            subdue=me.spec.subdue or intent.subdue,
            recovery_roll=recovery,
            charge_speed=charge_speed,
        )
    )
    battle.after_attack(encounter, event, me, arm)
    # E13: a martial artist attacks at most twice in any second.
    return max(arm.speed_ms, MARTIAL_GAP_MS) if arm.martial else arm.speed_ms


def _refuse(encounter: Encounter, combatant: str, action: str, reason: str) -> int:
    """Record the refusal; the combatant then waits a second before it decides again."""
    encounter.emit(ActionRefused(combatant=combatant, action=action, reason=reason))
    return MS_PER_SECOND
