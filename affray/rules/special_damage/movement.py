"""Movement penalties of special damage (seed 001), rules S4 and S5.

The text counts movement in meters per turn. RULINGS:

- A turn is 6 seconds (:data:`TURN_SECONDS`), as in Star Frontiers, the game the add-on is written for;
  the text never says so. :func:`per_second` converts for affray's clock.
- Effects add up: every ``movement`` penalty is added to the base, then the lowest ``movement_max`` caps
  it ("Only 2 meters/turn"); "cannot move" and "dead" give 0; the result is never below 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from affray.rules.special_damage.tables import Effect

__all__ = ["TURN_SECONDS", "movement_per_turn", "per_second"]

TURN_SECONDS = 6
"""Ruling: one turn of the special damage text is 6 seconds (a Star Frontiers turn)."""


def per_second(m_per_turn: int | Decimal) -> Decimal:
    """Meters per turn as meters per second, ``m / 6`` (28 significant digits; -3 m/turn is -0.5 m/s)."""
    return Decimal(m_per_turn) / TURN_SECONDS


def movement_per_turn(base_m_per_turn: int, effects: Iterable[Effect]) -> int:
    """Rules S4/S5: meters per turn after the effects: base plus every penalty, capped, never below 0."""
    total = base_m_per_turn
    cap: int | None = None
    for effect in effects:
        if effect.cannot_move or effect.dead:
            return 0
        total += effect.movement or 0
        if effect.movement_max is not None:
            cap = effect.movement_max if cap is None else min(cap, effect.movement_max)
    if cap is not None:
        total = min(total, cap)
    return max(total, 0)
