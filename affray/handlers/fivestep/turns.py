"""A character's turn on the clock (rules F3, F7): its Agility Points, cut into sub-turns when the scenario
says, spent on declared actions, each ending 0.5 s per 10 % of the points after its piece began.

A turn starts at the round's first instant, like everyone's. In each piece the character declares its
actions from what it sees then; the points a piece leaves unspent carry to the turn's next piece. Points
borrowed (3 for 1) are owed by the next turn, which may become a no-move turn.
"""

from __future__ import annotations

from collections.abc import Generator
from decimal import Decimal
from typing import Any, Literal

from affray.events.fivestep.kinds import ActionTaken, ApBorrowed, TurnStarted
from affray.events.fivestep.state import FivestepCombatant
from affray.events.shared import ActionRefused, Moved
from affray.handlers.fivestep.asked import asked_steps
from affray.handlers.fivestep.fighters import Arm, Fighter
from affray.handlers.fivestep.host import Arena, FivestepHost, Player
from affray.handlers.fivestep.strike import strike
from affray.handlers.outside import Outside
from affray.handlers.special_damage.module import malfunction
from affray.kernel.space import approach, distance, step_toward
from affray.npc.field import FieldWatch, contact_of
from affray.npc.fivestep.controllers import (
    Advance,
    ArmOption,
    Borrow,
    Step,
    Strike,
    TurnView,
)
from affray.rules.fivestep.hitting import WEAPONRY_MIN_M
from affray.rules.fivestep.sequence import ROUND_MS, TurnAP, borrow, sub_turns, time_for_ap

Process = Generator[Any, Any, None]
PIECE_RANK = 1_000_000
"""Pieces begin after every action that ends at the same instant (ranks of actions are smaller)."""
LAST_RANK = 2 * PIECE_RANK
"""The time limit comes after every action and piece due at its instant."""


def _rank(side_place: int, fighter: Fighter) -> int:
    """Actions ending at one instant go in the order of primary attack, then file order (a ruling)."""
    return side_place * 1000 + fighter.rank


def _barred(live: FivestepCombatant, arm: Arm) -> str:
    """Why the weapon cannot be used at all ("" when it can): destroyed (S3), or an injury forbidding
    melee (S4)."""
    spec = arm.spec
    if spec.name in live.special.destroyed_weapons:
        return f"its {spec.name} was destroyed"
    if spec.combat == "hand_to_hand" and live.special.no_melee():
        return "an injury: no melee"
    return ""


def _uses_left(live: FivestepCombatant, arm: Arm) -> int | None:
    """Shots or grenades left (None when not counted, ruling 49); 0 when it is barred."""
    spec = arm.spec
    if _barred(live, arm):
        return 0
    if spec.combat == "grenade":
        return spec.count - live.used.get(spec.name, 0)
    if spec.combat == "weaponry" and spec.ammunition is not None:
        return spec.ammunition - live.used.get(spec.name, 0)
    return None


def _unusable(live: FivestepCombatant, arm: Arm) -> str:
    """Why the weapon cannot be used now ("" when it can): barred, or nothing left to shoot or throw."""
    left = _uses_left(live, arm)
    if left is None or left > 0:
        return ""
    return _barred(live, arm) or f"no {arm.spec.name} shots or throws left"


def arm_options(encounter: Arena, fighter: Fighter) -> tuple[ArmOption, ...]:
    """The character's weapons as its controller sees them, with what is left of each."""
    live = encounter.state.combatants[fighter.id]
    options = []
    for arm in fighter.arms:
        spec = arm.spec
        left = _uses_left(live, arm)
        options.append(
            ArmOption(
                index=arm.index,
                name=spec.name,
                combat=spec.combat,
                cost=arm.cost,
                reach_m=arm.reach_m,
                uses_left=left,
                blast_m=Decimal(str(spec.blast_m)),
                min_m=WEAPONRY_MIN_M if spec.combat == "weaponry" else Decimal(0),
            )
        )
    return tuple(options)


