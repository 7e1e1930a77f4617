"""Sealed values: what a players' copy of a log withholds, each replaced by a commitment to it.

A scenario may mark dice streams sealed (``[dice] sealed = ["wolf/*"]``): the referee's log holds every
roll, and ``affray redact`` writes the players' copy, in which each roll of a sealed stream has its
``faces`` and ``total`` replaced by ``{"sealed":"<commitment>"}``, and so has every other field that would
reveal such a roll (a hit's quality, which is the chance less the roll: each ruleset's revealers name them).
The header withholds the seed and what it comes from, without which the sealed rolls cannot be worked out.
What a roll caused (a hit, the damage) stays in the clear, as at a real table.

A commitment is a salted hash of the value's JSON bytes as the referee's line holds them; the salts come
from the referee's seed and fair-seed secrets, so the referee's log, published after the fight, lets
anyone redact it again and check each commitment. docs/log-format.md ("Sealed rolls") specifies it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fnmatch import fnmatchcase
from typing import Any, Literal

import msgspec

from affray.events.base import rolls_at

SCHEME = "affray-seal-v1"
"""The sealing scheme a players' copy names in its header."""
_KEY_LABEL = b"affray-seal-key-v1"
_SALT_LABEL = b"affray-seal-salt-v1"
_COMMITMENT_LABEL = SCHEME.encode()
COMMITMENT = re.compile(r"[0-9a-f]{64}")
"""A commitment's form: BLAKE2b-256 in lower-case hex."""
SEALED_PREFIX = b'{"sealed":"'
"""How a sealed value's JSON begins; no other value of a log begins so."""

Revealer = Callable[[Any], Iterable[tuple[str, str]]]
"""``revealer(event)`` yields, for an event of one kind, each field beyond a roll's own that would reveal
the roll, as ``(pointer, stream)``: the field's JSON pointer in the event and the stream of the roll it
reveals (``("/hit/quality", "brenna/hit")``). Only numbers may be so named."""


class Sealed(msgspec.Struct, frozen=True, gc=False):
    """A value a players' copy withholds: the commitment to it stands in its place. Read into an event,
    it stands in the field's place too, so that a tool that shows the field shows ``sealed`` and one that
    computes with it fails rather than take a stand-in for the value."""

    sealed: str

    def __str__(self) -> str:
        return "sealed"

    def __format__(self, spec: str) -> str:
        return "sealed"


def is_sealed(value: object) -> bool:
    """Whether ``value`` is withheld (a players' copy's stand-in)."""
    return isinstance(value, Sealed)


def sealed_values(value: object) -> int:
    """How many values ``value`` (an event, a header) withholds."""
    if is_sealed(value):
        return 1
    if isinstance(value, msgspec.Struct):
        return sum(sealed_values(getattr(value, name)) for name in value.__struct_fields__)
    if isinstance(value, tuple | list):
        return sum(sealed_values(item) for item in value)
    return 0


class Sealing(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What a players' copy's header says of its sealing: the scheme and the sealed streams (the
    scenario's ``dice.sealed``)."""

    scheme: Literal["affray-seal-v1"] = "affray-seal-v1"
    streams: list[str]


def stream_matcher(patterns: Sequence[str]) -> Callable[[str], bool]:
    """Whether a stream is one of ``patterns`` (``wolf/*``, ``*/perception``)."""
    kept = tuple(patterns)
    return lambda stream: any(fnmatchcase(stream, pattern) for pattern in kept)


def sealing_key(seed: int, secrets: Mapping[str, str]) -> bytes:
    """The key the salts come from: BLAKE2b-256 of the label, the seed and each fair-seed party's name
    and secret in order of the names (none for a seed the scenario gives)."""
    message = b"%s\x00%d\x00" % (_KEY_LABEL, seed) + b"".join(
        b"%s\x00%s\x00" % (name.encode(), secrets[name].encode()) for name in sorted(secrets)
    )
    return hashlib.blake2b(message, digest_size=32).digest()


def salt(key: bytes, seq: int, pointer: str) -> str:
    """The salt of the value at ``pointer`` on the line of ``seq`` (0: the header): the first 16 bytes of
    HMAC-SHA-256 keyed with the sealing key, in hex."""
    message = b"%s\x00%d\x00%s\x00" % (_SALT_LABEL, seq, pointer.encode())
    return hmac.new(key, message, hashlib.sha256).digest()[:16].hex()


def commitment(salted: str, seq: int, pointer: str, value: bytes) -> str:
    """The commitment to ``value`` (its JSON bytes) at ``pointer`` on the line of ``seq``, under the salt
    ``salted`` (hex): BLAKE2b-256 of the label, seq, pointer, salt and value, in hex."""
    message = b"%s\x00%d\x00%s\x00%s\x00%s" % (
        _COMMITMENT_LABEL,
        seq,
        pointer.encode(),
        salted.encode(),
        value,
    )
    return hashlib.blake2b(message, digest_size=32).hexdigest()


def pointer_of(segments: Iterable[str | int]) -> str:
    """An RFC 6901 JSON pointer: ``/hit/roll/faces``, ``~1`` for ``/`` and ``~0`` for ``~`` in a name."""
    return "".join("/" + str(s).replace("~", "~0").replace("/", "~1") for s in segments)


def segments_of(pointer: str) -> list[str]:
    """A JSON pointer's names, unescaped."""
    return [s.replace("~1", "/").replace("~0", "~") for s in pointer.split("/")[1:]]


def withheld(event: object, sealed: Callable[[str], bool], revealers: Sequence[Revealer]) -> list[str]:
    """The pointers of what a players' copy withholds of ``event``: each sealed roll's faces and total,
    then each field the revealers name for a sealed stream."""
    pointers = [
        pointer_of((*at, member))
        for at, roll in rolls_at(event)
        if sealed(roll.stream)
        for member in ("faces", "total")
    ]
    for revealer in revealers:
        pointers.extend(pointer for pointer, stream in revealer(event) if sealed(stream))
    return pointers


def value_at(value: Any, segments: Sequence[str]) -> Any:
    """What a struct, tuple or mapping holds at ``segments``."""
    for name in segments:
        if isinstance(value, msgspec.Struct):
            value = getattr(value, name)
        elif isinstance(value, tuple | list):
            value = value[int(name)]
        else:
            value = value[name]
    return value


def replaced(value: Any, segments: Sequence[str], new: object) -> Any:
    """``value`` (a frozen struct, a tuple, a mapping) with what it holds at ``segments`` replaced by
    ``new``: copies along the way, the rest shared."""
    if not segments:
        return new
    name, rest = segments[0], segments[1:]
    if isinstance(value, msgspec.Struct):
        return msgspec.structs.replace(value, **{name: replaced(getattr(value, name), rest, new)})
    if isinstance(value, tuple | list):
        index = int(name)
        items = list(value)
        items[index] = replaced(items[index], rest, new)
        return type(value)(items)
    return {**value, name: replaced(value[name], rest, new)}


def stand_ins(record: Any, at: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    """Every ``{"sealed": COMMITMENT}`` in a decoded line, with where it is and its commitment."""
    if isinstance(record, dict):
        if record.keys() == {"sealed"} and isinstance(record["sealed"], str):
            yield at, record["sealed"]
            return
        for name, item in record.items():
            yield from stand_ins(item, (*at, name))
    elif isinstance(record, list):
        for index, item in enumerate(record):
            yield from stand_ins(item, (*at, str(index)))
