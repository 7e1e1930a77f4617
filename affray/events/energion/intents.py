"""What an Energion combatant may choose to do next (its intents): values a controller returns and the
handlers carry out under the rules. A combatant played from outside affray has each of its intents recorded
in the log (``intent_chosen``), so they are tagged by a stable snake_case name, as event kinds are."""

from __future__ import annotations

from typing import Literal, get_args

import msgspec


class IntentBase(msgspec.Struct, frozen=True, kw_only=True, tag_field="do", omit_defaults=True):
    """The base of every intent: tagged by its name in ``do`` when recorded."""

    def words(self) -> str:
        """The intent in a few words, without its reason ("attack ulla", "aim at ulla 1 s")."""
        return f"{type(self).__name__.lower()} {getattr(self, 'target', '')}".rstrip()


class Attack(IntentBase, frozen=True, kw_only=True, tag="attack"):
    """Strike at or shoot ``target`` with the weapon in hand; ``subdue`` to strike to subdue (rule E14)."""

    target: str
    reason: str
    subdue: bool = False
    arm: int | None = None
    """A martial artist may punch or kick in any second without changing weapons (E13)."""

    def words(self) -> str:
        """``attack ulla``, ``to subdue`` and ``with weapon N`` when they apply."""
        how = " to subdue" if self.subdue else ""
        return f"attack {self.target}{how}" + (f" with weapon {self.arm}" if self.arm is not None else "")


class Approach(IntentBase, frozen=True, kw_only=True, tag="approach"):
    """Move toward ``target`` for a second, stopping at reach."""

    target: str
    reason: str


class Aim(IntentBase, frozen=True, kw_only=True, tag="aim"):
    """Hold still and aim at ``target`` for ``seconds`` (rule E17)."""

    target: str
    seconds: int
    reason: str

    def words(self) -> str:
        """``aim at ulla 1 s``."""
        return f"aim at {self.target} {self.seconds} s"


class ChangeWeapon(IntentBase, frozen=True, kw_only=True, tag="change_weapon"):
    """Take up carried weapon number ``index`` (rule E3): drop and grab, or put away safely."""

    index: int
    method: Literal["drop_and_grab", "put_away"]
    reason: str

    def words(self) -> str:
        """``change to weapon 1 (put away)``."""
        return f"change to weapon {self.index} ({self.method.replace('_', ' ')})"


class Wait(IntentBase, frozen=True, kw_only=True, tag="wait"):
    """Hold the current position for ``seconds``."""

    seconds: int
    reason: str

    def words(self) -> str:
        """``wait 1 s``."""
        return f"wait {self.seconds} s"


class Cast(IntentBase, frozen=True, kw_only=True, tag="cast"):
    """Cast spell number ``spell`` at ``target`` (rule E23)."""

    spell: int
    target: str
    reason: str

    def words(self) -> str:
        """``cast spell 0 at ulla``."""
        return f"cast spell {self.spell} at {self.target}"


class Grapple(IntentBase, frozen=True, kw_only=True, tag="grapple"):
    """Use a grappling procedure on ``target`` (rule E15): a tackle, trip, hold or double kick."""

    procedure: str
    target: str
    reason: str

    def words(self) -> str:
        """The procedure and its target: ``tackle ulla``."""
        return f"{self.procedure} {self.target}"


class Charge(IntentBase, frozen=True, kw_only=True, tag="charge"):
    """Run at ``target`` and strike on arrival, the speed adding to the blow (rule E21)."""

    target: str
    reason: str


class Flee(IntentBase, frozen=True, kw_only=True, tag="flee"):
    """Run for a second straight away from ``target``; far enough from every enemy, it is out of the fight."""

    target: str
    reason: str


class Surrender(IntentBase, frozen=True, kw_only=True, tag="surrender"):
    """Give up the fight: the combatant is out (a flight that gains no ground, ruling 48)."""

    reason: str

    def words(self) -> str:
        """``surrender``."""
        return "surrender"


class BreakHold(IntentBase, frozen=True, kw_only=True, tag="break_hold"):
    """Spend the second trying to break the hold one is in (rule E15)."""

    reason: str

    def words(self) -> str:
        """``break the hold``."""
        return "break the hold"


Intent = (
    Attack | Approach | Charge | Flee | Aim | ChangeWeapon | Wait | Cast | Grapple | BreakHold | Surrender
)
"""Every intent an Energion controller may return."""
INTENTS: tuple[type[IntentBase], ...] = get_args(Intent)
"""The intent types, for checking what a controller answered."""