def turn(
    encounter: Arena,
    battle: FivestepHost,
    fighter: Fighter,
    round_number: int,
    start: int,
    side_place: int,
    watch: FieldWatch,
) -> Process:
    """Rules F3, F7: the character's turn of this round, piece by piece; ``watch`` shows its controller the
    field."""
    state = encounter.state
    live = state.combatants[fighter.id]
    owed = live.turn.borrowed if live.turn is not None else 0
    total = fighter.points - owed
    pieces = sub_turns(total, battle.options.sub_turns)
    rank = _rank(side_place, fighter)
    carried = 0
    for number, piece in enumerate(pieces, start=1):
        begin = start + piece.start_ms
        if number > 1:
            yield encounter.at_rank(begin - int(encounter.now), PIECE_RANK + rank)
        if state.ended or live.incapacitated(int(encounter.now)):
            return
        available = carried + piece.ap
        encounter.emit(
            TurnStarted(
                combatant=fighter.id,
                round=round_number,
                piece=number,
                pieces=len(pieces),
                agility=fighter.points,
                available=available,
                owed=owed if number == 1 else 0,
                no_move=total == 0,
                end_ms=start + piece.end_ms,
            )
        )
        if total == 0:
            return
        length = piece.end_ms - piece.start_ms
        over = yield from _piece(encounter, battle, fighter, watch, (start, begin, length), rank)
        if over:
            return
        carried = live.turn.available if live.turn is not None else 0


def _piece(
    encounter: Arena,
    battle: FivestepHost,
    fighter: Fighter,
    watch: FieldWatch,
    when: tuple[int, int, int],
    rank: int,
) -> Generator[Any, Any, bool]:
    """Rule F7: one piece of a turn (``when``: the round's start, the piece's and its length, ms): the
    controller's steps, each carried out when the points spent so far take their time (within the piece
    and the round); a fallen target is declared again, once. True when the turn is over (the encounter
    ended, or the character cannot act)."""
    round_start, begin, length_ms = when
    state = encounter.state
    live = state.combatants[fighter.id]
    spent = 0
    steps = yield from _declare(encounter, battle, fighter, watch)
    redeclared = False
    while steps:
        step = steps.pop(0)
        if not isinstance(step, Borrow) and state.combatants[step.target].incapacitated(int(encounter.now)):
            if redeclared:
                break  # a controller that keeps naming the fallen has nothing more to do
            steps = yield from _declare(encounter, battle, fighter, watch)
            redeclared = True
            continue
        redeclared = False
        if isinstance(step, Borrow):
            _borrow(encounter, fighter, live, step)
            continue
        assert live.turn is not None
        if step.cost > live.turn.available:
            break
        spent += step.cost
        elapsed = min(time_for_ap(spent, fighter.points), length_ms, ROUND_MS)
        due = begin + elapsed
        if due > encounter.now:
            yield encounter.at_rank(due - int(encounter.now), rank)
        if state.ended or live.incapacitated(int(encounter.now)):
            return True
        _act(encounter, battle, fighter, step, elapsed, live.turn.available - step.cost, round_start)
    return False


def _borrow(encounter: Arena, fighter: Fighter, live: FivestepCombatant, step: Borrow) -> None:
    """Rule F7 (borrowing, an option): points of the next turn taken into this one."""
    assert live.turn is not None
    after = borrow(
        TurnAP(agility=fighter.points, available=live.turn.available, borrowed=live.turn.borrowed),
        step.points,
    )
    encounter.emit(
        ApBorrowed(
            combatant=fighter.id,
            points=step.points,
            gained=after.available - live.turn.available,
            next_turn_left=fighter.points - after.borrowed,
            reason=step.reason,
        )
    )


