"""A timeline drawn for people (``affray timeline``): one lane per combatant on the seconds axis, and under
it each combatant's damage points over time. matplotlib with the Agg backend; PNG, SVG or PDF by the
file's suffix.

Sides have distinct colours (lanes, attack marks and damage lines alike); what a span or an instant is
shows by its shape and fill, named in the legend. Damage labels on the same lane alternate above and
below when they would touch at the scale drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, BinaryIO

from affray.colours import SIDE_COLOURS
from affray.drawing import plain_pyplot
from affray.kernel.clock import MS_PER_SECOND, game_time
from affray.replays.telling import number
from affray.replays.timeline import Lane, Timeline

if TYPE_CHECKING:
    from matplotlib.axes import Axes

FORMATS = (".png", ".svg", ".pdf")
"""The picture formats, by suffix."""
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


def draw(
    timeline: Timeline, output: BinaryIO, picture: str, start: float | None = None, end: float | None = None
) -> None:
    """Draw ``timeline`` into ``output`` (an open binary file) as a ``picture`` (png, svg or pdf), between
    ``start`` and ``end`` seconds (by default the fight, up to the encounter's end: an aftermath of days is
    drawn with ``--to``)."""
    with plain_pyplot() as pyplot:
        _draw(pyplot, timeline, output, picture, Window(timeline, start, end))


def _draw(pyplot: Any, timeline: Timeline, output: BinaryIO, picture: str, window: Window) -> None:
    """The figure drawn and saved (under ``plain_pyplot``)."""
    lanes = list(timeline.lanes.values())
    colours = {side: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(timeline.sides())}
    height = 2.2 + 0.42 * len(lanes) + 2.4
    figure, (top, bottom) = pyplot.subplots(
        2, 1, sharex=True, figsize=(13, height), gridspec_kw={"height_ratios": [0.42 * len(lanes) + 0.6, 2.4]}
    )
    try:
        _rounds(top, timeline, window)
        for row, lane in enumerate(reversed(lanes)):
            _lane(top, row, lane, colours[lane.side], window)
        top.set_yticks(range(len(lanes)), [f"{lane.name} ({lane.side})" for lane in reversed(lanes)])
        top.set_ylim(-0.8, len(lanes) - 0.2)
        top.grid(axis="x", color="#eeeeee", linewidth=0.6)
        top.set_title(_title(timeline), loc="left", fontsize=11)
        _health(bottom, timeline, colours, window)
        margin = (window.end - window.start) * 0.015
        bottom.set_xlim(window.start - margin, window.end + margin)
        bottom.set_xlabel("game time (s)")
        rows = _legend(figure, timeline, colours)
        figure.tight_layout(rect=(0, 0.03 + 0.035 * rows, 1, 1))
        figure.savefig(output, format=picture, dpi=110)
    finally:
        pyplot.close(figure)


def _title(timeline: Timeline) -> str:
    ended = game_time(timeline.fight_end())
    outcome = f"side {timeline.winner} wins at {ended}" if timeline.winner else f"no winner ({ended})"
    return f"{timeline.title}: {outcome}" + (f" - {timeline.end_reason}" if timeline.end_reason else "")


def _rounds(axes: Axes, timeline: Timeline, window: Window) -> None:
    """Rounds (where the ruleset has them) as alternate shaded bands, numbered at the top."""
    for index, span in enumerate(timeline.rounds):
        assert span.end is not None
        if index % 2 == 0:
            axes.axvspan(span.start / MS_PER_SECOND, span.end / MS_PER_SECOND, color="#f4f4fb", zorder=0)
        if window.holds(span.start):
            axes.annotate(
                span.label,
                (span.start / MS_PER_SECOND, 1.0),
                xycoords=("data", "axes fraction"),
                fontsize=7,
                color="#666666",
                va="bottom",
            )


def _lane(axes: Axes, row: int, lane: Lane, colour: str, window: Window) -> None:
    """One combatant: its line while in the fight, its spans, its instants and damage labels."""
    first = max(lane.joined_at / MS_PER_SECOND, window.start)
    last = min(lane.out_at / MS_PER_SECOND, window.end) if lane.out_at is not None else window.end
    if last > first:
        axes.hlines(row, first, last, color=colour, linewidth=1.2, zorder=3)
    if lane.out_at is not None:
        gone = max(last, window.start)
        axes.hlines(row, gone, window.end, color="#bbbbbb", linewidth=0.8, linestyles="dotted", zorder=1)
    for span in lane.spans:
        assert span.end is not None
        look = SPAN_LOOKS[span.kind]
        offset = -0.28 if span.kind in ("condition", "hold") else 0.0
        axes.broken_barh(
            [(span.start / MS_PER_SECOND, max((span.end - span.start) / MS_PER_SECOND, 0.05))],
            (row - 0.18 + offset, 0.36 if offset == 0 else 0.16),
            facecolors=look["color"],
            hatch=look.get("hatch"),
            edgecolor="#777777" if look.get("hatch") else "none",
            linewidth=0.3,
            zorder=2,
        )
    _instants(axes, row, lane, colour, window)


def _instants(axes: Axes, row: int, lane: Lane, colour: str, window: Window) -> None:
    above, last_label, last_width = True, None, 0.0
    per_character = (window.end - window.start) / 190  # seconds a label's character takes at this scale
    for mark in lane.instants:
        if not window.holds(mark.at):
            continue
        look = INSTANT_LOOKS[mark.kind]
        x = mark.at / MS_PER_SECOND
        tint = "black" if mark.kind == "out" else "#b8860b" if mark.kind == "ruling" else colour
        line_only = look["marker"] in ("x", ".", "+", "|")
        axes.scatter(
            [x],
            [row],
            marker=look["marker"],
            s=look["size"],
            c=tint if look["filled"] else "white",
            edgecolors=None if line_only else tint,
            linewidths=1.2,
            zorder=4,
        )
        if mark.kind == "hit" and mark.damage is not None:
            text = number(mark.damage)
            width = len(text) * per_character
            touching = last_label is not None and x - last_label < (width + last_width) / 2 + per_character
            above = not above if touching else True
            axes.annotate(
                text,
                (x, row + (0.26 if above else -0.42)),
                fontsize=7,
                ha="center",
                color=colour,
                zorder=5,
            )
            last_label, last_width = x, width


def _legend(figure: Any, timeline: Timeline, colours: dict[str, str]) -> int:
    """One legend under the picture: the sides, then the kinds of span and instant drawn; its rows."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    spans = {span.kind for lane in timeline.lanes.values() for span in lane.spans}
    instants = {mark.kind for lane in timeline.lanes.values() for mark in lane.instants}
    handles: list[Any] = [
        Line2D([], [], color=colour, linewidth=3, label=f"side {side}") for side, colour in colours.items()
    ]
    handles += [
        Patch(facecolor=look["color"], hatch=look.get("hatch"), edgecolor="#777777", label=look["label"])
        for kind, look in SPAN_LOOKS.items()
        if kind in spans
    ]
    handles += [
        Line2D(
            [],
            [],
            linestyle="none",
            marker=look["marker"],
            markersize=7,
            markerfacecolor="#555555" if look["filled"] else "white",
            markeredgecolor="#555555",
            label=look["label"],
        )
        for kind, look in INSTANT_LOOKS.items()
        if kind in instants
    ]
    if timeline.rounds:
        handles.append(Patch(facecolor="#f4f4fb", edgecolor="#cccccc", label="a round (shaded every other)"))
    columns = 6
    figure.legend(handles=handles, loc="lower center", ncol=columns, fontsize=8, frameon=False)
    return -(-len(handles) // columns)


def _health(axes: Axes, timeline: Timeline, colours: dict[str, str], window: Window) -> None:
    """Each combatant's damage points left over time, a line per combatant in its side's colour."""
    styles: Sequence[str] = ("-", "--", ":", "-.")
    seen: dict[str, int] = {}
    for lane in timeline.lanes.values():
        points = timeline.health.get(lane.combatant, [])
        if not points:
            continue
        order = seen[lane.side] = seen.get(lane.side, -1) + 1
        xs = [t / MS_PER_SECOND for t, _ in points]
        ys = [float(left) for _, left in points]
        axes.step(
            xs,
            ys,
            where="post",
            color=colours[lane.side],
            linestyle=styles[order % len(styles)],
            linewidth=1.4,
            label=lane.name,
        )
    axes.axhline(0, color="#999999", linewidth=0.6)
    axes.set_ylabel("damage points left")
    axes.grid(color="#eeeeee", linewidth=0.6)
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False)
