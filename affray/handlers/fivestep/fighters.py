"""A fivestep character made ready for the rules: its points, moves, body and weapons (rules F1, F7-F11)."""

from __future__ import annotations

from decimal import Decimal

import msgspec

from affray.handlers.fivestep.scenario import Character, Part, Weapon
from affray.rules.fivestep.damage import DamageDieRoll


class Arm(msgspec.Struct, frozen=True, kw_only=True):
    """A weapon ready for the rules: its spec, its parsed damage die roll and its cost per use."""

    index: int
    spec: Weapon
    die_roll: DamageDieRoll | None
    cost: int
    reach_m: Decimal


class Fighter(msgspec.Struct, frozen=True, kw_only=True):
    """A character ready for the rules: its points per turn, move cost, body and weapons."""

    spec: Character
    rank: int
    """Its place in file order: actions ending at the same instant go by side order, then rank."""
    points: int
    """Points per full turn: the Agility attribute (action procedure 2), or the actions allowed (1)."""
    move_action: str
    """What a move is called in the log: the Table 3-6 action (procedure 2), or "move" (procedure 1)."""
    move_cost: int
    step_m: Decimal
    parts: tuple[Part, ...]
    arms: tuple[Arm, ...]

    @property
    def id(self) -> str:
        """The character's id."""
        return self.spec.id

    def part(self, name: str) -> Part | None:
        """Its body part called ``name`` (case ignored), if it has one."""
        key = name.casefold()
        return next((p for p in self.parts if p.name.casefold() == key), None)

    def first_vital(self) -> Part:
        """Its first vital part (every body has one)."""
        return next(p for p in self.parts if p.vital)
