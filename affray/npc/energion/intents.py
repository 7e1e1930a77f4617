"""What an Energion controller may choose (its intents), and the protocols a controller follows.

A controller gets a :class:`~affray.npc.energion.view.View` (frozen: it cannot change the encounter) and
returns one intent with its reason; the handlers carry it out under the rules, or refuse it with a reason.
A controller from outside affray (:class:`OutsideController`, docs/controllers.md) also gets the intents
the rules allow now.
"""

from __future__ import annotations

from typing import Protocol

from affray.events.energion.intents import (
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
from affray.npc.energion.view import View
from affray.npc.outside import Decision

__all__ = [
    "Aim",
    "Approach",
    "Attack",
    "BreakHold",
    "Cast",
    "ChangeWeapon",
    "Charge",
    "Controller",
    "EquipmentPicker",
    "Flee",
    "Grapple",
    "Intent",
    "OutsideController",
    "Surrender",
    "Wait",
]


class Controller(Protocol):
    """Picks the next intent of one combatant; ``None`` when there is nothing to do."""

    name: str

    def decide(self, view: View) -> Intent | None:
        """The intent for this moment, with the reason for it."""
        ...


class OutsideController(Protocol):
    """A controller from outside affray, made for one combatant and one run by the factory a scenario
    names (``controller = "package.module:factory"``); see docs/controllers.md."""

    def decide(self, view: View, legal: tuple[Intent, ...]) -> Decision | Intent | None:
        """One intent for this moment (one of ``legal``, or any other for the rules to refuse), alone or
        in a Decision with its reason and scores; None when there is nothing more to do."""
        ...


class EquipmentPicker(Protocol):
    """A controller that picks what its combatant gives up to special damage (rule S3), if it wants to.

    ``give_up(pieces, units)`` gets each piece's name and units left and the number of pieces lost, and
    returns names in the order to give them up; names it leaves out follow in the default order.
    """

    def give_up(self, pieces: tuple[tuple[str, int], ...], units: int) -> list[str]:
        """The pieces to give up first."""
        ...
