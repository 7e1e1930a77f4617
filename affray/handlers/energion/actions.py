"""Carrying out an Energion intent on the clock: one small process per kind of intent.

An intent the rules do not allow now is refused with an ``action_refused`` event, and the combatant waits
a second before it decides again. Intents aimed at a combatant record the target when it changes
(``target_chosen``, with the controller's reason).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from functools import partial
from typing import Any

from affray.events.energion.kinds import (
    AimStarted,
    IntentChosen,
    TargetChosen,
    Waited,
    WeaponChanged,
    WeaponReadied,
)
from affray.events.energion.state import WEAPON_ARM, EnergionCombatant
from affray.handlers.energion.attack import attack
from affray.handlers.energion.grapple import grapple, grapple_problem, next_escape_ms, try_to_break
from affray.handlers.energion.host import Arena, EnergionHost, Player
from affray.handlers.energion.loadout import Loadout
from affray.handlers.energion.movement import ESCAPE_DISTANCE, escaped, flee, move
from affray.handlers.energion.spells import cast, cast_problem, spell_views
from affray.handlers.energion.streak import Streak, begin_streak
from affray.handlers.energion.weapons import arm_views, change_time
from affray.handlers.outside import Offer, Outside, Reply
from affray.handlers.shared import refuse
from affray.handlers.special_damage.module import malfunction
from affray.kernel.clock import MS_PER_SECOND
from affray.kernel.space import distance, metres
from affray.npc.energion.intents import (
    Aim,
    Approach,
    Attack,
    BreakHold,
    Cast,
    ChangeWeapon,
    Charge,
    Controller,
    Flee,
    Grapple,
    Intent,
    Surrender,
    Wait,
)
from affray.npc.energion.view import View, seen
from affray.npc.field import watch_of
from affray.npc.outside import Chosen
from affray.rules.energion import ranged

Process = Generator[Any, Any, None]


class Acting:
    """One combatant acting: its encounter, battle, figures and live state, and what its controller sees."""

    def __init__(self, encounter: Arena, battle: EnergionHost, loadout: Loadout) -> None:
        self.encounter = encounter
        self.battle = battle
        self.loadout = loadout
        self.live: EnergionCombatant = encounter.state.combatants[loadout.id]
        self._own = battle.controllers[loadout.id]
        self.unreadied = True
        """Its first weapon has not had its battle initiative yet (E1, E3)."""
        self.step = metres(loadout.spec.move_rate)
        self._counted = any(arm.uses is not None for arm in loadout.arms)
        self._arms = arm_views(loadout, self.live)
        self._spells = spell_views(loadout)
        self._grapples = tuple(p.name for p in loadout.grapples)
        self._priority = tuple(loadout.spec.priority_targets)
        self._parries = bool(
            loadout.shield
            or loadout.martial_level
            or loadout.spec.parry
            or any(a.weapon.parry for a in loadout.arms)
        )
        self._field = watch_of(encounter)
        self._look = partial(_look, encounter.state.combatants)
        self.menu: tuple[Intent, ...] | None = None
        """Every intent it could be offered (:func:`.repertoire.menu`), worked out when first asked."""
        self._decided: tuple[tuple[Any, ...], Intent | None] | None = None

    @property
    def controller(self) -> Player:
        """Who plays it now: its own controller, or a standing order's."""
        return self.battle.orders.controller(self.loadout.id, int(self.encounter.now), self._own)

    def ask_outside(
        self, outside: Outside, legal: Callable[[], tuple[Intent, ...]]
    ) -> Generator[Any, Any, Intent | None]:
        """Ask the battle's decisions for this combatant's next intent, offering what ``legal`` gives, and
        record the answer (``intent_chosen``); an answer awaited from outside the run is yielded for."""
        decisions = self.battle.decisions[self.loadout.id]
        asked = decisions.ask(self.encounter, self.loadout.id, Offer(self.view, legal))
        made: Chosen = (yield asked) if isinstance(asked, Reply) else asked
        self.encounter.emit(
            IntentChosen(
                combatant=self.loadout.id, controller=outside.name, intent=made.intent, scores=made.scores
            )
        )
        return made.intent  # type: ignore[no-any-return]

    def stopped(self) -> bool:
        """The encounter is over, or this combatant is out."""
        return self.encounter.state.ended or self.live.out

    def view(self) -> View:
        """What the controller sees now: frozen copies, never the live state."""
        if self._counted:
            self._arms = arm_views(self.loadout, self.live)
        return View(
            me=seen(self.live),
            arms=self._arms,
            field=self._field.roster(),
            now=int(self.encounter.now),
            look=self._look,
            spells=self._spells,
            grapples=self._grapples,
            pace=self.step,
            parries=self._parries,
            priority=self.battle.orders.priority(self.loadout.id, int(self.encounter.now), self._priority),
        )

    def decide(self, controller: Controller) -> Intent | None:
        """The controller's intent now. One that decides by the field alone (``steady``: the roster, its
        own hold, readiness and weapons, and its orders' targets) is asked again only when one of those has
        changed, or a timed condition has run out."""
        if not getattr(controller, "steady", False):
            return controller.decide(self.view())
        live, now = self.live, int(self.encounter.now)
        roster = self._field.roster()
        key = (
            controller,
            roster.version if roster.steady(now) else None,
            live.held_by,
            live.readied,
            live.weapon_ready,
            live.weapon_index,
            tuple(live.used.items()) if self._counted else (),
            self.battle.orders.priority(self.loadout.id, now, self._priority),
        )
        decided = self._decided
        if decided is not None and decided[0] == key and key[1] is not None:
            return decided[1]
        intent = controller.decide(self.view())
        self._decided = (key, intent)
        return intent

    def streak(self, intent: Attack, checked: int, gap_ms: int, struck_at: int) -> Streak | None:
        """The attack made with ``intent`` at ``struck_at`` (ms), struck again while nothing changes
        (:mod:`.streak`), if its controller's answer is kept (``decide``): until a timed condition on the
        field runs out or a standing order for it is due. ``checked``: ``Encounter.changes`` when it was
        checked."""
        decided, controller = self._decided, self.controller
        if decided is None or decided[1] is not intent or decided[0][0] is not controller:
            return None
        if decided[0][1] is None or not getattr(controller, "steady", False):
            return None
        moments = (
            self._field.roster().steady_until,
            self.battle.orders.next_after(self.loadout.id, struck_at),
        )
        due = [moment for moment in moments if moment is not None]
        until = min(due) if due else None
        return begin_streak(self.encounter, self.battle, self.loadout, intent, checked, gap_ms, until)

    def refuse(self, action: str, reason: str) -> int:
        """Record the refusal; the ms the combatant then waits before it decides again."""
        return refuse(self.encounter, self.loadout.id, action, reason)


