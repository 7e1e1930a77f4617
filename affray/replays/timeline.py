"""A fight laid out on its clock, from the log alone: one lane per combatant with the marks its events
leave (the ruleset's and modules' markers, ``Reading.markers``), the rounds where the ruleset has them,
and each combatant's damage points over time, folded from the same log as ``affray state``.

The kinds every ruleset shares are marked here: a refusal, a ruling and going out are instants; going
out ends the combatant's open spans.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import msgspec

from affray.events.base import Event
from affray.events.shared import ActionRefused, CombatantJoined, CombatantOut, EncounterEnded, RulingApplied
from affray.kernel.fold import apply_checked
from affray.kernel.ruleset import Reading
from affray.kernel.timeline import Close, Instant, Mark, Marker, Span, instant

SHARED_MARKERS: Mapping[type[Event], Marker] = {
    ActionRefused: instant("refused", "combatant"),
    RulingApplied: lambda e, s: [Instant(combatant=e.combatant, kind="ruling", at=e.t, label=e.effect)],
    CombatantOut: lambda e, s: [Instant(combatant=e.combatant, kind="out", at=e.t, label=e.reason)],
}
"""The marks of the kinds every ruleset shares."""


@dataclass
class Lane:
    """One combatant's lane: when it joined, its spans (closed), its instants, and when it went out."""

    combatant: str
    name: str
    side: str
    joined_at: int = 0
    spans: list[Span] = field(default_factory=list)
    instants: list[Instant] = field(default_factory=list)
    out_at: int | None = None


@dataclass
class Timeline:
    """A whole fight on its clock: lanes in the order combatants joined, the rounds (fivestep's, say),
    each combatant's damage points left at each change, and the end."""

    title: str
    lanes: dict[str, Lane] = field(default_factory=dict)
    rounds: list[Span] = field(default_factory=list)
    health: dict[str, list[tuple[int, Decimal]]] = field(default_factory=dict)
    damage_points: dict[str, Decimal] = field(default_factory=dict)
    end: int = 0
    """The last event's time (an aftermath of healing may run on for days after the fight)."""
    ended_at: int | None = None
    """When the encounter ended (None: the log has no end of it)."""
    winner: str | None = None
    end_reason: str = ""

    def fight_end(self) -> int:
        """When the fight ended: the encounter's end, else the last event."""
        return self.end if self.ended_at is None else self.ended_at

    def sides(self) -> list[str]:
        """The sides, in the order their first combatant joined."""
        return list(dict.fromkeys(lane.side for lane in self.lanes.values()))


class _Builder:
    """Lays marks out as the events come, keeping the spans not yet closed."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.open: list[Span] = []

    def mark(self, mark: Mark) -> None:
        if isinstance(mark, Close):
            self.close(mark)
        elif isinstance(mark, Span):
            self.span(mark)
        else:
            self.instant(mark)

    def span(self, span: Span) -> None:
        if span.end is None:
            self.open.append(span)
        else:
            self._keep(span)

    def instant(self, mark: Instant) -> None:
        lane = self.timeline.lanes.get(mark.combatant)
        if lane is None:
            return
        last = lane.instants[-1] if lane.instants else None
        same = last is not None and (last.at, last.target, last.kind) == (mark.at, mark.target, mark.kind)
        if same and last is not None and last.damage is None and mark.damage is not None:
            lane.instants[-1] = mark  # the damage of the hit just marked, told by an event of its own
        else:
            lane.instants.append(mark)
        if mark.kind == "out":
            lane.out_at = mark.at
            self._end(lambda span: span.combatant == mark.combatant, mark.at)

    def close(self, close: Close) -> None:
        """End the matching open spans at ``close.at``, and cut short the matching longer ones."""

        def matches(span: Span) -> bool:
            labelled = not close.label or span.label == close.label
            return span.combatant == close.combatant and span.kind == close.kind and labelled

        self._end(matches, close.at)

    def _end(self, matches: Callable[[Span], bool], at: int) -> None:
        still = []
        for span in self.open:
            if matches(span):
                self._keep(msgspec.structs.replace(span, end=at))
            else:
                still.append(span)
        self.open = still
        for lane in self.timeline.lanes.values():
            for index, span in enumerate(lane.spans):
                if matches(span) and span.end is not None and span.end > at >= span.start:
                    lane.spans[index] = msgspec.structs.replace(span, end=at)

    def finish(self, end: int) -> None:
        """Close what is still open at the fight's end."""
        for span in self.open:
            self._keep(msgspec.structs.replace(span, end=end))
        self.open = []

    def _keep(self, span: Span) -> None:
        if span.combatant == "":
            self.timeline.rounds.append(span)
            return
        lane = self.timeline.lanes.get(span.combatant)
        if lane is not None:
            lane.spans.append(span)


def build(events: Iterable[Event], reading: Reading, title: str = "") -> Timeline:
    """The timeline of ``events`` (read as they come), marked by ``reading``'s markers."""
    vocabulary = reading.vocabulary()
    markers: dict[type[Event], Marker] = {**SHARED_MARKERS, **reading.markers()}
    state = vocabulary.new_state()
    timeline = Timeline(title=title)
    builder = _Builder(timeline)
    left: dict[str, Decimal] = {}
    for event in events:
        apply_checked(vocabulary, state, event)
        if isinstance(event, CombatantJoined):
            timeline.lanes[event.combatant] = Lane(event.combatant, event.name, event.side, event.t)
            timeline.damage_points[event.combatant] = event.damage_points
        marker = markers.get(type(event))
        if marker is not None:
            for mark in marker(event, state):
                builder.mark(mark)
        _note_health(timeline, state, event.t, left)
        timeline.end = event.t
        if isinstance(event, EncounterEnded):
            timeline.winner, timeline.end_reason, timeline.ended_at = event.winner, event.reason, event.t
    builder.finish(timeline.end)
    for who, points in left.items():
        timeline.health[who].append((timeline.end, points))
    return timeline


def _note_health(timeline: Timeline, state: Any, t: int, left: dict[str, Decimal]) -> None:
    """Each combatant's damage points left, noted when they change."""
    for who, combatant in state.combatants.items():
        now = combatant.damage_left
        if left.get(who) != now:
            timeline.health.setdefault(who, []).append((t, now))
            left[who] = now
