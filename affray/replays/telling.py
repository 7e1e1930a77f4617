"""How numbers, places and rolls read in a told fight: the pieces every ruleset's narration shares."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from decimal import Decimal
from typing import Protocol

from affray.events.base import Position, Roll
from affray.events.sealed import is_sealed
from affray.events.shared import Score

_HUGE = Decimal(10) ** 15
"""Beyond this no fight's figure goes; a log that holds one is told in scientific notation."""


@functools.lru_cache(maxsize=1 << 14)
def number(value: Decimal | int) -> str:
    """A decimal for people: at most three places, no trailing zeros (``1.000000e+400`` if absurdly big).
    Kept by value: equal numbers, however written (``1.50``, ``1.5``), read the same. A value a players'
    copy withholds reads ``sealed``."""
    if is_sealed(value):
        return "sealed"
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


def drawn(roll: Roll) -> str:
    """Where a roll came from, its stream and draw: `` @gorm/hit#2``, and ``, manual`` when a referee
    entered it (a log written before rolls were numbered has only the latter)."""
    where = f" @{roll.stream}#{roll.draw}" if roll.draw else ""
    return f"{where}, manual" if roll.source == "manual" else where


def face(roll: Roll) -> str:
    """A roll's total and where it came from: ``41 @gorm/hit#2``."""
    return f"{roll.total}{drawn(roll)}"


def rolled(roll: Roll, unit: str = "") -> str:
    """A roll with its faces when there are several, and where it came from:
    ``3d10=17 [9+2+6] @gorm/damage#1``; ``1d4=sealed @wolf/perception#1`` in a players' copy."""
    if is_sealed(roll.total):
        return f"{roll.expr}=sealed{drawn(roll)}"
    faces = " [" + "+".join(str(f) for f in roll.faces) + "]" if len(roll.faces) > 1 else ""
    return f"{roll.expr}={roll.total}{unit}{faces}{drawn(roll)}"


class Choice(Protocol):
    """An intent or a step chosen from outside affray: its reason, and itself in words."""

    @property
    def reason(self) -> str:
        """Why, as the controller said."""
        ...

    def words(self) -> str:
        """The choice in words: ``attack gorm``."""
        ...


def decided(chooser: str, choice: Choice | None, scores: Sequence[Score], chooses: str, nothing: str) -> str:
    """A decision made from outside affray, as a teller says it: ``brenna (bots.utility:utility) chooses
    to attack gorm: closest [attack gorm 0.9; wait 0.1]``; ``chooser`` is the combatant and its
    controller, ``nothing`` what it did when it chose none."""
    scored = "; ".join(f"{score.option} {score.score:g}" for score in scores)
    listed = f" [{scored}]" if scored else ""
    if choice is None:
        return f"{chooser} {nothing}{listed}"
    why = f": {choice.reason}" if choice.reason else ""
    return f"{chooser} {chooses} {choice.words()}{why}{listed}"
