"""Rebuild the encounter's state at a game time or a seq by folding the log, read no further than that."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from affray.events.base import Event
from affray.events.vocabulary import Vocabulary
from affray.kernel.fold import apply_checked


class Rebuilt(msgspec.Struct, kw_only=True):
    """A state folded up to a point: ``reached`` when an event past the point was seen (so the events
    hold it), else the events ended first, after ``count`` of them, the last at ``last_t`` ms."""

    state: Any
    reached: bool
    count: int
    last_t: int


def fold_until(
    events: Iterable[Event],
    vocabulary: Vocabulary[Any],
    *,
    seq: int | None = None,
    t_ms: int | None = None,
    start: Rebuilt | None = None,
) -> Rebuilt:
    """The state after the event numbered ``seq``, or once every event at or before game time ``t_ms``
    has happened (neither: after every event), folding ``events`` on from ``start`` (a snapshot's state,
    its count and time; else from nothing). Stops at the first event past the point, unfolded and unread
    beyond; an event that does not fit raises FoldError."""
    state = vocabulary.new_state() if start is None else start.state
    count, last_t = (0, 0) if start is None else (start.count, start.last_t)
    for event in events:
        if (seq is not None and event.seq > seq) or (t_ms is not None and event.t > t_ms):
            return Rebuilt(state=state, reached=True, count=count, last_t=last_t)
        apply_checked(vocabulary, state, event)
        count, last_t = count + 1, event.t
    return Rebuilt(state=state, reached=False, count=count, last_t=last_t)
