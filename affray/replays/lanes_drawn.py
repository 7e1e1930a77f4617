"""The lanes of a timeline drawn on one matplotlib axes: a lane per combatant with its spans, its instants
and the damage of its hits, and the rounds behind them.

Each kind of mark is one collection (a PolyCollection of its spans, a scatter of its instants), however
many there are. A hit's damage is written above its mark, or below when that would touch the label before
it; when both would, it is left out, so labels never lie on labels at the scale drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from affray.kernel.clock import MS_PER_SECOND
from affray.kernel.timeline import Instant, Span
from affray.replays.telling import number
from affray.replays.timeline import Lane, Timeline

if TYPE_CHECKING:
    from matplotlib.axes import Axes

SPAN_LOOKS: dict[str, dict[str, Any]] = {
    "perception": {"color": "#e0e0e0", "label": "perceiving"},
    "reaction": {"color": "#bdbdbd", "label": "reacting"},
    "initiative": {"color": "#9ecae1", "label": "readying a weapon"},
    "aim": {"color": "#fdd0a2", "hatch": "///", "label": "aiming"},
    "cast": {"color": "#bcbddc", "hatch": "..", "label": "casting a spell"},
    "hold": {"color": "#e7969c", "hatch": "xx", "label": "held"},
    "condition": {"color": "#fcae91", "label": "a condition"},
    "turn": {"color": "#d4d4e6", "label": "its turn's points spent"},
    "action": {"color": "#c7e9c0", "label": "moving or waiting"},
}
INSTANT_LOOKS: dict[str, dict[str, Any]] = {
    "hit": {"marker": "o", "filled": True, "size": 60, "label": "hit (damage above)"},
    "miss": {"marker": "x", "filled": True, "size": 45, "label": "miss"},
    "parried": {"marker": "s", "filled": False, "size": 45, "label": "parried or avoided"},
    "refused": {"marker": ".", "filled": True, "size": 30, "label": "action refused"},
    "lost": {"marker": "v", "filled": False, "size": 45, "label": "spell lost"},
    "ruling": {"marker": "*", "filled": True, "size": 140, "label": "referee's ruling"},
    "check": {"marker": "d", "filled": False, "size": 40, "label": "special damage"},
    "out": {"marker": "X", "filled": True, "size": 150, "label": "out of the fight"},
    "subturn": {"marker": "|", "filled": True, "size": 40, "label": "a sub-turn begins"},
}
CONDITION_COLOURS = ("#fcae91", "#c994c7", "#fdbf6f", "#b2df8a", "#a6cee3", "#cab2d6", "#ffff99", "#fb9a99")
"""Each condition (its label: stunned, unconscious, an arm disabled...) in its own colour, in the order
they first appear; the legend names each."""
ON_TOP = {"ruling": 5, "out": 6}
"""Instants drawn over any other at the same moment: going out above all."""
LOW_SPANS = ("condition", "hold")
"""Spans drawn as a thin bar under the lane, so they show beside the others."""
CHARACTERS_ACROSS = 150
"""About how many characters of a 7-point label fit across the lanes (13 inches, less the names)."""
ABOVE, BELOW = 0.26, -0.42


class Window:
    """The stretch of the fight drawn, in seconds."""

    def __init__(self, timeline: Timeline, start: float | None, end: float | None) -> None:
        self.start = 0.0 if start is None else start
        self.end = timeline.fight_end() / MS_PER_SECOND if end is None else end
        if self.end <= self.start:
            self.end = self.start + 1

    def holds(self, ms: int) -> bool:
        """Whether ``ms`` is drawn."""
        return self.start <= ms / MS_PER_SECOND <= self.end

    def shows(self, span: Span) -> bool:
        """Whether any of ``span`` is drawn."""
        end = span.start if span.end is None else span.end
        return span.start / MS_PER_SECOND <= self.end and end / MS_PER_SECOND >= self.start

    def character(self) -> float:
        """The seconds one label character takes at this scale."""
        return (self.end - self.start) / CHARACTERS_ACROSS


def draw_lanes(axes: Axes, lanes: Sequence[Lane], colours: dict[str, str], window: Window) -> None:
    """``lanes`` top to bottom: each combatant's line while in the fight, its spans, instants and labels."""
    rows = {lane.combatant: row for row, lane in enumerate(reversed(lanes))}
    _lifelines(axes, lanes, rows, colours, window)
    _spans(axes, [span for lane in lanes for span in lane.spans], rows, condition_colours(lanes))
    tints = {lane.combatant: colours[lane.side] for lane in lanes}
    _instants(axes, [mark for lane in lanes for mark in lane.instants if window.holds(mark.at)], rows, tints)
    for lane in lanes:
        _labels(axes, lane, rows[lane.combatant], colours[lane.side], window)
    axes.set_yticks(range(len(lanes)), [f"{lane.name} ({lane.side})" for lane in reversed(lanes)])
    axes.set_ylim(-0.8, len(lanes) - 0.2)
    axes.grid(axis="x", color="#eeeeee", linewidth=0.6)


