"""Positions in metres on a plane, kept to the millimetre in exact decimals."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal

from affray.events.kinds import Position

MILLIMETRE = Decimal("0.001")


def metres(value: float | int | Decimal) -> Decimal:
    """A length from a scenario number, to the millimetre."""
    return Decimal(str(value)).quantize(MILLIMETRE, rounding=ROUND_HALF_EVEN)


def distance(a: Position, b: Position) -> Decimal:
    """Straight-line distance, to the millimetre (decimal square root, halves to even)."""
    dx = b[0] - a[0]
    dy = b[1] - a[1]
    return (dx * dx + dy * dy).sqrt().quantize(MILLIMETRE, rounding=ROUND_HALF_EVEN)


def step_toward(start: Position, goal: Position, length: Decimal) -> Position:
    """The point ``length`` metres from ``start`` toward ``goal`` (``goal`` itself if nearer)."""
    gap = distance(start, goal)
    if gap <= length or gap == 0:
        return goal
    fraction = length / gap
    return (
        (start[0] + (goal[0] - start[0]) * fraction).quantize(MILLIMETRE, rounding=ROUND_HALF_EVEN),
        (start[1] + (goal[1] - start[1]) * fraction).quantize(MILLIMETRE, rounding=ROUND_HALF_EVEN),
    )
