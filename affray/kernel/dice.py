"""Dice: named, counter-based streams that anyone can reproduce, and a manual source for table rolls.

A stream is named ``"<roller>/<purpose>"``; its rolls are numbered from 1 (``brenna/parry#3`` is the third),
and a roll names its stream and draw. A stream is a sequence of unsigned 64-bit words hashed with BLAKE2b
from the encounter seed, the stream name and a counter: under ``blake2b-ctr-v2`` one hash (a 64-byte
digest) gives eight words, under the older ``blake2b-ctr-v1`` one hash (8 bytes) gives one. A die of ``s``
faces takes the stream's next word ``x`` and keeps ``x % s + 1`` unless ``x`` falls in the short top slice
that would bias the result, in which case the next word is taken (rejection sampling).
docs/log-format.md specifies both byte for byte.
"""

from __future__ import annotations

import functools
import hashlib
import re
import struct
from collections.abc import Callable, Iterable, Mapping, Sequence
from fnmatch import fnmatchcase
from typing import Literal

import msgspec

from affray.errors import DiceExhausted, ScenarioError, WantedRoll, excerpt, first_named
from affray.events.base import Roll, RollSource

Algorithm = Literal["blake2b-ctr-v1", "blake2b-ctr-v2"]
"""A dice algorithm's name, as a log's header and a scenario's ``dice.algorithm`` write it."""
DICE_ALGORITHM: Algorithm = "blake2b-ctr-v2"
"""The algorithm a fight rolls with unless its scenario names another."""
DICE_ALGORITHMS: tuple[Algorithm, ...] = ("blake2b-ctr-v1", "blake2b-ctr-v2")
"""Every algorithm affray rolls with: a fight recorded with an older one is re-run with it."""
_SPAN = 1 << 64
_BLOCK = struct.Struct(">8Q")
"""A ``blake2b-ctr-v2`` digest read as eight unsigned 64-bit big-endian words."""
_WORD = struct.Struct(">Q")
"""A ``blake2b-ctr-v1`` counter, and digest, as one unsigned 64-bit big-endian word."""
MAX_FACES = 1_000_000
"""The most faces a die may have."""
MAX_DICE = 1_000
"""The most dice one expression may roll."""
MAX_MODIFIER = 1_000_000
"""The largest modifier, either way, an expression may add."""
_EXPRESSION = re.compile(r"(\d*)\s*d\s*(\d+)\s*(?:([+-])\s*(\d+))?", re.IGNORECASE)
"""An expression without its surrounding spaces (a pattern that took them too would try every way of
sharing a run of spaces between two of its parts: hours for a megabyte of them)."""


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
    match = _EXPRESSION.fullmatch(text.strip())
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


Need = Callable[[], str] | None
"""What a roll is for and needs, in words, worked out only when a referee is asked for it."""


class DiceSource:
    """Where faces come from: ``faces`` gives the faces of one roll, the ``draw``-th on its stream, and
    whether they were generated or entered by hand."""

    def drawer(self, stream: str) -> Callable[[int], int] | None:
        """A function giving the stream's next generated face of a die of so many sides, when every face
        of the stream is generated (then ``faces`` need not be asked); None otherwise."""
        return None

    def faces(
        self, stream: str, draw: int, count: int, sides: int, need: Need = None
    ) -> tuple[tuple[int, ...], RollSource]:
        """``count`` faces, each 1..sides, for the ``draw``-th roll of ``stream``, and their source;
        ``need`` says what the roll is for and what it needs, for a referee entering it."""
        raise NotImplementedError

    def unused(self) -> str | None:
        """What was supplied and never asked for, in words for a warning (None when all was used)."""
        return None


class GeneratedDice(DiceSource):
    """Counter-based hashed streams, drawn with ``algorithm``: adding a stream never shifts another's
    faces."""

    def __init__(self, seed: int, algorithm: Algorithm = DICE_ALGORITHM) -> None:
        self.seed = seed
        self.algorithm = algorithm
        self._kind = _STREAMS[algorithm]
        self._streams: dict[str, _WordStream | _BlockStream] = {}

    def _stream(self, stream: str) -> _WordStream | _BlockStream:
        kept = self._streams.get(stream)
        if kept is None:
            kept = self._streams[stream] = self._kind(self.seed, stream)
        return kept

    def face(self, stream: str, sides: int) -> int:
        """Draw until a word falls below the largest multiple of ``sides``; map it to 1..sides."""
        return self._stream(stream).face(sides)

    def drawer(self, stream: str) -> Callable[[int], int]:
        """The stream's ``face``."""
        return self._stream(stream).face

    def faces(
        self, stream: str, draw: int, count: int, sides: int, need: Need = None
    ) -> tuple[tuple[int, ...], RollSource]:
        """The next ``count`` faces of the stream."""
        if count == 1:
            return (self.face(stream, sides),), "generated"
        return tuple(self.face(stream, sides) for _ in range(count)), "generated"


