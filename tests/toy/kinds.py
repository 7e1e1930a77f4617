"""The toy's event kinds: a fighter joins, a swing lands or misses."""

from __future__ import annotations

from decimal import Decimal

from affray.events.base import ActorId, CombatantId, Event, Roll
from affray.events.shared import CombatantJoined as Joined


class FighterJoined(Joined, frozen=True, kw_only=True, tag="combatant_joined", omit_defaults=True):
    """A toy fighter enters with its skill and the seconds between its swings."""

    skill: int
    speed_ms: int


class Swung(Event, frozen=True, kw_only=True, tag="swung"):
    """A swing: the d20 against the skill and, on a hit, the d6 of damage."""

    attacker: ActorId
    target: CombatantId
    roll: Roll
    skill: int
    damage_roll: Roll | None = None
    damage: Decimal = Decimal(0)
