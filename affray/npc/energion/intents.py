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
    "describe",
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


def describe(intent: Intent) -> str:
    """The intent in a few words, without its reason ("attack ulla", "aim at ulla 1 s")."""
    match intent:
        case Attack(target=target, subdue=subdue, arm=arm):
            how = " to subdue" if subdue else ""
            return f"attack {target}{how}" + (f" with weapon {arm}" if arm is not None else "")
        case Aim(target=target, seconds=seconds):
            return f"aim at {target} {seconds} s"
        case Cast(spell=spell, target=target):
            return f"cast spell {spell} at {target}"
        case Grapple(procedure=procedure, target=target):
            return f"{procedure} {target}"
        case ChangeWeapon(index=index, method=method):
            return f"change to weapon {index} ({method.replace('_', ' ')})"
        case Wait(seconds=seconds):
            return f"wait {seconds} s"
        case BreakHold():
            return "break the hold"
        case Surrender():
            return "surrender"
        case _:
            return f"{type(intent).__name__.lower()} {getattr(intent, 'target', '')}".rstrip()
