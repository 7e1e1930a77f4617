"""Game time: integer milliseconds on the clock, seconds for people.

Rule formulas that give fractions of a second are computed in decimal arithmetic and rounded to the
millisecond with halves away from zero (``to_ms``); this is the one rounding rule for time.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

MS_PER_SECOND = 1000
MS_PER_DAY = 86400 * MS_PER_SECOND
UNIT_MS = {
    "seconds": MS_PER_SECOND,
    "minutes": 60 * MS_PER_SECOND,
    "hours": 3600 * MS_PER_SECOND,
    "days": MS_PER_DAY,
}
"""Milliseconds in each unit of time the rules name (the long clock of healing counts in days)."""
_MS = Decimal(MS_PER_SECOND)


def to_ms(seconds: Decimal | int) -> int:
    """Seconds (exact or decimal) to whole milliseconds, halves rounded away from zero."""
    return int((Decimal(seconds) * _MS).to_integral_value(rounding=ROUND_HALF_UP))


def seconds(ms: int) -> str:
    """Milliseconds shown to people as seconds with three decimals: ``12500 -> '12.500'``."""
    sign = "-" if ms < 0 else ""
    whole, frac = divmod(abs(ms), MS_PER_SECOND)
    return f"{sign}{whole}.{frac:03d}"
