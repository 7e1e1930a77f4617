"""What an Energion controller may choose (its intents), and the protocol a controller follows.

A controller gets a :class:`~affray.npc.energion.view.View` (frozen: it cannot change the encounter) and
returns one intent with its reason; the handlers carry it out under the rules, or refuse it with a reason.
"""

from __future__ import annotations

from typing import Literal, Protocol

import msgspec

from affray.npc.energion.view import View


class Attack(msgspec.Struct, frozen=True, kw_only=True):
    """Strike at or shoot ``target`` with the weapon in hand; ``subdue`` to strike to subdue (rule E14)."""

    target: str
    reason: str
    subdue: bool = False
    arm: int | None = None
    """A martial artist may punch or kick in any second without changing weapons (E13)."""


class Approach(msgspec.Struct, frozen=True, kw_only=True):
    """Move toward ``target`` for a second, stopping at reach."""

    target: str
    reason: str


class Aim(msgspec.Struct, frozen=True, kw_only=True):
    """Hold still and aim at ``target`` for ``seconds`` (rule E17)."""

    target: str
    seconds: int
    reason: str


class ChangeWeapon(msgspec.Struct, frozen=True, kw_only=True):
    """Take up carried weapon number ``index`` (rule E3): drop and grab, or put away safely."""

    index: int
    method: Literal["drop_and_grab", "put_away"]
    reason: str


class Wait(msgspec.Struct, frozen=True, kw_only=True):
    """Hold the current position for ``seconds``."""

    seconds: int
    reason: str


class Cast(msgspec.Struct, frozen=True, kw_only=True):
    """Cast spell number ``spell`` at ``target`` (rule E23)."""

    spell: int
    target: str
    reason: str


class Grapple(msgspec.Struct, frozen=True, kw_only=True):
    """Use a grappling procedure on ``target`` (rule E15): a tackle, trip, hold or double kick."""

    procedure: str
    target: str
    reason: str


class Charge(msgspec.Struct, frozen=True, kw_only=True):
    """Run at ``target`` and strike on arrival, the speed adding to the blow (rule E21)."""

    target: str
    reason: str


class Flee(msgspec.Struct, frozen=True, kw_only=True):
    """Run for a second straight away from ``target``; far enough from every enemy, it is out of the fight."""

    target: str
    reason: str


class Surrender(msgspec.Struct, frozen=True, kw_only=True):
    """Give up the fight: the combatant is out (a flight that gains no ground, ruling 48)."""

    reason: str


class BreakHold(msgspec.Struct, frozen=True, kw_only=True):
    """Spend the second trying to break the hold one is in (rule E15)."""

    reason: str


Intent = (
    Attack | Approach | Charge | Flee | Aim | ChangeWeapon | Wait | Cast | Grapple | BreakHold | Surrender
)


class Controller(Protocol):
    """Picks the next intent of one combatant; ``None`` when there is nothing to do."""

    name: str

    def decide(self, view: View) -> Intent | None:
        """The intent for this moment, with the reason for it."""
        ...


class EquipmentPicker(Protocol):
    """A controller that picks what its combatant gives up to special damage (rule S3), if it wants to.

    ``give_up(pieces, units)`` gets each piece's name and units left and the number of pieces lost, and
    returns names in the order to give them up; names it leaves out follow in the default order.
    """

    def give_up(self, pieces: tuple[tuple[str, int], ...], units: int) -> list[str]:
        """The pieces to give up first."""
        ...