def _hash_state(domain: bytes, seed: int, stream: str, digest_size: int) -> hashlib.blake2b:
    """BLAKE2b, fed the message's fixed start: the domain, the seed in decimal and the stream's name, each
    followed by a zero byte. Each hash of the stream copies it and adds its counter."""
    return hashlib.blake2b(b"%s\x00%d\x00%s\x00" % (domain, seed, stream.encode()), digest_size=digest_size)


class _WordStream:
    """A ``blake2b-ctr-v1`` stream: word ``n`` is the 8-byte digest of the message ending in ``n``; it
    keeps the hash state after the message's fixed start and the number of words drawn."""

    __slots__ = ("_counter", "_prefix")

    def __init__(self, seed: int, stream: str) -> None:
        self._prefix = _hash_state(b"affray-dice-v1", seed, stream, 8)
        self._counter = 0

    def face(self, sides: int) -> int:
        """Draw until a word falls below the largest multiple of ``sides``; map it to 1..sides."""
        limit = _limit(sides)
        counter = self._counter
        while True:
            state = self._prefix.copy()
            state.update(_WORD.pack(counter))
            word: int = _WORD.unpack(state.digest())[0]
            counter += 1
            if word < limit:
                self._counter = counter
                return word % sides + 1


class _BlockStream:
    """A ``blake2b-ctr-v2`` stream: block ``b``, the 64-byte digest of the message ending in ``b``, is
    words ``8b`` to ``8b + 7``. It keeps the hash state after the message's fixed start, the number of the
    next block, the block being drawn from (unpacked) and where in it the next word is."""

    __slots__ = ("_at", "_block", "_next", "_prefix")

    def __init__(self, seed: int, stream: str) -> None:
        self._prefix = _hash_state(b"affray-dice-v2", seed, stream, 64)
        self._next = 0
        self._block: tuple[int, ...] = ()
        self._at = 8

    def face(self, sides: int) -> int:
        """Draw until a word falls below the largest multiple of ``sides``; map it to 1..sides."""
        limit = _limit(sides)
        while True:
            at = self._at
            if at == 8:
                state = self._prefix.copy()
                state.update(self._next.to_bytes(8, "big"))
                self._next += 1
                self._block = _BLOCK.unpack(state.digest())
                at = 0
            word = self._block[at]
            self._at = at + 1
            if word < limit:
                return word % sides + 1


_STREAMS: dict[Algorithm, type[_WordStream] | type[_BlockStream]] = {
    "blake2b-ctr-v1": _WordStream,
    "blake2b-ctr-v2": _BlockStream,
}
"""Each algorithm's stream."""


@functools.cache
def _limit(sides: int) -> int:
    """The largest multiple of ``sides`` a word may fall below and be kept (rejection sampling)."""
    return _SPAN - _SPAN % sides


def _wanted(stream: str, count: int, sides: int) -> str:
    roller, _, purpose = stream.partition("/")
    dice = f"a d{sides}" if count == 1 else f"{count}d{sides}"
    return f"{dice} for {roller}'s {purpose} roll"


class ManualDice(DiceSource):
    """Faces given in one list, in the order the fight asks for them, as rolled at a real table; says
    which roll it lacks when they run out."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._next = 0

    def unused(self) -> str | None:
        """How many supplied faces were never asked for."""
        left = len(self._faces) - self._next
        return f"{left} of the manual rolls ($.dice.rolls) were not used" if left else None

    def _face(self, stream: str, draw: int, count: int, sides: int) -> int:
        number = self._next + 1
        wanted = f"{stream}#{draw}, {_wanted(stream, count, sides)}"
        if self._next >= len(self._faces):
            given = len(self._faces)
            raise DiceExhausted(
                f"manual dice ran out: roll {number} ({wanted}) was not supplied; {given} were given"
            )
        value = self._faces[self._next]
        if not 1 <= value <= sides:
            raise DiceExhausted(f"manual roll {number} is {value}, but {wanted} needs 1..{sides}")
        self._next += 1
        return value

    def faces(
        self, stream: str, draw: int, count: int, sides: int, need: Need = None
    ) -> tuple[tuple[int, ...], RollSource]:
        """The next ``count`` supplied faces, each checked against the die's size."""
        return tuple(self._face(stream, draw, count, sides) for _ in range(count)), "manual"


_WORDS = r"[A-Za-z0-9_-]+(?: [A-Za-z0-9_-]+)*"
STREAM_PATTERN = rf"^(\*|[A-Za-z0-9_*-]+/(\*|{_WORDS}\*?))$"
"""A stream, or streams with ``*`` for a name or a name's end: ``brenna/*``, ``*/parry``, ``*``."""
STREAM_DRAW = rf"^[A-Za-z0-9_-]+/{_WORDS}#[1-9][0-9]{{0,8}}$"
"""One roll: its stream and its draw number on it, ``brenna/parry#3``, ``ford/to hit#2``."""