def _look(combatants: dict[str, EnergionCombatant], combatant: str) -> Any:
    return seen(combatants[combatant])


def ready_first_weapon(acting: Acting) -> Process:
    """Rules E1, E3: battle initiative: the first weapon's readiness time, then it is ready (in hand 0 s, at
    hand its modified speed, unready its modified initiative); with the weapon arm unusable, it is not."""
    loadout, encounter = acting.loadout, acting.encounter
    first = loadout.arms[0]
    acting.unreadied = False
    yield encounter.ahead(first.readiness_ms)  # ready before the actions due at that instant (ruling 16)
    if acting.stopped():
        return
    if WEAPON_ARM in acting.live.disabled:
        acting.refuse("ready weapon", "its weapon arm is unusable")
        return
    encounter.emit(
        WeaponReadied(
            combatant=loadout.id,
            weapon=first.weapon.name,
            readiness=first.carried.readiness,
            chart_initiative=first.weapon.initiative,
            chart_speed=first.weapon.speed,
            speed_adjustment=first.speed_adjustment,
            initiative_ms=first.readiness_ms,
            speed_ms=first.speed_ms,
        )
    )


def break_hold(acting: Acting) -> Process:
    """Rule E15: roll to break the hold, at most once a second; then the second is spent."""
    encounter, live = acting.encounter, acting.live
    wait = next_escape_ms(live) - int(encounter.now)
    if wait > 0:
        yield encounter.timeout(wait)
        if acting.stopped() or live.held_by is None:
            return
    try_to_break(encounter, acting.battle, acting.loadout, live)
    yield encounter.timeout(MS_PER_SECOND)


def choose_target(acting: Acting, intent: Any) -> None:
    """Record a new target, with the controller's reason."""
    live = acting.live
    if live.target == intent.target:
        return
    controller = acting.controller
    target = acting.encounter.state.combatants[intent.target]
    acting.encounter.emit(
        TargetChosen(
            combatant=acting.loadout.id,
            target=intent.target,
            controller=controller.name,
            reason=intent.reason,
            distance=distance(live.position, target.position),
        )
    )


def act_not_held(acting: Acting, intent: BreakHold) -> Process:
    """Refuse to break a hold it is not in."""
    yield acting.encounter.timeout(acting.refuse("break a hold", "it is not held"))


def act_cast(acting: Acting, intent: Cast) -> Process:
    """Rule E23: begin the spell, or refuse it."""
    problem = cast_problem(acting.loadout, acting.live, acting.encounter.state, intent)
    if problem:
        yield acting.encounter.timeout(acting.refuse(f"cast spell {intent.spell}", problem))
    else:
        yield from cast(acting.encounter, acting.battle, acting.loadout, acting.live, intent)


def act_surrender(acting: Acting, intent: Surrender) -> Process:
    """It gives up the fight and is out (ruling 48)."""
    acting.battle.put_out(acting.encounter, acting.loadout.id, f"surrendered: {intent.reason}")
    yield acting.encounter.timeout(0)


