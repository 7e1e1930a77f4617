"""Reading a players' copy: each event line's sealed values found, checked against what the copy must
withhold, and put in the event as :class:`Sealed` stand-ins (docs/log-format.md, "Sealed rolls")."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

import msgspec

from affray.errors import excerpt
from affray.events.base import Event
from affray.events.codec import LogHeader
from affray.events.sealed import (
    COMMITMENT,
    SEALED_PREFIX,
    Sealed,
    Sealing,
    pointer_of,
    replaced,
    segments_of,
    stand_ins,
    stream_matcher,
    withheld,
)
from affray.events.vocabulary import Vocabulary

_RECORD_DECODER = msgspec.json.Decoder(dict[str, Any], float_hook=Decimal)


def header_problem(header: LogHeader) -> str:
    """What is wrong with a header's sealing ("" if nothing): a players' copy withholds its seed, and a
    log that is none withholds nothing."""
    copy = isinstance(header.sealed, Sealing)
    if copy and not isinstance(header.seed, Sealed):
        return "a players' copy (sealed) whose seed is not sealed"
    if not copy and isinstance(header.seed, Sealed):
        return "the seed is sealed, but the header does not say what the log withholds (sealed)"
    return ""


def _blank(at: tuple[str, ...]) -> object:
    """What stands in a sealed value's place while the line is decoded: no faces for a roll's faces, 0 for
    the numbers that alone may be sealed otherwise."""
    return [] if at[-1] == "faces" else 0


def _checked(found: Mapping[str, str], expected: list[str]) -> None:
    """Raise ValidationError unless exactly the ``expected`` values are sealed, each by a commitment."""
    for pointer, commitment in found.items():
        if pointer not in expected:
            raise msgspec.ValidationError(
                f"{excerpt(pointer)} is sealed, but it is neither a roll of a sealed stream nor what "
                "reveals one"
            )
        if not COMMITMENT.fullmatch(commitment):
            raise msgspec.ValidationError(
                f"{pointer}: {excerpt(commitment)!r} is not a commitment (64 lower-case hex digits)"
            )
    for pointer in expected:
        if pointer not in found:
            raise msgspec.ValidationError(
                f"{pointer} is not sealed, but it belongs to a roll of a sealed stream"
            )


def unsealing(
    decode: Callable[[bytes], Event], vocabulary: Vocabulary[Any], sealing: Sealing
) -> Callable[[bytes], Event]:
    """A decoder of a players' copy's event lines, over ``decode`` (the log's decoder for lines without a
    sealed value): the sealed values must be exactly those of the rolls of ``sealing.streams`` and what
    reveals them; each is put in the event as its Sealed stand-in."""
    sealed = stream_matcher(sealing.streams)
    revealers = vocabulary.revealers

    def read(line: bytes) -> Event:
        found: dict[str, str] = {}
        if SEALED_PREFIX in line:
            record = _RECORD_DECODER.decode(line)
            for at, commitment in list(stand_ins(record)):
                found[pointer_of(at)] = commitment
                record = replaced(record, at, _blank(at))
            record.pop("prev", None)
            event: Event = msgspec.convert(record, vocabulary.union)
        else:
            event = decode(line)
        _checked(found, withheld(event, sealed, revealers.get(type(event), ())))
        for pointer, commitment in found.items():
            event = replaced(event, segments_of(pointer), Sealed(commitment))
        return event

    return read
