"""Where two logs of one ruleset part, field by field, and how their outcomes differ.

Both logs are read side by side, each folded as it goes, so a diff takes memory for two states and two
lines. Events are compared by the bytes they are written as, less the chain (``prev``), so logs with
different headers (another seed, scenario, rule or table) still compare event by event. Values are
compared leaf by leaf: ``damage.damage`` is the ``damage`` member of an event's ``damage`` member,
``position[0]`` the first coordinate.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from itertools import zip_longest
from typing import Any, Protocol

import msgspec

from affray.errors import LogError, excerpt
from affray.events.base import Event
from affray.events.codec import ENCODER, LogHeader
from affray.events.shared import CombatantOut
from affray.events.vocabulary import Vocabulary
from affray.kernel.clock import game_time
from affray.kernel.fold import FoldError, apply_checked
from affray.replays.telling import number


class FieldDifference(msgspec.Struct, frozen=True):
    """One leaf that differs: its path, and its value on each side (None where a side lacks it)."""

    path: str
    a: Any
    b: Any

    def shown(self, limit: int = 60) -> tuple[str, str]:
        """Each side's value as a table shows it; a number written otherwise on each side (``3.0`` and
        ``3.000``, which are equal) as each side writes it."""
        if written_otherwise(self.a, self.b):
            return str(self.a), str(self.b)
        return shown(self.a, limit), shown(self.b, limit)


def written_otherwise(a: Any, b: Any) -> bool:
    """Two equal decimals written otherwise: ``3.0`` and ``3.000`` are one number and two lines."""
    return isinstance(a, Decimal) and isinstance(b, Decimal) and a == b and a.as_tuple() != b.as_tuple()


_MISSING = object()
_SCENARIO = msgspec.json.Decoder(dict[str, Any], float_hook=Decimal)
_NOT_COMPARED = ("affray_version", "scenario")
NESTING_LIMIT = 64
"""The deepest a header's scenario may nest for diff to compare it, leaf by leaf. No scenario affray reads
nests more than a few levels; a forged header nested hundreds deep would exhaust Python's stack."""


def differences(a: Any, b: Any, path: str = "") -> list[FieldDifference]:
    """The leaves where two values built of dicts, lists and scalars differ, by path; a leaf one side
    lacks is None on that side; a sealed value is a leaf."""
    if isinstance(a, dict) and isinstance(b, dict) and not (_sealed(a) or _sealed(b)):
        return _mapping_differences(a, b, path)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        return [
            d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in differences(x, y, f"{path}[{i}]")
        ]
    if a == b and type(a) is type(b) and not written_otherwise(a, b):
        return []
    return [FieldDifference(path, None if a is _MISSING else a, None if b is _MISSING else b)]


def _sealed(value: Any) -> bool:
    """Whether a plain value is a players' copy's sealed value (``{"sealed": COMMITMENT}``)."""
    return isinstance(value, dict) and value.keys() == {"sealed"}


def _mapping_differences(a: dict[str, Any], b: dict[str, Any], path: str) -> list[FieldDifference]:
    """Where two mappings differ, key by key: ``a``'s keys in order, then those only ``b`` has."""
    differing: list[FieldDifference] = []
    for key in [*a, *(k for k in b if k not in a)]:
        differing += differences(a.get(key, _MISSING), b.get(key, _MISSING), f"{path}.{key}" if path else key)
    return differing


def plain(value: msgspec.Struct) -> Any:
    """A struct as dicts, lists and scalars, decimals kept as decimals."""
    return msgspec.to_builtins(value, builtin_types=(Decimal,))


def plain_value(value: Any) -> Any:
    """A header's field as dicts, lists and scalars (a struct in it too); UNSET stays UNSET."""
    return plain(value) if isinstance(value, msgspec.Struct) else value


def event_differences(a: Event, b: Event) -> list[FieldDifference]:
    """How two events differ, field by field (the kind first, when they are of different kinds)."""
    return differences(plain(a), plain(b))


def header_differences(
    a: LogHeader, b: LogHeader, names: tuple[str, str] = ("A", "B")
) -> list[FieldDifference]:
    """How two headers differ, the scenario's fields by their path under ``scenario``; the affray version
    that wrote a log is not a difference. A scenario nested deeper than ``NESTING_LIMIT`` is a LogError
    naming its log (by ``names``)."""
    return differences(_comparable(a, names[0]), _comparable(b, names[1]))


