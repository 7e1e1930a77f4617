"""Rebuild the encounter's state at a game time or a seq by folding the log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from affray.events.base import Event
from affray.events.vocabulary import Vocabulary
from affray.kernel.fold import fold


def state_at_seq(events: Sequence[Event], seq: int, vocabulary: Vocabulary[Any]) -> Any:
    """The state after the event numbered ``seq`` (0 is before any event)."""
    if not 0 <= seq <= len(events):
        raise ValueError(f"seq {seq} is outside 0..{len(events)}")
    return fold(events[:seq], vocabulary)


def state_at_time(events: Sequence[Event], t_ms: int, vocabulary: Vocabulary[Any]) -> Any:
    """The state once every event at or before game time ``t_ms`` has happened."""
    return fold((event for event in events if event.t <= t_ms), vocabulary)
