"""Dice notation of the five-step system (seed 000), rule F13.

The text writes a die as ``S`` sides followed by ``sd`` ("sided die") and a count before a colon:
``1:100sd`` is one hundred-sided die (1d100), ``X:10sd`` is X ten-sided dice (X d10). affray writes the
same expression in the ``NdS`` form the log uses ("1d100", "4d10+2"); :func:`parse_dice` reads both.

Pure: the caller rolls the faces and :meth:`DiceExpression.total` adds them up.

RULINGS:

- F13: a count left out is 1 (``10sd`` and ``d10`` are 1d10, as in the text's "roll l0sd").
- F13: the scan prints the count 1 as a letter ("l:100sd", "l:10sd"); a count that is the single letter
  ``l`` is read as 1. Nowhere else is a letter taken for a digit.
- F13: a whole-number modifier may follow (``4:10sd+2``, ``4d10 - 1``); the fractional counts of damage
  die rolls (F10) are the damage rules' business, not the notation's: a count here is a whole number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

from affray.errors import AffrayError, excerpt

__all__ = ["D10", "D100", "MAX_COUNT", "DiceExpression", "DiceNotationError", "parse_dice"]

MAX_COUNT = 1000
"""The most dice one expression may roll (a sanity bound, not a rule)."""


class DiceNotationError(AffrayError, ValueError):
    """A dice expression that is neither ``X:Ssd`` nor ``NdS`` (rule F13)."""


class DiceExpression(msgspec.Struct, frozen=True, kw_only=True):
    """Rule F13: ``count`` dice of ``sides`` faces, plus ``modifier``; ``str()`` gives the ``NdS`` form."""

    count: int
    sides: int
    modifier: int = 0

    def __str__(self) -> str:
        if self.modifier == 0:
            return f"{self.count}d{self.sides}"
        return f"{self.count}d{self.sides}{self.modifier:+d}"

    @property
    def minimum(self) -> int:
        """The lowest total: every die shows 1."""
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        """The highest total: every die shows its top face."""
        return self.count * self.sides + self.modifier

    def total(self, faces: Sequence[int]) -> int:
        """The sum of the rolled ``faces`` plus the modifier; ValueError unless there are ``count`` faces,
        each from 1 to ``sides``."""
        if len(faces) != self.count:
            raise ValueError(f"{self} rolls {self.count} dice, got {len(faces)} faces")
        for face in faces:
            if not 1 <= face <= self.sides:
                raise ValueError(f"a face of {self} is 1 to {self.sides}, got {face}")
        return sum(faces) + self.modifier


_MODIFIER = r"(?:\s*(?P<sign>[+-])\s*(?P<modifier>[0-9]+))?"
_COLON_FORM = re.compile(rf"(?:(?P<count>[0-9]+|l)\s*:\s*)?(?P<sides>[0-9]+)\s*sd{_MODIFIER}", re.IGNORECASE)
_D_FORM = re.compile(rf"(?P<count>[0-9]+|l)?\s*d\s*(?P<sides>[0-9]+){_MODIFIER}", re.IGNORECASE)


def parse_dice(text: str) -> DiceExpression:
    """Rule F13: ``"1:100sd"`` -> 1d100, ``"3:10sd"`` -> 3d10, ``"4d10+2"`` -> 4d10+2, ``"d6"`` -> 1d6.

    DiceNotationError (an AffrayError) names the expression when it is not dice notation, counts no dice,
    or has fewer than 2 sides.
    """
    stripped = text.strip()
    match = _COLON_FORM.fullmatch(stripped) or _D_FORM.fullmatch(stripped)
    if match is None:
        raise DiceNotationError(
            f"{excerpt(text)!r} is not dice notation: expected `X:Ssd` (as in 1:100sd) or `NdS`"
        )
    raw_count = match["count"]
    count = 1 if raw_count is None or raw_count.lower() == "l" else int(raw_count)
    sides = int(match["sides"])
    if not 1 <= count <= MAX_COUNT:
        raise DiceNotationError(f"{excerpt(text)!r}: the count of dice is 1 to {MAX_COUNT}, got {count}")
    if sides < 2:
        raise DiceNotationError(f"{excerpt(text)!r}: a die has at least 2 sides, got {sides}")
    modifier = 0
    if match["modifier"] is not None:
        modifier = int(match["modifier"]) * (-1 if match["sign"] == "-" else 1)
    return DiceExpression(count=count, sides=sides, modifier=modifier)


D100 = parse_dice("1:100sd")
"""Rule F13: the ``1:100sd`` the text rolls for surprise, primary attack and percent to hit."""
D10 = parse_dice("1:10sd")
"""Rule F13: the ``1:10sd`` of a grenade's miss distance (F9) and damage die rolls (F10)."""
