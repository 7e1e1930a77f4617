"""Fivestep controllers: at the start of a turn (or sub-turn) a character declares its actions (rule F7).

Every character starts moving at the same instant (F3) and its declared actions play out over the turn:
a character that runs at where its target stood may find it gone. The plan is made from what the
character sees when it declares, and carries the reason for every step.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, Decimal
from typing import Literal, Protocol

__all__ = [
    "Advance",
    "ArmOption",
    "Borrow",
    "FivestepController",
    "NearestFirst",
    "Step",
    "Strike",
    "TurnView",
    "choose_arm",
]

import msgspec

from affray.events.fivestep.steps import Advance, Borrow, Step, Strike
from affray.kernel.space import approach, distance
from affray.npc.field import Contact, Roster
from affray.npc.targeting import TargetMemory

CLOSE_IN_M = Decimal(2)
"""A hand-to-hand attacker closes to 2 m, inside the 3 m reach (F1), leaving room for the target's step."""


class ArmOption(msgspec.Struct, frozen=True, kw_only=True):
    """What a character knows of one of its weapons: what it costs, how far it reaches, what is left."""

    index: int
    name: str
    combat: Literal["hand_to_hand", "weaponry", "grenade"]
    cost: int
    reach_m: Decimal
    uses_left: int | None
    blast_m: Decimal = Decimal(0)
    min_m: Decimal = Decimal(0)
    """Weaponry is used from 25 cm (F1)."""


class TurnView(msgspec.Struct, frozen=True, kw_only=True):
    """What a character sees when it declares: itself and the field (frozen), its weapons and its points."""

    me: Contact
    field: Roster
    now: int
    arms: tuple[ArmOption, ...]
    available: int
    move_cost: int
    """Points per move step (Table 3-6's move action, or 1 action under action procedure 1)."""
    step_m: Decimal
    """Metres one move step covers."""
    can_borrow: int = 0
    """Points the next turn could still lend (0 when borrowing is off or not allowed now)."""
    can_move: bool = True
    """False when an injury keeps it where it is (the special_damage module, S4)."""
    priority: tuple[str, ...] = ()


class FivestepController(Protocol):
    """Declares a character's actions for a turn or sub-turn."""

    name: str

    def plan(self, view: TurnView) -> list[Step]:
        """The steps to take, in order, with their reasons."""
        ...


def _usable(arm: ArmOption) -> bool:
    return arm.uses_left is None or arm.uses_left > 0


def choose_arm(arms: tuple[ArmOption, ...], gap: Decimal) -> ArmOption | None:
    """A grenade when the target is within a throw and outside its blast; else a weapon that reaches;
    else the first usable weapon (to close in with). A target nearer than a weapon's least range (F1)
    is not attacked with it."""
    usable = [arm for arm in arms if _usable(arm) and gap >= arm.min_m]
    for arm in usable:
        if arm.combat == "grenade" and arm.blast_m < gap <= arm.reach_m:
            return arm
    for arm in usable:
        if arm.combat != "grenade" and gap <= arm.reach_m:
            return arm
    return next((arm for arm in usable if arm.combat != "grenade"), None)


class NearestFirst:
    """Go for the nearest standing enemy: close in if out of reach, then attack with every point left,
    borrowing for one more attack when it may and half the attack's cost or less is missing."""

    name = "nearest"

    def __init__(self) -> None:
        self.memory = TargetMemory()

    def plan(self, view: TurnView) -> list[Step]:
        """Declare moves toward the nearest enemy and as many attacks as the points pay for."""
        chosen = self.memory.nearest(view.me, view.field, view.now, view.priority)
        if chosen is None:
            return []
        target, gap = chosen
        arm = choose_arm(view.arms, gap)
        if arm is None:
            return []
        steps: list[Step] = []
        points = view.available
        if gap > arm.reach_m:
            advance, whole = _advance(view, target, gap, arm)
            if advance is None:
                return []
            steps.append(advance)
            points -= advance.cost
            if not whole:
                return steps
        return steps + _strikes(view, target.id, gap, arm, points)


def _advance(view: TurnView, target: Contact, gap: Decimal, arm: ArmOption) -> tuple[Advance | None, bool]:
    """Moves toward ``target`` until it is within the weapon's reach (hand to hand: close in), as many
    steps as the points pay for; None when none can be taken; and whether they take it all the way."""
    if not view.can_move:
        return None, False
    stop = CLOSE_IN_M if arm.combat == "hand_to_hand" else arm.reach_m - 1
    steps_needed = int(((gap - stop) / view.step_m).to_integral_value(rounding=ROUND_CEILING))
    affordable = view.available // view.move_cost if view.move_cost else steps_needed
    taken = min(steps_needed, affordable)
    if taken == 0:
        return None, False
    end = approach(view.me.position, target.position, stop)
    metres = min(distance(view.me.position, end), view.step_m * taken)
    reason = f"{target.id} is {gap} m away, beyond the {arm.name}'s {arm.reach_m} m"
    advance = Advance(
        target=target.id, stop_m=stop, metres=metres, cost=taken * view.move_cost, reason=reason
    )
    return advance, taken == steps_needed


def _strikes(view: TurnView, target: str, gap: Decimal, arm: ArmOption, points: int) -> list[Step]:
    """As many attacks as ``points`` and the weapon's uses pay for, and one more on borrowed points when
    the character may borrow and half the attack's cost or less is missing (F7)."""
    steps: list[Step] = []
    uses = arm.uses_left
    which = "priority target" if target in view.priority else "nearest enemy"
    reason = f"{which} {target}, {gap} m away"
    while points >= arm.cost and (uses is None or uses > 0) and arm.cost > 0:
        steps.append(Strike(target=target, arm=arm.index, cost=arm.cost, reason=reason))
        points -= arm.cost
        uses = None if uses is None else uses - 1
    short = arm.cost - points
    lend = short * 3
    if view.can_borrow >= lend > 0 and short <= arm.cost // 2 and (uses is None or uses > 0):
        steps.append(Borrow(points=lend, reason=f"{short} more points pay for one more attack on {target}"))
        steps.append(
            Strike(target=target, arm=arm.index, cost=arm.cost, reason=reason + ", on borrowed points")
        )
    return steps