def _comparable(header: LogHeader, name: str) -> dict[str, Any]:
    fields = {f: plain_value(getattr(header, f)) for f in header.__struct_fields__ if f not in _NOT_COMPARED}
    fields = {f: value for f, value in fields.items() if value is not msgspec.UNSET}
    try:
        scenario = _SCENARIO.decode(header.scenario)
    except RecursionError:
        scenario = None
    if scenario is None or _nests_deeper(scenario, NESTING_LIMIT):
        raise LogError(
            f"{name}: line 1 (header): its scenario nests more than {NESTING_LIMIT} deep, which no scenario "
            "affray reads does; it cannot be compared"
        )
    return {**fields, "scenario": scenario}


def _nests_deeper(value: Any, limit: int) -> bool:
    """Whether dicts and lists in ``value`` nest more than ``limit`` deep (walked without recursion)."""
    level = [value]
    for _ in range(limit):
        level = [
            inner
            for outer in level
            for inner in (
                outer.values() if isinstance(outer, dict) else outer if isinstance(outer, list) else ()
            )
        ]
        if not level:
            return False
    return any(isinstance(inner, dict | list) for inner in level)


class CombatantOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """How one combatant came out of a fight."""

    side: str
    damage_dealt: Decimal
    damage_taken: Decimal
    out_at: int | None
    out_reason: str | None


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a log ends: its events, the time of its last, the winner and why it ended, and each
    combatant's outcome."""

    events: int
    t: int
    ended: bool
    winner: str | None
    end_reason: str | None
    combatants: dict[str, CombatantOutcome]


class ReadLog(Protocol):
    """A log being read (``LogReader``) or read whole (``LogFile``)."""

    header: LogHeader
    vocabulary: Vocabulary[Any]

    def __iter__(self) -> Iterator[Event]: ...


class _Folded:
    """A log's events folded as they are read, noting when each combatant went out."""

    def __init__(self, vocabulary: Vocabulary[Any], name: str) -> None:
        self.vocabulary = vocabulary
        self.name = name
        self.state = vocabulary.new_state()
        self.count = 0
        self.out_at: dict[str, int] = {}

    def apply(self, event: Event | None) -> None:
        if event is None:
            return
        try:
            apply_checked(self.vocabulary, self.state, event)
        except FoldError as exc:
            raise FoldError(f"{self.name}: {exc}") from None
        self.count += 1
        if isinstance(event, CombatantOut):
            self.out_at.setdefault(event.combatant, event.t)

    def outcome(self) -> Outcome:
        s = self.state
        return Outcome(
            events=self.count,
            t=s.t,
            ended=s.ended,
            winner=s.winner,
            end_reason=s.end_reason,
            combatants={
                c.id: CombatantOutcome(
                    side=c.side,
                    damage_dealt=c.damage_dealt,
                    damage_taken=c.damage_taken,
                    out_at=self.out_at.get(c.id),
                    out_reason=c.out_reason,
                )
                for c in s.combatants.values()
            },
        )


class Parting(msgspec.Struct, frozen=True, kw_only=True):
    """The first seq at which two logs part: each side's event there (None past its last) and how they
    differ."""

    seq: int
    a: Any
    b: Any
    fields: list[FieldDifference]


class LogDiff(msgspec.Struct, frozen=True, kw_only=True):
    """Two logs compared: their headers, where their events part (None when they never do), and each
    one's outcome."""

    header: list[FieldDifference]
    parting: Parting | None
    a: Outcome
    b: Outcome

    @property
    def same(self) -> bool:
        """The headers and every event are the same."""
        return not self.header and self.parting is None


def _parting(seq: int, a: Event | None, b: Event | None) -> Parting:
    fields = event_differences(a, b) if a is not None and b is not None else []
    return Parting(
        seq=seq, a=None if a is None else plain(a), b=None if b is None else plain(b), fields=fields
    )


def diff_logs(a: ReadLog, b: ReadLog, names: tuple[str, str] = ("A", "B")) -> LogDiff:
    """Compare two logs; an event of either that does not fold raises FoldError naming its log (by
    ``names``)."""
    left, right = _Folded(a.vocabulary, names[0]), _Folded(b.vocabulary, names[1])
    parting: Parting | None = None
    for seq, (x, y) in enumerate(zip_longest(a, b), start=1):
        left.apply(x)
        right.apply(y)
        if parting is None and (x is None or y is None or ENCODER.encode(x) != ENCODER.encode(y)):
            parting = _parting(seq, x, y)
    return LogDiff(
        header=header_differences(a.header, b.header, names),
        parting=parting,
        a=left.outcome(),
        b=right.outcome(),
    )