def _declare(
    encounter: Arena, battle: FivestepHost, fighter: Fighter, watch: FieldWatch
) -> Generator[Any, Any, list[Step]]:
    """The controller's plan from what the character sees now, with the points it has left (asked step
    by step of a controller from outside affray). A character whose target falls before a declared
    action begins declares again (a ruling)."""
    live = encounter.state.combatants[fighter.id]
    assert live.turn is not None
    lend = 0
    # Borrowing only in a turn's last piece: earlier pieces' points still come (ruling 38).
    if battle.options.borrowing and fighter.spec.borrows and live.turn.piece == live.turn.pieces:
        lend = fighter.points - live.turn.borrowed
    view = TurnView(
        me=contact_of(live),
        field=watch.roster(),
        now=int(encounter.now),
        arms=arm_options(encounter, fighter),
        available=live.turn.available,
        move_cost=fighter.move_cost,
        step_m=fighter.step_m,
        can_borrow=lend,
        can_move=not live.special.cannot_move(),
        priority=battle.orders.priority(fighter.id, int(encounter.now), tuple(fighter.spec.priority_targets)),
    )
    player = playing(encounter, battle, fighter.id)
    if isinstance(player, Outside):
        return (yield from asked_steps(encounter, battle, fighter, view, player))
    return player.plan(view)


def _act(
    encounter: Arena,
    battle: FivestepHost,
    fighter: Fighter,
    step: Advance | Strike,
    elapsed: int,
    left: int,
    round_start: int,
) -> None:
    """Spend the step's points (``action_taken``) and do it: move, attack or throw. A robot's malfunction
    (rule S5) or an injury that forbids the action (S4) wastes the points."""
    procedure = battle.procedures.action
    live = encounter.state.combatants[fighter.id]
    if isinstance(step, Advance):
        name = fighter.move_action
        purpose: Literal["move", "attack", "throw"] = "move"
        times = step.cost // fighter.move_cost
    else:
        arm = fighter.arms[step.arm]
        name = arm.spec.action if procedure == 2 else "attack"
        purpose = "throw" if arm.spec.combat == "grenade" else "attack"
        times = 1
    encounter.emit(
        ActionTaken(
            combatant=fighter.id,
            procedure=procedure,
            action=name,
            purpose=purpose,
            times=times,
            cost=step.cost,
            available=left,
            elapsed_ms=elapsed,
            controller=playing(encounter, battle, fighter.id).name,
            reason=step.reason,
        )
    )
    problem = _forbidden(encounter, fighter, step)
    if problem:
        encounter.emit(ActionRefused(combatant=fighter.id, action=purpose, reason=problem))
        return
    if isinstance(step, Advance):
        there = encounter.state.combatants[step.target].position
        end = step_toward(live.position, approach(live.position, there, step.stop_m), step.metres)
        if end != live.position:
            encounter.emit(
                Moved(
                    combatant=fighter.id,
                    toward=step.target,
                    start=live.position,
                    end=end,
                    distance=distance(live.position, end),
                )
            )
        return
    strike(encounter, battle, fighter, fighter.arms[step.arm], step.target, round_start)


def _forbidden(encounter: Arena, fighter: Fighter, step: Advance | Strike) -> str:
    """Why the step comes to nothing now ("" when it does not): its target already fell, an injury
    forbids it (S4), the weapon was destroyed (S3), or a robot malfunctions (S5)."""
    live = encounter.state.combatants[fighter.id]
    if isinstance(step, Advance):
        return "an injury: it cannot move" if live.special.cannot_move() else ""
    target = encounter.state.combatants[step.target]
    if target.incapacitated(int(encounter.now)):
        return f"{step.target} is already out"
    arm = fighter.arms[step.arm]
    unusable = _unusable(live, arm)
    if unusable:
        return unusable
    gap = distance(live.position, target.position)
    if arm.spec.combat == "grenade" and gap > arm.reach_m:
        return f"{step.target} is {gap} m away, beyond a throw of {arm.reach_m} m (Table 3-4.0)"
    return malfunction(encounter, live)


def playing(encounter: Arena, battle: FivestepHost, character: str) -> Player:
    """Who plays ``character`` now: its own controller, or a standing order's."""
    return battle.orders.controller(character, int(encounter.now), battle.controllers[character])
