"""A fight laid out on its clock, from the log alone: one lane per combatant with the marks its events
leave (the ruleset's and modules' markers, ``Reading.markers``), the rounds where the ruleset has them,
and each combatant's health over time (its damage points, say), folded from the same log as ``affray state``.

The kinds every ruleset shares are marked here: a refusal, a ruling and going out are instants; going
out ends the combatant's open spans.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import msgspec

from affray.errors import AffrayError, excerpt
from affray.events.base import Event
from affray.events.shared import ActionRefused, CombatantJoined, CombatantOut, EncounterEnded, RulingApplied
from affray.kernel.fold import apply_checked
from affray.kernel.ruleset import Reading, StateDisplay
from affray.kernel.timeline import Close, Instant, Mark, Marker, Span, instant
from affray.replays.looked import Looked

_ZERO = Decimal(0)
SHARED_MARKERS: Mapping[type[Event], Marker] = {
    ActionRefused: instant("refused", "combatant"),
    RulingApplied: lambda event, state: [
        Instant(combatant=event.combatant, kind="ruling", at=event.t, label=event.effect)
    ],
    CombatantOut: lambda event, state: [
        Instant(combatant=event.combatant, kind="out", at=event.t, label=event.reason)
    ],
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
    """Each combatant's health (the ruleset's measure, ``StateDisplay.health``) at each change."""
    side_health: dict[str, list[tuple[int, Decimal]]] = field(default_factory=dict)
    """Each side's health (what its combatants have above 0, summed) at each change."""
    measure: str = "damage points left"
    """What health is measured in, in the ruleset's words (``StateDisplay.health_name``)."""
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

    def standing(self, side: str) -> list[tuple[int, int]]:
        """How many of ``side`` are in the fight, at each change: joining adds one, going out takes one."""
        changes: dict[int, int] = {}
        for lane in self.lanes.values():
            if lane.side == side:
                changes[lane.joined_at] = changes.get(lane.joined_at, 0) + 1
                if lane.out_at is not None:
                    changes[lane.out_at] = changes.get(lane.out_at, 0) - 1
        counted, total = [], 0
        for at in sorted(changes):
            total += changes[at]
            counted.append((at, total))
        if counted and counted[-1][0] < self.fight_end():
            counted.append((self.fight_end(), total))
        return counted


ALL_LANES_UP_TO = 12
"""A fight of up to this many combatants is drawn with a lane for each."""
MOST_INVOLVED = 8
"""A bigger fight is drawn with lanes for this many, the most involved, unless others are asked for."""


@dataclass(frozen=True)
class LaneChoice:
    """The lanes drawn and why (``why`` is "" when every combatant has one)."""

    lanes: list[Lane]
    why: str


def choose_lanes(timeline: Timeline, only: Sequence[str] = ()) -> LaneChoice:
    """The combatants in ``only`` (ids, in that order), else every combatant of a small fight, else the
    ``MOST_INVOLVED`` with the most attacks made and taken, in the order they joined."""
    lanes = list(timeline.lanes.values())
    if only:
        unknown = [who for who in only if who not in timeline.lanes]
        if unknown:
            known = ", ".join(list(timeline.lanes)[:6]) + (", ..." if len(lanes) > 6 else "")
            raise AffrayError(f"--only: no combatant {excerpt(unknown[0])!r} in the log (it holds {known})")
        asked = [timeline.lanes[who] for who in dict.fromkeys(only)]
        return LaneChoice(asked, f"lanes: {len(asked)} of {len(lanes)} combatants, as asked (--only)")
    if len(lanes) <= ALL_LANES_UP_TO:
        return LaneChoice(lanes, "")
    taken: dict[str, int] = {}
    for lane in lanes:
        for mark in lane.instants:
            if mark.target is not None:
                taken[mark.target] = taken.get(mark.target, 0) + 1

    def involvement(lane: Lane) -> int:
        return sum(mark.target is not None for mark in lane.instants) + taken.get(lane.combatant, 0)

    most = set(map(id, sorted(lanes, key=involvement, reverse=True)[:MOST_INVOLVED]))
    chosen = [lane for lane in lanes if id(lane) in most]
    why = (
        f"lanes: the {len(chosen)} most involved of {len(lanes)} combatants (attacks made and taken); "
        "--only ID,... draws others"
    )
    return LaneChoice(chosen, why)


