"""Dice: named, counter-based streams that anyone can reproduce, and a manual source for table rolls.

A stream is named ``"<roller>/<purpose>"``. Draw number ``n`` of a stream hashes the encounter seed, the
stream name and ``n`` with BLAKE2b; a die of ``s`` faces takes the first 8 bytes as an unsigned integer ``x``
and keeps ``x % s + 1`` unless ``x`` falls in the short top slice that would bias the result, in which case
the next draw is taken (rejection sampling). docs/log-format.md specifies this byte for byte.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any

import msgspec

from affray.errors import DiceExhausted, ScenarioError, excerpt
from affray.events.base import Roll, RollSource

DICE_ALGORITHM = "blake2b-ctr-v1"
_DOMAIN = b"affray-dice-v1"
_SPAN = 1 << 64
MAX_FACES = 1_000_000
"""The most faces a die may have."""
MAX_DICE = 1_000
"""The most dice one expression may roll."""
MAX_MODIFIER = 1_000_000
"""The largest modifier, either way, an expression may add."""
_EXPRESSION = re.compile(r"^\s*(\d*)\s*d\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$", re.IGNORECASE)


class DiceExpression(msgspec.Struct, frozen=True):
    """A parsed ``NdS+K`` expression: ``count`` dice of ``sides`` faces plus ``modifier``."""

    count: int
    sides: int
    modifier: int = 0

    def __str__(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.modifier:
            text += f"{self.modifier:+d}"
        return text


def _bounded(digits: str, limit: int, what: str, text: str) -> int:
    """The number ``digits`` spell, refused above ``limit`` before it is converted (however long it is)."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(limit)) or int(significant) > limit:
        raise ScenarioError(f"dice expression {excerpt(text)!r}: {what} is at most {limit:,}")
    return int(significant)


def parse_expression(text: str) -> DiceExpression:
    """Parse ``"1d100"``, ``"d10"`` or ``"4d10+2"``; raise ScenarioError on anything else, and on more than
    MAX_DICE dice, MAX_FACES faces or a modifier beyond MAX_MODIFIER."""
    match = _EXPRESSION.match(text)
    if match is None:
        raise ScenarioError(
            f"dice expression {excerpt(text)!r} is not of the form NdS or NdS+K (e.g. 4d10+2)"
        )
    count = _bounded(match.group(1) or "1", MAX_DICE, "the number of dice", text)
    sides = _bounded(match.group(2), MAX_FACES, "the number of faces", text)
    if count < 1 or sides < 1:
        raise ScenarioError(f"dice expression {excerpt(text)!r} needs at least one die of at least one face")
    modifier = _bounded(match.group(4) or "0", MAX_MODIFIER, "the modifier, + or -,", text)
    return DiceExpression(count, sides, -modifier if match.group(3) == "-" else modifier)


def _stream_prefix(seed: int, stream: str) -> bytes:
    return b"%s\x00%d\x00%s\x00" % (_DOMAIN, seed, stream.encode())


class DiceSource:
    """Where faces come from. Subclasses give one face of a die for a named stream."""

    source: RollSource = "generated"

    def face(self, stream: str, sides: int) -> int:
        """One face, 1..sides, for ``stream``."""
        raise NotImplementedError


class GeneratedDice(DiceSource):
    """Counter-based hashed streams: adding a stream never shifts another's faces."""

    source: RollSource = "generated"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._counters: dict[str, int] = {}
        self._prefixes: dict[str, Any] = {}

    def face(self, stream: str, sides: int) -> int:
        """Draw until a word falls below the largest multiple of ``sides``; map it to 1..sides."""
        prefix = self._prefixes.get(stream)
        if prefix is None:
            # The hash state after the stream's fixed prefix; each draw copies it and adds the counter.
            prefix = self._prefixes[stream] = hashlib.blake2b(
                _stream_prefix(self.seed, stream), digest_size=8
            )
        limit = _SPAN - _SPAN % sides
        counter = self._counters.get(stream, 0)
        while True:
            state = prefix.copy()
            state.update(counter.to_bytes(8, "big"))
            word = int.from_bytes(state.digest(), "big")
            counter += 1
            if word < limit:
                self._counters[stream] = counter
                return word % sides + 1


def _wanted(stream: str, sides: int) -> str:
    roller, _, purpose = stream.partition("/")
    return f"a d{sides} for {roller}'s {purpose} roll"


class ManualDice(DiceSource):
    """Faces given in order, as rolled at a real table; says which roll it lacks when they run out."""

    source: RollSource = "manual"

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._next = 0

    @property
    def unused(self) -> int:
        """How many supplied faces were never asked for."""
        return len(self._faces) - self._next

    def face(self, stream: str, sides: int) -> int:
        """The next supplied face, checked against the die's size."""
        number = self._next + 1
        if self._next >= len(self._faces):
            raise DiceExhausted(
                f"manual dice ran out: roll {number} ({_wanted(stream, sides)}) was not supplied; "
                f"{len(self._faces)} were given"
            )
        value = self._faces[self._next]
        if not 1 <= value <= sides:
            raise DiceExhausted(
                f"manual roll {number} is {value}, but {_wanted(stream, sides)} needs 1..{sides}"
            )
        self._next += 1
        return value


class Dice:
    """Rolls expressions for a roller and purpose, and returns the recorded Roll."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self._parsed: dict[str, DiceExpression] = {}

    def roll(self, roller: str, purpose: str, expr: str) -> Roll:
        """Roll ``expr`` on the stream ``roller/purpose``."""
        parsed = self._parsed.get(expr)
        if parsed is None:
            parsed = self._parsed[expr] = parse_expression(expr)
        stream = f"{roller}/{purpose}"
        face = self.source.face
        if parsed.count == 1:
            faces: tuple[int, ...] = (face(stream, parsed.sides),)
        else:
            faces = tuple(face(stream, parsed.sides) for _ in range(parsed.count))
        return Roll(
            expr=expr,
            faces=faces,
            total=sum(faces) + parsed.modifier,
            purpose=purpose,
            roller=roller,
            source=self.source.source,
        )
