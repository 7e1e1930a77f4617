"""Game time: integer milliseconds on the clock, seconds for people.

Rule formulas that give fractions of a second are computed in decimal arithmetic and rounded to the
millisecond with halves away from zero (``to_ms``); this is the one rounding rule for time.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

MS_PER_SECOND = 1000
MS_PER_HOUR = 3600 * MS_PER_SECOND
MS_PER_DAY = 24 * MS_PER_HOUR
UNIT_MS = {
    "seconds": MS_PER_SECOND,
    "minutes": 60 * MS_PER_SECOND,
    "hours": MS_PER_HOUR,
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


def game_time(ms: int) -> str:
    """A moment on the clock for people: seconds in the first hour (``'46.330 s'``), then hours, minutes
    and seconds, with days on the long clock of healing (``'22 d 0 h 01 min 04 s'``)."""
    if ms < MS_PER_HOUR:
        return f"{seconds(ms)} s"
    days, rest = divmod(ms, MS_PER_DAY)
    hours, rest = divmod(rest, MS_PER_HOUR)
    minutes, rest = divmod(rest, 60 * MS_PER_SECOND)
    whole, frac = divmod(rest, MS_PER_SECOND)
    day = f"{days} d " if days else ""
    fraction = f".{frac:03d}" if frac else ""
    return f"{day}{hours} h {minutes:02d} min {whole:02d}{fraction} s"


_PART = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(d|h|min|m|s)?\s*")
_UNIT = {
    "d": MS_PER_DAY,
    "h": MS_PER_HOUR,
    "min": 60 * MS_PER_SECOND,
    "m": 60 * MS_PER_SECOND,
    "s": MS_PER_SECOND,
}


def parse_game_time(text: str) -> int:
    """A moment typed by a person, to milliseconds: seconds (``'12.5'``), or numbers with units d, h, min
    (or m) and s (``'30d'``, ``'1h 30min'``, ``'22 d 0 h 01 min 04 s'``). ValueError if it is none."""
    total = Decimal(0)
    at = 0
    while at < len(text):
        part = _PART.match(text, at)
        if part is None or part.end() == at:
            raise ValueError(f"not a time: {text!r}")
        try:
            total += Decimal(part.group(1)) * _UNIT[part.group(2) or "s"]
        except InvalidOperation:
            raise ValueError(f"not a time: {text!r}") from None
        at = part.end()
    if not text.strip():
        raise ValueError("no time given")
    return int(total.to_integral_value(rounding=ROUND_HALF_UP))
