"""The players' copy of a referee's log: each sealed value replaced by its commitment, and the check that a
players' copy is the referee's log redacted (docs/log-format.md, "Sealed rolls").

Redacting is deterministic: the salts come from the referee's seed and fair-seed secrets, so the
referee's log, once published, redacts again to the very copy the players were given, line for line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from itertools import zip_longest
from typing import Any

import msgspec

from affray.errors import LogError, excerpt
from affray.events.base import Event
from affray.events.codec import ENCODER, LogHeader, encode_header, encode_log
from affray.events.reader import LogFile
from affray.events.sealed import (
    Revealer,
    Sealed,
    Sealing,
    commitment,
    pointer_of,
    replaced,
    salt,
    sealed_values,
    sealing_key,
    segments_of,
    stand_ins,
    stream_matcher,
    value_at,
    withheld,
)
from affray.events.vocabulary import Vocabulary
from affray.kernel.dice import STREAM_DRAW
from affray.replays.verify import RecordedLog

_SCENARIO = msgspec.json.Decoder(dict[str, Any], float_hook=Decimal)
_SCENARIO_ENCODER = msgspec.json.Encoder(decimal_format="number")
"""The scenario is re-encoded in the order it was written (not sorted), so only its sealed members change."""
_ROLL_CHANGE = re.compile(STREAM_DRAW.removesuffix("$") + "=")


def referees_seed(header: LogHeader, where: str) -> int:
    """The seed of a referee's log; LogError if ``header`` is a players' copy's, which withholds it."""
    if isinstance(header.sealed, Sealing) or isinstance(header.seed, Sealed):
        raise LogError(f"{where}: it is a players' copy already; redact the referee's log")
    return header.seed


class Seal:
    """What a referee's log seals and how: the sealed streams (its scenario's ``dice.sealed``), the key
    the salts come from, and each kind's revealers."""

    def __init__(self, header: LogHeader, vocabulary: Vocabulary[Any], where: str) -> None:
        seed = referees_seed(header, where)
        self.scenario = _decoded(header, where)
        dice = self.scenario.get("dice")
        streams = dice.get("sealed") if isinstance(dice, dict) else None
        if not streams:
            raise LogError(
                f"{where}: its scenario seals no stream ($.dice.sealed), so a players' copy would withhold "
                "nothing; the streams are sealed before the fight, in the scenario"
            )
        self.streams: list[str] = [str(s) for s in streams]
        self.sealed = stream_matcher(self.streams)
        self.fair = isinstance(self.scenario.get("fair_seed"), dict)
        self.key = sealing_key(seed, _secrets(self.scenario))
        self.revealers: Mapping[type[Event], Sequence[Revealer]] = vocabulary.revealers

    def commit(self, seq: int, pointer: str, value: object) -> Sealed:
        """The stand-in of ``value`` at ``pointer`` on the line of ``seq``."""
        encoded = ENCODER.encode(value)
        return Sealed(commitment(salt(self.key, seq, pointer), seq, pointer, encoded))

    def event(self, event: Event) -> Event:
        """``event`` as the players' copy holds it."""
        for pointer in withheld(event, self.sealed, self.revealers.get(type(event), ())):
            segments = segments_of(pointer)
            value = value_at(event, segments)
            event = replaced(event, segments, self.commit(event.seq, pointer, value))
        return event

    def header(self, header: LogHeader, versions: dict[str, int]) -> LogHeader:
        """The players' copy's header: the seed sealed, and in the scenario the seed, each fair-seed
        secret and each roll entered for a sealed stream; ``versions``: the kinds as the copy writes them."""
        where = "line 1 (header)"
        changes = header.changes if isinstance(header.changes, list) else []
        for change in changes:
            matched = _ROLL_CHANGE.match(change)
            if matched and self.sealed(matched.group(0).rpartition("#")[0]):
                raise LogError(
                    f"{where}: a what-if that changes a sealed roll ({excerpt(change)}): its players' copy "
                    "would show it"
                )
        scenario = self.scenario
        for pointer in self._scenario_pointers():
            segments = segments_of(pointer)
            scenario = replaced(
                scenario, segments, self.commit(0, "/scenario" + pointer, value_at(scenario, segments))
            )
        return msgspec.structs.replace(
            header,
            seed=self.commit(0, "/seed", header.seed),
            event_versions=versions,
            scenario=msgspec.Raw(_SCENARIO_ENCODER.encode(scenario)),
            sealed=Sealing(streams=self.streams),
        )

    def _scenario_pointers(self) -> Iterator[str]:
        """What the scenario holds that would give the sealed rolls away: its seed, the fair seed's
        secrets, and the rolls entered for sealed streams."""
        if "seed" in self.scenario:
            yield "/seed"
        fair = self.scenario.get("fair_seed")
        reveals = fair.get("reveals") if isinstance(fair, dict) else None
        for party, reveal in (reveals or {}).items():
            yield pointer_of(
                ("fair_seed", "reveals", party, "secret")
                if isinstance(reveal, dict)
                else ("fair_seed", "reveals", party)
            )
        dice = self.scenario.get("dice")
        rolled = dice.get("rolled") if isinstance(dice, dict) else None
        for key in rolled or {}:
            if self.sealed(str(key).rpartition("#")[0]):
                yield pointer_of(("dice", "rolled", key))