def act_wait(acting: Acting, intent: Wait) -> Process:
    """Hold its position for the seconds chosen (at least one)."""
    seconds = max(intent.seconds, 1)
    acting.encounter.emit(Waited(combatant=acting.loadout.id, seconds=seconds, reason=intent.reason))
    yield acting.encounter.timeout(seconds * MS_PER_SECOND)


def act_change_weapon(acting: Acting, intent: ChangeWeapon) -> Process:
    """Rule E3: take up another carried weapon, after the time the change takes."""
    loadout, live = acting.loadout, acting.live
    took = change_time(loadout, live, intent)
    if isinstance(took, str):
        yield acting.encounter.timeout(acting.refuse(f"change to weapon {intent.index}", took))
        return
    yield acting.encounter.timeout(took)
    if acting.stopped():
        return
    acting.encounter.emit(
        WeaponChanged(
            combatant=loadout.id,
            from_weapon=live.weapon if live.weapon_ready else None,
            to_weapon=loadout.arms[intent.index].weapon.name,
            to_index=intent.index,
            method=intent.method,
            took_ms=took,
        )
    )


def act_flee(acting: Acting, intent: Flee) -> Process:
    """A second's run away from the target; far enough from every enemy, it has left the fight."""
    encounter = acting.encounter
    yield encounter.timeout(MS_PER_SECOND)
    if acting.stopped():
        return
    flee(encounter, acting.loadout, acting.live, encounter.state.combatants[intent.target], acting.step)
    if escaped(encounter.state, acting.live):
        acting.battle.put_out(
            encounter, acting.loadout.id, f"fled: {ESCAPE_DISTANCE} m or more from every enemy"
        )


def act_approach(acting: Acting, intent: Approach | Charge) -> Process:
    """A second's move toward the target; a charger arriving within reach strikes at once (E21)."""
    encounter, loadout, live = acting.encounter, acting.loadout, acting.live
    yield encounter.timeout(MS_PER_SECOND)
    if acting.stopped():
        return
    target = encounter.state.combatants[intent.target]
    move(encounter, loadout, live, target, acting.step)
    arm = loadout.arms[live.weapon_index]
    arrived = distance(live.position, target.position) <= arm.reach
    if isinstance(intent, Charge) and arm.mode == "melee" and arrived and not target.out:
        # E21: arriving at a run, the charger strikes at once with the speed of the charge.
        now = int(encounter.now)
        speed = ranged.relative_speed(live.velocity_at(now), target.velocity_at(now))
        strike = Attack(target=target.id, reason=intent.reason)
        yield encounter.timeout(attack(encounter, acting.battle, loadout, live, strike, charge_speed=speed))


def act_aim(acting: Acting, intent: Aim) -> Process:
    """Rule E17: hold still, aiming a ready missile or hurled weapon, for the seconds chosen."""
    loadout, live = acting.loadout, acting.live
    arm = loadout.arms[live.weapon_index]
    if not (arm.ranged and live.weapon_ready):
        reason = f"{arm.weapon.name} is not a ready missile or hurled weapon"
        yield acting.encounter.timeout(acting.refuse(f"aim at {intent.target}", reason))
        return
    if live.aim_target != intent.target:
        acting.encounter.emit(AimStarted(combatant=loadout.id, target=intent.target, weapon=arm.weapon.name))
    yield acting.encounter.timeout(max(intent.seconds, 1) * MS_PER_SECOND)


def act_attack(acting: Acting, intent: Attack) -> Process:
    """Strike or shoot (or be refused); a plain blow is then struck again while nothing changes (its
    streak is begun only if nothing has changed by its next strike: in a skirmish, most never strike)."""
    encounter = acting.encounter
    changes, struck_at = encounter.changes, int(encounter.now)
    gap_ms = attack(encounter, acting.battle, acting.loadout, acting.live, intent)
    yield encounter.timeout(gap_ms)
    if encounter.changes != changes:
        return
    kept = acting.streak(intent, changes, gap_ms, struck_at)
    while kept is not None and kept.holds():
        yield encounter.timeout(kept.strike())


def act_grapple(acting: Acting, intent: Grapple) -> Process:
    """Rule E15: try the grappling procedure, or refuse it."""
    encounter = acting.encounter
    target = encounter.state.combatants[intent.target]
    # S5 (ruling 8): a damaged robot's malfunction is rolled before each of its attacks, a procedure too
    problem = malfunction(encounter, acting.live) or grapple_problem(
        acting.loadout, acting.live, target, intent
    )
    if problem:
        yield encounter.timeout(acting.refuse(f"{intent.procedure} {intent.target}", problem))
    else:
        yield encounter.timeout(grapple(encounter, acting.battle, acting.loadout, intent))
