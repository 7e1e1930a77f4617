"""The steps a fivestep character played from outside affray may declare (rule F7): what a controller
from outside is offered, step by step, as it declares.

:func:`menu` is every step a character could ever be offered in its encounter, in a fixed order (a
reinforcement-learning agent's actions), ending with None: "declare nothing more". :func:`legal` keeps
those the rules allow given the steps declared so far: the points they leave (a borrow adding a third of
what it borrows), the shots and throws left, the borrowing the turn still allows, and where the
declared advances would take the character. Nothing here rolls: a declared step may still come to
nothing when it is carried out (its target fell first, a robot malfunctions, S5).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from affray.events.base import Position
from affray.events.fivestep.steps import Advance, Borrow, Step, Strike
from affray.handlers.fivestep.fighters import Fighter
from affray.kernel.space import approach, distance, step_toward
from affray.npc.field import Contact
from affray.npc.fivestep.controllers import CLOSE_IN_M, TurnView

BORROWED = 3
"""The points one borrow step takes of the next turn: three for one now (rule F7)."""
MOST_STEPS = 64
"""The most steps one declaration holds: a controller that never declares "nothing more" is stopped."""


def menu(fighter: Fighter, enemies: Sequence[str]) -> tuple[Step | None, ...]:
    """Every step ``fighter`` could be offered against ``enemies``, in a fixed order: for each enemy, a
    move step toward it (stopping 2 m from it, inside the 3 m reach of a hand-to-hand attack), then a
    strike with each weapon; then a borrow of 3 points; then None. Reasons are left empty."""
    offered: list[Step | None] = []
    for enemy in enemies:
        offered.append(
            Advance(target=enemy, metres=fighter.step_m, stop_m=CLOSE_IN_M, cost=fighter.move_cost, reason="")
        )
        offered.extend(Strike(target=enemy, arm=arm.index, cost=arm.cost, reason="") for arm in fighter.arms)
    offered.extend((Borrow(points=BORROWED, reason=""), None))
    return tuple(offered)


class Declared:
    """What the steps declared so far leave: points, borrowing, uses of each weapon, and where the
    character would stand."""

    def __init__(self, view: TurnView, steps: Sequence[Step]) -> None:
        self.points = view.available
        self.can_borrow = view.can_borrow
        self.uses = {arm.index: arm.uses_left for arm in view.arms}
        self.position: Position = view.me.position
        contacts = {c.id: c for c in view.field.contacts}
        for step in steps:
            self._add(step, contacts)

    def _add(self, step: Step, contacts: dict[str, Contact]) -> None:
        if isinstance(step, Borrow):
            self.points += step.points // BORROWED
            self.can_borrow -= step.points
            return
        self.points -= step.cost
        target = contacts.get(step.target)
        if isinstance(step, Advance) and target is not None:
            self.position = step_toward(
                self.position, approach(self.position, target.position, step.stop_m), step.metres
            )
        elif isinstance(step, Strike):
            left = self.uses.get(step.arm)
            self.uses[step.arm] = None if left is None else left - 1


def legal(view: TurnView, offered: Sequence[Step | None], steps: Sequence[Step]) -> tuple[Step | None, ...]:
    """The steps of ``offered`` the rules allow after ``steps`` (declared so far, at this view); None,
    declaring nothing more, always."""
    declared = Declared(view, steps)
    standing = {c.id: c for c in view.field.contacts if _standing(c, view.now)}
    return tuple(step for step in offered if _allowed(step, view, declared, standing))


def _standing(contact: Contact, now: int) -> bool:
    return not contact.out and not any(until is None or now < until for _, until in contact.conditions)


def _allowed(step: Step | None, view: TurnView, declared: Declared, standing: dict[str, Contact]) -> bool:
    if step is None:
        return True
    if isinstance(step, Borrow):
        return declared.can_borrow >= step.points > 0
    target = standing.get(step.target)
    if target is None or step.cost > declared.points or step.cost <= 0:
        return False
    gap = distance(declared.position, target.position)
    if isinstance(step, Advance):
        return view.can_move and gap > step.stop_m
    arm = next((a for a in view.arms if a.index == step.arm), None)
    if arm is None or arm.cost != step.cost:
        return False
    left = declared.uses.get(arm.index)
    return (left is None or left > 0) and arm.min_m <= gap <= arm.reach_m


def allowed(view: TurnView, offered: Sequence[Step | None], steps: Sequence[Step], answer: Step) -> bool:
    """Whether ``answer`` (its reason aside) is one of the steps the rules allow after ``steps``."""
    return msgspec.structs.replace(answer, reason="") in legal(view, offered, steps)