def _decoded(header: LogHeader, where: str) -> dict[str, Any]:
    try:
        return _SCENARIO.decode(header.scenario)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
        raise LogError(f"{where}: line 1 (header): the scenario is damaged ({exc})") from None


def _secrets(scenario: Mapping[str, Any]) -> dict[str, str]:
    """Each fair-seed party's secret as the scenario reveals it (none for a seed the scenario gives)."""
    fair = scenario.get("fair_seed")
    reveals = fair.get("reveals") if isinstance(fair, dict) else None
    if not isinstance(reveals, dict):
        return {}
    return {
        str(party): str(reveal.get("secret") if isinstance(reveal, dict) else reveal)
        for party, reveal in reveals.items()
    }


def first_difference(
    ours: object, theirs: object, at: tuple[str | int, ...] = ()
) -> tuple[str, object, object] | None:
    """The first place two decoded lines differ: its JSON pointer and both values (None if they agree); a
    sealed value is one value."""
    if _stand_in(ours) or _stand_in(theirs):
        return None if ours == theirs else (pointer_of(at), ours, theirs)
    if isinstance(ours, dict) and isinstance(theirs, dict) and ours.keys() == theirs.keys():
        for name in ours:
            found = first_difference(ours[name], theirs[name], (*at, name))
            if found is not None:
                return found
        return None
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        for index, (mine, other) in enumerate(zip(ours, theirs, strict=True)):
            found = first_difference(mine, other, (*at, index))
            if found is not None:
                return found
        return None
    return None if ours == theirs else (pointer_of(at), ours, theirs)


def _stand_in(value: object) -> bool:
    return isinstance(value, dict) and value.keys() == {"sealed"}


def decoded_line(line: bytes) -> Any:
    """A line as JSON values, decimals kept as written."""
    return _SCENARIO.decode(line)


def _shown(value: object) -> str:
    return (
        excerpt(ENCODER.encode(value).decode(), 60)
        if not isinstance(value, str | bytes)
        else excerpt(str(value), 60)
    )


def line_difference(expected: bytes, recorded: bytes) -> str:
    """How the players' copy's line ``recorded`` differs from ``expected``, the referee's line redacted:
    a sealed value whose commitment the referee's value does not meet, or a difference in the clear."""
    found = first_difference(decoded_line(expected), decoded_line(recorded))
    if found is None:
        return "it is written otherwise than the referee's log redacts to"
    pointer, ours, theirs = found
    if _stand_in(ours) and _stand_in(theirs):
        return (
            f"{pointer}: the value the referee's log holds is not the one the players' copy committed to "
            "(a sealed value was changed)"
        )
    return f"{pointer}: the players' copy holds {_shown(theirs)}, the referee's log {_shown(ours)}"


def players_copy(log: LogFile, where: str = "<log>") -> bytes:
    """The players' copy of a whole referee's log read into memory, as ``affray redact`` writes it."""
    seal = Seal(log.header, log.vocabulary, where)
    return encode_log(seal.header(log.header, log.vocabulary.versions), [seal.event(e) for e in log.events])


def copy_difference(copy: RecordedLog, referee: RecordedLog, seal: Seal) -> tuple[str, int]:
    """Where the players' copy is not ``referee`` redacted ("" if it is), and how many values it seals,
    its header's included."""
    expected = encode_header(seal.header(referee.header, referee.vocabulary.versions))
    if expected != copy.header_line:
        return f"line 1 (header): {line_difference(expected, copy.header_line)}", 0
    count = sum(1 for _ in stand_ins(decoded_line(copy.header_line)))
    unpaired: tuple[Event, str] | None = None
    for ours, theirs in zip_longest(referee, copy):
        if ours is None or theirs is None:
            unpaired = (theirs, "the players' copy") if ours is None else (ours, "the referee's log")
            break
        redacted, recorded = ENCODER.encode(seal.event(ours)), ENCODER.encode(theirs)
        if redacted != recorded:
            return f"line {ours.seq + 1} (seq {ours.seq}): {line_difference(redacted, recorded)}", count
        count += sealed_values(theirs)
    for log, which in ((copy, "the players' copy"), (referee, "the referee's log")):
        if log.problem is not None:
            return f"{which}: {log.problem.where()}: {log.problem.message}", count
    if unpaired is not None:
        event, longer = unpaired
        return f"line {event.seq + 1} (seq {event.seq}): {longer} goes on where the other ends", count
    return "", count
