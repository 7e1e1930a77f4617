"""What a fivestep character declares for a turn or sub-turn (rule F7): its steps, each with its reason.
A character played from outside affray has each step it chose recorded (``step_chosen``), so the steps
are tagged by a stable snake_case name in ``do``, as Energion's intents are."""

from __future__ import annotations

from decimal import Decimal
from typing import get_args

import msgspec


class StepBase(msgspec.Struct, frozen=True, kw_only=True, tag_field="do"):
    """The base of every step: tagged by its name in ``do`` when recorded."""


class Advance(StepBase, frozen=True, kw_only=True, tag="advance"):
    """Close with ``target``: move toward it, ``metres`` at most, stopping ``stop_m`` from it."""

    target: str
    metres: Decimal
    stop_m: Decimal
    cost: int
    reason: str

    def words(self) -> str:
        """``advance 1.5 m toward ulla``."""
        return f"advance {self.metres} m toward {self.target}"


class Strike(StepBase, frozen=True, kw_only=True, tag="strike"):
    """Attack ``target`` with weapon ``arm`` (hand to hand, a shot or a thrown grenade)."""

    target: str
    arm: int
    cost: int
    reason: str

    def words(self) -> str:
        """``strike ulla with weapon 0``."""
        return f"strike {self.target} with weapon {self.arm}"


class Borrow(StepBase, frozen=True, kw_only=True, tag="borrow"):
    """Borrow ``points`` of the next turn's Agility Points, 3 for 1 (rule F7)."""

    points: int
    reason: str

    def words(self) -> str:
        """``borrow 3 points``."""
        return f"borrow {self.points} points"


Step = Advance | Strike | Borrow
"""Every step a fivestep controller may declare."""
STEPS: tuple[type[StepBase], ...] = get_args(Step)
"""The step types, for checking what a controller answered."""
