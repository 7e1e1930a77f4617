"""What a fight looks like on its clock: the marks a ruleset's events leave on each combatant's lane.

A marker takes one event and the state right after it and returns the marks it leaves: a :class:`Span`
(something that lasts: perceiving, reacting, readying a weapon, aiming, casting, a hold, a turn), an
:class:`Instant` (an attack and its outcome, a refusal, a ruling, going out) or a :class:`Close` (the end
of a span begun earlier whose end was not known then: an aim ended by the shot, a hold broken). A ruleset
and a module give a marker per kind (``Ruleset.markers``); ``affray timeline`` and ``affray view`` draw
them, and know none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any, Literal

import msgspec

SpanKind = Literal[
    "perception", "reaction", "initiative", "aim", "cast", "hold", "condition", "turn", "action", "round"
]
"""What a span is, for its look and the legend."""
InstantKind = Literal["hit", "miss", "parried", "refused", "lost", "ruling", "out", "check", "subturn"]
"""What an instant is."""


class Span(msgspec.Struct, frozen=True, kw_only=True):
    """Something ``combatant`` did or underwent from ``start`` to ``end`` ms (None: until a Close, the
    combatant going out or the end of the fight). A ``round`` span has no combatant ("") and spans every
    lane."""

    combatant: str
    kind: SpanKind
    start: int
    end: int | None
    label: str = ""


class Instant(msgspec.Struct, frozen=True, kw_only=True):
    """A moment on ``combatant``'s lane: an attack's outcome (on ``target``, with its ``damage``), a
    refusal, a ruling, going out."""

    combatant: str
    kind: InstantKind
    at: int
    label: str = ""
    target: str | None = None
    damage: Decimal | None = None


class Close(msgspec.Struct, frozen=True, kw_only=True):
    """The end, at ``at``, of ``combatant``'s spans of ``kind`` still going then (only those labelled
    ``label``, when given): an open span ends there, a longer one is cut short."""

    combatant: str
    kind: SpanKind
    at: int
    label: str = ""


Mark = Span | Instant | Close
Marker = Callable[[Any, Any], Sequence[Mark]]
"""``marker(event, state_after)``: the marks one kind's event leaves."""


def instant(kind: InstantKind, combatant: str) -> Marker:
    """A marker for a kind whose every event is one instant of ``kind`` on the lane of the event's field
    ``combatant`` (a field name), labelled with the event's ``reason`` if it has one."""

    def marks(event: Any, state: Any) -> Sequence[Mark]:
        who = getattr(event, combatant)
        return [Instant(combatant=who, kind=kind, at=event.t, label=getattr(event, "reason", ""))]

    return marks