def _lifelines(
    axes: Axes, lanes: Sequence[Lane], rows: dict[str, int], colours: dict[str, str], window: Window
) -> None:
    """A solid line while each is in the fight, dotted after it went out."""
    alive: list[tuple[int, float, float, str]] = []
    gone: list[tuple[int, float, float]] = []
    for lane in lanes:
        row = rows[lane.combatant]
        first = max(lane.joined_at / MS_PER_SECOND, window.start)
        last = min(lane.out_at / MS_PER_SECOND, window.end) if lane.out_at is not None else window.end
        if last > first:
            alive.append((row, first, last, colours[lane.side]))
        if lane.out_at is not None:
            gone.append((row, max(last, window.start), window.end))
    if alive:
        ys, starts, ends, tints = zip(*alive, strict=True)
        axes.hlines(ys, starts, ends, colors=list(tints), linewidth=1.2, zorder=3)
    if gone:
        ys, starts, ends = zip(*gone, strict=True)
        axes.hlines(ys, starts, ends, colors="#bbbbbb", linewidth=0.8, linestyles="dotted", zorder=1)


def condition_colours(lanes: Sequence[Lane]) -> dict[str, str]:
    """The colour of each condition the lanes show, by its label, in the order they first appear."""
    labels = dict.fromkeys(span.label for lane in lanes for span in lane.spans if span.kind == "condition")
    return {label: CONDITION_COLOURS[i % len(CONDITION_COLOURS)] for i, label in enumerate(labels)}


def _spans(axes: Axes, spans: Sequence[Span], rows: dict[str, int], conditions: dict[str, str]) -> None:
    """Each kind of span (each condition apart) as one collection of bars."""
    from matplotlib.collections import PolyCollection

    by_look: dict[tuple[str, str], list[list[tuple[float, float]]]] = {}
    for span in spans:
        assert span.end is not None
        row = rows[span.combatant]
        low, high = (row - 0.46, row - 0.30) if span.kind in LOW_SPANS else (row - 0.18, row + 0.18)
        start = span.start / MS_PER_SECOND
        end = start + max((span.end - span.start) / MS_PER_SECOND, 0.05)
        colour = conditions[span.label] if span.kind == "condition" else SPAN_LOOKS[span.kind]["color"]
        by_look.setdefault((span.kind, colour), []).append(
            [(start, low), (end, low), (end, high), (start, high)]
        )
    for (kind, colour), bars in by_look.items():
        hatched = SPAN_LOOKS[kind].get("hatch")
        axes.add_collection(
            PolyCollection(
                bars,
                facecolors=colour,
                edgecolors="#777777" if hatched else "none",
                hatch=hatched,
                linewidths=0.3,
                zorder=2,
            )
        )


@dataclass(frozen=True)
class _Look:
    """How one group of instants is drawn: its kind and its colour."""

    kind: str
    tint: str


def _instants(axes: Axes, marks: Sequence[Instant], rows: dict[str, int], tints: dict[str, str]) -> None:
    """Each kind of instant in each colour as one scatter."""
    groups: dict[_Look, list[tuple[float, int]]] = {}
    for mark in marks:
        tint = (
            "black" if mark.kind == "out" else "#b8860b" if mark.kind == "ruling" else tints[mark.combatant]
        )
        groups.setdefault(_Look(mark.kind, tint), []).append((mark.at / MS_PER_SECOND, rows[mark.combatant]))
    for look, points in groups.items():
        shape = INSTANT_LOOKS[look.kind]
        line_only = shape["marker"] in ("x", ".", "+", "|")
        xs, ys = zip(*points, strict=True)
        axes.scatter(
            xs,
            ys,
            marker=shape["marker"],
            s=shape["size"],
            c=look.tint if shape["filled"] else "white",
            edgecolors=None if line_only else look.tint,
            linewidths=1.2,
            zorder=ON_TOP.get(look.kind, 4),
        )


def _labels(axes: Axes, lane: Lane, row: int, colour: str, window: Window) -> None:
    """The damage of each hit above its mark, below when above would touch the label before; left out
    when both would."""
    character = window.character()
    ends = {ABOVE: float("-inf"), BELOW: float("-inf")}
    for mark in lane.instants:
        if mark.kind != "hit" or not mark.damage or not window.holds(mark.at):
            continue  # a hit of no damage says so by its mark alone
        text = number(mark.damage)
        x = mark.at / MS_PER_SECOND
        half = (len(text) + 1) * character / 2
        level = next((level for level in (ABOVE, BELOW) if x - half > ends[level]), None)
        if level is None:
            continue
        ends[level] = x + half
        axes.annotate(text, (x, row + level), fontsize=7, ha="center", color=colour, zorder=7)


def draw_rounds(axes: Axes, rounds: Sequence[Span], window: Window) -> None:
    """Rounds (where the ruleset has them) as alternate shaded bands, numbered at the top where the
    numbers have room."""
    from matplotlib.collections import PolyCollection
    from matplotlib.transforms import blended_transform_factory

    across = blended_transform_factory(axes.transData, axes.transAxes)
    bands = []
    last_label = float("-inf")
    for index, span in enumerate(rounds):
        assert span.end is not None
        start, end = span.start / MS_PER_SECOND, span.end / MS_PER_SECOND
        if index % 2 == 0:
            bands.append([(start, 0.0), (end, 0.0), (end, 1.0), (start, 1.0)])
        room = (len(span.label) + 1) * window.character()
        if window.holds(span.start) and start >= last_label + room:
            axes.annotate(
                span.label,
                (start, 1.0),
                xycoords=("data", "axes fraction"),
                fontsize=7,
                color="#666666",
                va="bottom",
            )
            last_label = start
    if bands:
        axes.add_collection(
            PolyCollection(bands, facecolors="#f4f4fb", edgecolors="none", zorder=0, transform=across)
        )
