"""How numbers, places and rolls read in a told fight: the pieces every ruleset's narration shares."""

from __future__ import annotations

from decimal import Decimal

from affray.events.base import Position, Roll

_HUGE = Decimal(10) ** 15
"""Beyond this no fight's figure goes; a log that holds one is told in scientific notation."""


def number(value: Decimal | int) -> str:
    """A decimal for people: at most three places, no trailing zeros (``1.000000e+400`` if absurdly big)."""
    exact = Decimal(value)
    if not exact.is_finite() or abs(exact) >= _HUGE:
        return f"{exact:.6e}"
    text = f"{exact.quantize(Decimal('0.001')):f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def signed(value: Decimal) -> str:
    """A decimal with its sign: ``+3``, ``-1.5``."""
    text = number(value)
    return text if text.startswith("-") else f"+{text}"


def at(p: Position) -> str:
    """A position: ``(3, -1.5)``."""
    return f"({number(p[0])}, {number(p[1])})"


def face(roll: Roll) -> str:
    """A roll's total alone, marked as ``rolled`` marks it when a referee supplied it: ``41, manual``."""
    return f"{roll.total}, manual" if roll.source == "manual" else str(roll.total)


def rolled(roll: Roll, unit: str = "") -> str:
    """A roll with its faces when there are several: ``3d10=17 [9+2+6]``; manual rolls say so."""
    faces = " [" + "+".join(str(f) for f in roll.faces) + "]" if len(roll.faces) > 1 else ""
    manual = ", manual" if roll.source == "manual" else ""
    return f"{roll.expr}={roll.total}{unit}{faces}{manual}"