# -- for people ----------------------------------------------------------------------------------------

_CELL = 60


_PLAIN = 10**30
"""Integers below this are shown with every digit (a seed has 19 at most); larger ones, which only a
hostile log holds, as number() shows them."""


def shown(value: Any, limit: int = _CELL) -> str:
    """A value in a table cell: numbers as told, strings bare, None as ``-``, a sealed value as ``sealed``
    and its commitment's first digits, the rest as JSON; at most ``limit`` characters (60 in a table)."""
    if _sealed(value):
        text = f"sealed ({str(value['sealed'])[:8]})"
    elif value is None:
        text = "-"
    elif isinstance(value, bool):
        text = str(value).lower()
    elif isinstance(value, int) and abs(value) < _PLAIN:
        text = str(value)  # a seed, a count: every digit (number() shows a huge figure in e-notation)
    elif isinstance(value, Decimal | int):
        text = number(value)
    elif isinstance(value, str):
        text = value
    else:
        text = ENCODER.encode(value).decode()
    return excerpt(text, limit)


def field_table(fields: list[FieldDifference], a: str = "A", b: str = "B") -> list[str]:
    """Rows of path, A's value and B's value, aligned."""
    cells = [(f.path, *f.shown()) for f in fields]
    if not cells:
        return []
    width = max(len(path) for path, _, _ in cells)
    column = max(len(a), *(len(left) for _, left, _ in cells))
    rows = [f"  {'':<{width}}  {a:<{column}}  {b}"]
    rows += [f"  {path:<{width}}  {left:<{column}}  {right}" for path, left, right in cells]
    return rows


def _fate(c: CombatantOutcome | None) -> str:
    if c is None:
        return "not in this fight"
    fate = "standing" if c.out_at is None else f"out at {game_time(c.out_at)}"
    return f"dealt {number(c.damage_dealt)}, took {number(c.damage_taken)}, {fate}"


def outcome_differences(a: Outcome, b: Outcome) -> list[FieldDifference]:
    """The outcome rows that differ: winner, end, end reason, and each combatant's fate."""
    rows = [
        FieldDifference("winner", a.winner or "no winner", b.winner or "no winner"),
        FieldDifference("ends at", game_time(a.t), game_time(b.t)),
        FieldDifference("end reason", a.end_reason, b.end_reason),
        FieldDifference("events", a.events, b.events),
    ]
    for name in [*a.combatants, *(n for n in b.combatants if n not in a.combatants)]:
        rows.append(FieldDifference(name, _fate(a.combatants.get(name)), _fate(b.combatants.get(name))))
    return [row for row in rows if row.a != row.b]


def tell_diff(diff: LogDiff, a: str, b: str) -> list[str]:
    """The diff as lines for people: the headers, the parting event side by side, the outcome."""
    if diff.same:
        return [f"{a} and {b} hold the same header and the same {diff.a.events} events"]
    lines: list[str] = []
    if diff.header:
        lines += ["the headers differ:", *field_table(diff.header)]
    parting = diff.parting
    if parting is None:
        lines.append(f"the events are the same ({diff.a.events})")
    else:
        lines += _tell_parting(parting)
    changed = outcome_differences(diff.a, diff.b)
    if changed:
        lines += ["the outcome differs:", *field_table(changed)]
    else:
        winner = f"side {diff.a.winner} wins" if diff.a.winner else "no winner"
        lines.append(f"the outcome is the same: {winner} at {game_time(diff.a.t)}")
    return lines


def _tell_parting(parting: Parting) -> list[str]:
    seq = parting.seq
    if parting.a is None or parting.b is None:
        longer, shorter = ("B", "A") if parting.a is None else ("A", "B")
        event = parting.b if parting.a is None else parting.a
        return [f"{shorter} ends at seq {seq - 1}; {longer} goes on with {event['kind']} at seq {seq}"]
    when = game_time(min(parting.a.get("t", 0), parting.b.get("t", 0)))
    kinds = parting.a["kind"], parting.b["kind"]
    both = f", {kinds[0]} in both" if kinds[0] == kinds[1] else ""
    return [f"the logs part at seq {seq} ({when}{both}):", *field_table(parting.fields)]
