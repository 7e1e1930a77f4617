"""What a controller may choose, and the read-only view it chooses from."""

from __future__ import annotations

from decimal import Decimal
from typing import Protocol

import msgspec

from affray.kernel.state import CombatantState, EncounterState


class Attack(msgspec.Struct, frozen=True, kw_only=True):
    """Attack ``target`` with the weapon in hand."""

    target: str
    reason: str


class Approach(msgspec.Struct, frozen=True, kw_only=True):
    """Move toward ``target`` until it is within reach."""

    target: str
    reason: str


Intent = Attack | Approach


class View(msgspec.Struct, frozen=True, kw_only=True):
    """What a controller sees: its own combatant, its reach, and the encounter. It must not change them."""

    me: CombatantState
    reach: Decimal
    state: EncounterState


class Controller(Protocol):
    """Picks the next intent of one combatant; ``None`` when there is nothing to do."""

    name: str

    def decide(self, view: View) -> Intent | None:
        """The intent for this moment, with the reason for it."""
        ...
