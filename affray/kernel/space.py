"""Positions in metres on a plane, kept to the millimetre in exact decimals."""

from __future__ import annotations

from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_UP, Decimal
from functools import lru_cache

from affray.events.base import Position

MILLIMETRE = Decimal("0.001")
FIELD_M = 1_000_000
"""How far from (0, 0) a scenario may place anyone, in metres along each axis: to the millimetre, squared
distances across the field stay well inside the 28 digits of decimal arithmetic."""


def metres(value: float | int | Decimal) -> Decimal:
    """A length from a scenario number, to the millimetre."""
    return Decimal(str(value)).quantize(MILLIMETRE, rounding=ROUND_HALF_EVEN)


def squared_distance(a: Position, b: Position) -> Decimal:
    """The squared distance, exact: for comparing distances without square roots."""
    dx = b[0] - a[0]
    dy = b[1] - a[1]
    return dx * dx + dy * dy


@lru_cache(maxsize=4096)
def distance(a: Position, b: Position) -> Decimal:
    """Straight-line distance, to the millimetre (decimal square root, halves to even)."""
    return squared_distance(a, b).sqrt().quantize(MILLIMETRE, rounding=ROUND_HALF_EVEN)


def step_toward(start: Position, goal: Position, length: Decimal) -> Position:
    """The point about ``length`` metres from ``start`` toward ``goal``, never further (``goal`` if nearer).

    Each coordinate's move is rounded to the millimetre toward ``start``.
    """
    return _along(start, goal, length, ROUND_DOWN)


def approach(start: Position, goal: Position, within: Decimal) -> Position:
    """The point on the way from ``start`` to ``goal`` that ends ``within`` metres of it, or closer.

    Each coordinate's move is rounded to the millimetre toward ``goal``, so the end is never outside
    ``within``.
    """
    gap = distance(start, goal)
    if gap <= within:
        return start
    return _along(start, goal, gap - within, ROUND_UP)


def _along(start: Position, goal: Position, length: Decimal, rounding: str) -> Position:
    exact = squared_distance(start, goal).sqrt()
    if exact <= length:
        return goal
    return (
        start[0] + ((goal[0] - start[0]) * length / exact).quantize(MILLIMETRE, rounding=rounding),
        start[1] + ((goal[1] - start[1]) * length / exact).quantize(MILLIMETRE, rounding=rounding),
    )