class _Builder:
    """Lays marks out as the events come, keeping the spans not yet closed."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.open: list[Span] = []
        self.kept: dict[tuple[str, str], list[int]] = {}
        """Where each combatant's spans of each kind are in its lane's spans, for a close to cut short."""

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
            self._end(lambda span: span.combatant == mark.combatant, mark.at, mark.combatant)

    def close(self, close: Close) -> None:
        """End the matching open spans at ``close.at``, and cut short the matching longer ones."""

        def matches(span: Span) -> bool:
            labelled = not close.label or span.label == close.label
            return span.combatant == close.combatant and span.kind == close.kind and labelled

        self._end(matches, close.at, close.combatant, close.kind)

    def _end(self, matches: Callable[[Span], bool], at: int, combatant: str, kind: str | None = None) -> None:
        """End the open spans that match at ``at``, and cut short the kept ones of ``combatant`` (of
        ``kind``, when given) that match and go on past it."""
        still = []
        for span in self.open:
            if matches(span):
                self._keep(msgspec.structs.replace(span, end=at))
            else:
                still.append(span)
        self.open = still
        lane = self.timeline.lanes.get(combatant)
        if lane is None:
            return
        where = self.kept.get((combatant, kind), []) if kind is not None else range(len(lane.spans))
        for index in where:
            span = lane.spans[index]
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
            self.kept.setdefault((span.combatant, span.kind), []).append(len(lane.spans))
            lane.spans.append(span)


def build(events: Iterable[Event], reading: Reading, *, scenario: msgspec.Raw, title: str = "") -> Timeline:
    """The timeline of ``events`` (read as they come), marked by ``reading``'s markers; ``scenario`` is
    the header's (its JSON), for what the state does not hold (which parts are vital, say)."""
    vocabulary = reading.vocabulary()
    markers: dict[type[Event], Marker] = {**SHARED_MARKERS, **reading.markers()}
    state = vocabulary.new_state()
    looked = state.combatants = Looked()
    display = reading.ruleset.display
    timeline = Timeline(title=title, measure=display.health_name)
    builder = _Builder(timeline)
    health = _Health(timeline, state, display, display.stock(scenario))
    for event in events:
        apply_checked(vocabulary, state, event)
        if isinstance(event, CombatantJoined):
            timeline.lanes[event.combatant] = Lane(event.combatant, event.name, event.side, event.t)
        marker = markers.get(type(event))
        if marker is not None:
            for mark in marker(event, state):
                builder.mark(mark)
        health.note(event.t, *looked.fresh())
        timeline.end = event.t
        if isinstance(event, EncounterEnded):
            timeline.winner, timeline.end_reason, timeline.ended_at = event.winner, event.reason, event.t
    builder.finish(timeline.end)
    health.finish(timeline.end)
    return timeline


class _Health:
    """Each combatant's and each side's health, noted when it changes."""

    def __init__(self, timeline: Timeline, state: Any, display: StateDisplay, stock: Any) -> None:
        self.timeline = timeline
        self.combatants: dict[str, Any] = state.combatants
        self.display = display
        self.stock = stock
        self.seen: dict[str, tuple[object, object]] = {}
        self.left: dict[str, Decimal] = {}
        self.sides: dict[str, Decimal] = {}

    def note(self, t: int, looked: set[str], everyone: bool) -> None:
        """What changed at ``t`` of the combatants ``looked`` up (or of ``everyone``): a combatant's figures
        are new objects once they change."""
        combatants = self.combatants
        for who in dict.keys(combatants) if everyone else looked:
            combatant = dict.get(combatants, who)
            if combatant is None:
                continue
            figures = (combatant.damage_points, combatant.damage_taken)
            before = self.seen.get(who)
            if before is not None and before[0] is figures[0] and before[1] is figures[1]:
                continue
            self.seen[who] = figures
            now = self.display.health(combatant, self.stock)[0]
            if self.left.get(who) == now:
                continue
            self.timeline.health.setdefault(who, []).append((t, now))
            was = max(self.left.get(who, _ZERO), _ZERO)
            self.left[who] = now
            side = combatant.side
            self.sides[side] = self.sides.get(side, _ZERO) + max(now, _ZERO) - was
            points = self.timeline.side_health.setdefault(side, [])
            if points and points[-1][0] == t:
                points.pop()  # one point a side per instant: those joining together count together
            points.append((t, self.sides[side]))

    def finish(self, end: int) -> None:
        """Every line drawn on to the end."""
        for who, points in self.left.items():
            self.timeline.health[who].append((end, points))
        for side, points in self.sides.items():
            self.timeline.side_health[side].append((end, points))