class EnteredDice(DiceSource):
    """Rolls entered by stream and draw (``brenna/parry#3``), on the streams marked manual and anywhere
    else; every other roll generated from the seed with ``algorithm``.

    A roll on a manual stream must be entered. An entered roll on a generated stream replaces the draw it
    names, and the stream's later draws stay what they would have been.
    """

    def __init__(
        self,
        seed: int,
        manual: Sequence[str],
        entered: Mapping[str, Sequence[int]],
        algorithm: Algorithm = DICE_ALGORITHM,
    ) -> None:
        self._generated = GeneratedDice(seed, algorithm)
        self._manual = tuple(manual)
        self._entered = {key: tuple(faces) for key, faces in entered.items()}
        self._entered_streams = {key.rpartition("#")[0] for key in self._entered}
        self._used: set[str] = set()

    def drawer(self, stream: str) -> Callable[[int], int] | None:
        """The generated stream's ``face`` for a stream neither manual nor with a roll entered."""
        if stream in self._entered_streams or (self._manual and self._is_manual(stream)):
            return None
        return self._generated.drawer(stream)

    def _is_manual(self, stream: str) -> bool:
        return any(fnmatchcase(stream, pattern) for pattern in self._manual)

    def faces(
        self, stream: str, draw: int, count: int, sides: int, need: Need = None
    ) -> tuple[tuple[int, ...], RollSource]:
        """The entered faces of this draw, or the generated ones."""
        key = f"{stream}#{draw}"
        entered = self._entered.get(key)
        if not (self._manual and self._is_manual(stream)):
            generated = self._generated.faces(stream, draw, count, sides)  # drawn even when replaced
            if entered is None:
                return generated
        wanted = _wanted(stream, count, sides)
        if entered is None:
            raise DiceExhausted(
                f"{key} ({wanted}) was not entered",
                path="$.dice.rolled",
                wanted=WantedRoll(key, count, sides, need() if need else ""),
            )
        if len(entered) != count or not all(1 <= face <= sides for face in entered):
            shown = entered[0] if len(entered) == 1 else list(entered)
            raise DiceExhausted(
                f"{key} is {shown}, but {wanted} needs {count} face{'s' if count > 1 else ''} of 1..{sides}",
                path="$.dice.rolled",
            )
        self._used.add(key)
        return entered, "manual"

    def unused(self) -> str | None:
        """The entered rolls the fight never asked for."""
        left = [key for key in self._entered if key not in self._used]
        if not left:
            return None
        named = first_named(left, 5)
        return f"{len(left)} of the rolls entered in $.dice.rolled were never asked for: {named}"


@functools.lru_cache(maxsize=256)
def _parsed(expr: str) -> DiceExpression:
    return parse_expression(expr)


class Stream:
    """One stream of a Dice, ``roller/purpose``: rolls on it are numbered on from the stream's last."""

    __slots__ = ("_drawer", "_draws", "_source", "name", "purpose", "roller")

    def __init__(self, source: DiceSource, roller: str, purpose: str) -> None:
        self.roller = roller
        self.purpose = purpose
        self.name = f"{roller}/{purpose}"
        self._source = source
        self._drawer = source.drawer(self.name)
        self._draws = 0

    def roll(self, expr: str, need: Need = None) -> Roll:
        """Roll ``expr`` as the stream's next draw (see ``Dice.roll``)."""
        parsed = _parsed(expr)
        draw = self._draws = self._draws + 1
        drawer = self._drawer
        if drawer is not None and parsed.count == 1:
            face = drawer(parsed.sides)
            faces: tuple[int, ...] = (face,)
            total = face + parsed.modifier
            source: RollSource = "generated"
        else:
            faces, source = self._source.faces(self.name, draw, parsed.count, parsed.sides, need)
            total = sum(faces) + parsed.modifier
        return Roll(
            expr=expr,
            faces=faces,
            total=total,
            purpose=self.purpose,
            roller=self.roller,
            source=source,
            draw=draw,
        )


class Dice:
    """Rolls expressions for a roller and purpose, numbering each stream's draws from 1, and returns the
    recorded Roll."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self._streams: dict[tuple[str, str], Stream] = {}

    def stream(self, roller: str, purpose: str) -> Stream:
        """The stream ``roller/purpose``, for a caller that rolls on it often."""
        key = (roller, purpose)
        stream = self._streams.get(key)
        if stream is None:
            stream = self._streams[key] = Stream(self.source, roller, purpose)
        return stream

    def roll(self, roller: str, purpose: str, expr: str, need: Need = None) -> Roll:
        """Roll ``expr`` on the stream ``roller/purpose``, as that stream's next draw; ``need`` says what
        it is for and what it needs ("brenna attacks gorm with Sword, Long: under 62.5 to hit"), for a
        referee asked for it at a table (called only then)."""
        return self.stream(roller, purpose).roll(expr, need)
