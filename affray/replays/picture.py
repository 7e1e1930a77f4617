"""A timeline drawn for people (``affray timeline``): lanes on the seconds axis, then damage points over
time. matplotlib with the Agg backend; PNG, SVG or PDF by the file's suffix.

A small fight has a lane for each combatant. A bigger one has lanes for the most involved (or those asked
for with ``--only``), and two more panels for the whole fight: how many of each side stand, and each
side's damage points left. Sides have distinct colours; what a span or an instant is shows by its shape
and fill, named in the legend. Marks are drawn as collections (one per kind), so a fight of thousands of
blows draws in seconds; damage labels that would touch another are left out (:mod:`.lanes_drawn`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO

from affray.colours import SIDE_COLOURS
from affray.drawing import plain_pyplot
from affray.kernel.clock import MS_PER_SECOND, game_time
from affray.replays.lanes_drawn import (
    INSTANT_LOOKS,
    SPAN_LOOKS,
    Window,
    condition_colours,
    draw_lanes,
    draw_rounds,
)
from affray.replays.timeline import LaneChoice, Timeline, choose_lanes

if TYPE_CHECKING:
    from matplotlib.axes import Axes

FORMATS = (".png", ".svg", ".pdf")
"""The picture formats, by suffix."""
LANE_INCHES = 0.42
PANEL_INCHES = 2.4
LEGEND_COLUMNS = 6
LIFTS_POINTS = (0.0, 1.5, -1.5, 3.0, -3.0)
"""How far each combatant's damage line is drawn off its values, in points, by its lane's order."""


Step = tuple[int, float, float, float]
"""A chance from a moment on: the time (ms), the chance (0 to 1) and its 95 % interval."""


@dataclass(frozen=True)
class WinChances:
    """Each side's chance to win over the fight's time, as ``affray odds`` found it: steps from the start,
    one at each roll; ``within``, how closely each chance was known (0 to 1)."""

    sides: dict[str, list[Step]]
    within: float
    opening: dict[str, float]
    """Each side's chance before the first roll (rolls made at 0 s step over it at once)."""


def draw(
    timeline: Timeline,
    output: BinaryIO,
    picture: str,
    start: float | None = None,
    end: float | None = None,
    only: Sequence[str] = (),
    chances: WinChances | None = None,
) -> None:
    """Draw ``timeline`` into ``output`` (an open binary file) as a ``picture`` (png, svg or pdf), between
    ``start`` and ``end`` seconds (by default the fight, up to the encounter's end: an aftermath of days is
    drawn with ``--to``), with lanes for ``only`` (ids) if given, and a panel of each side's ``chances``
    to win if given."""
    choice = choose_lanes(timeline, only)
    with plain_pyplot() as pyplot:
        figure = timeline_figure(pyplot, timeline, choice, Window(timeline, start, end), chances)
        try:
            figure.savefig(output, format=picture, dpi=110)
        finally:
            pyplot.close(figure)


def timeline_figure(
    pyplot: Any, timeline: Timeline, choice: LaneChoice, window: Window, chances: WinChances | None = None
) -> Any:
    """The whole figure, laid out, not yet saved (under ``plain_pyplot``; the caller closes it)."""
    lanes = choice.lanes
    heights = [LANE_INCHES * len(lanes) + 0.6, PANEL_INCHES]
    whole_fight = bool(choice.why)
    if whole_fight:
        heights += [PANEL_INCHES * 0.7, PANEL_INCHES]
    if chances is not None:
        heights.append(PANEL_INCHES)
    colours = _colours(timeline)
    entries = _legend(timeline, choice, colours, window)
    legend_rows = -(-len(entries) // LEGEND_COLUMNS)
    inches = sum(heights) + 1.0 + 0.22 * legend_rows
    figure, panels = pyplot.subplots(
        len(heights), 1, sharex=True, figsize=(13, inches), gridspec_kw={"height_ratios": heights}
    )
    top = panels[0]
    draw_rounds(top, timeline.rounds, window)
    draw_lanes(top, lanes, colours, window)
    top.set_title(_title(timeline, choice), loc="left", fontsize=11)
    _combatants_health(panels[1], timeline, choice, colours)
    if whole_fight:
        _sides_standing(panels[2], timeline, colours)
        _sides_health(panels[3], timeline, colours)
    if chances is not None:
        _win_chances(panels[-1], chances, timeline.fight_end(), colours)
    bottom = panels[-1]
    margin = (window.end - window.start) * 0.015
    bottom.set_xlim(window.start - margin, window.end + margin)
    bottom.set_xlabel("game time (s)")
    figure.legend(
        handles=entries,
        loc="lower center",
        ncol=LEGEND_COLUMNS,
        fontsize=8,
        frameon=False,
    )
    figure.tight_layout(rect=(0, (0.15 + 0.22 * legend_rows) / inches, 1, 1))
    return figure


def _colours(timeline: Timeline) -> dict[str, str]:
    """Each side's colour, in the order sides first appear."""
    return {side: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(timeline.sides())}


def _title(timeline: Timeline, choice: LaneChoice) -> str:
    ended = game_time(timeline.fight_end())
    outcome = f"side {timeline.winner} wins at {ended}" if timeline.winner else f"no winner ({ended})"
    title = f"{timeline.title}: {outcome}" + (f" - {timeline.end_reason}" if timeline.end_reason else "")
    return title + (f"\n{choice.why}" if choice.why else "")


def _steps(axes: Axes, points: Sequence[tuple[int, Any]], **look: Any) -> list[Any]:
    """One step line through ``points`` (ms, value): its artists."""
    if not points:
        return []
    xs = [t / MS_PER_SECOND for t, _ in points]
    drawn: list[Any] = axes.step(xs, [float(value) for _, value in points], where="post", **look)
    return drawn


def _until_out(points: Sequence[tuple[int, Any]], out_at: int | None) -> list[tuple[int, Any]]:
    """A combatant's damage points left up to when it went out (none drawn after: it was not fine)."""
    if out_at is None:
        return list(points)
    kept = [(t, value) for t, value in points if t <= out_at]
    return [*kept, (out_at, kept[-1][1])] if kept else []


def _combatants_health(axes: Axes, timeline: Timeline, choice: LaneChoice, colours: dict[str, str]) -> None:
    """Each drawn combatant's damage points left over time until it went out, a line each in its side's
    colour; each line lifted or lowered by up to two points (``LIFTS_POINTS``), so that lines at equal
    values lie side by side rather than one hiding the other."""
    from matplotlib.transforms import offset_copy

    styles = ("-", "--", ":", "-.")
    figure = axes.get_figure(root=True)
    seen: dict[str, int] = {}
    for index, lane in enumerate(choice.lanes):
        order = seen[lane.side] = seen.get(lane.side, -1) + 1
        look = {"color": colours[lane.side], "linestyle": styles[order % len(styles)], "linewidth": 1.4}
        points = _until_out(timeline.health.get(lane.combatant, []), lane.out_at)
        for line in _steps(axes, points, label=lane.name, **look):  # scaled to the data, then lifted
            lift = LIFTS_POINTS[index % len(LIFTS_POINTS)]
            line.set_transform(offset_copy(axes.transData, fig=figure, y=lift, units="points"))
    axes.axhline(0, color="#999999", linewidth=0.6)
    axes.set_ylabel(_wrapped(timeline.measure))
    axes.grid(color="#eeeeee", linewidth=0.6)
    columns = -(-len(choice.lanes) // 16)
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False, ncol=columns)


def _wrapped(label: str) -> str:
    """An axis label in lines of up to 24 characters, to fit beside a short panel."""
    return "\n".join(textwrap.wrap(label, 24))


def _sides_standing(axes: Axes, timeline: Timeline, colours: dict[str, str]) -> None:
    """How many of each side are in the fight over time."""
    for side, colour in colours.items():
        _steps(axes, timeline.standing(side), color=colour, linewidth=1.6, label=f"side {side}")
    axes.set_ylabel("standing")
    axes.set_ylim(bottom=0)
    axes.grid(color="#eeeeee", linewidth=0.6)


def _sides_health(axes: Axes, timeline: Timeline, colours: dict[str, str]) -> None:
    """Each side's damage points left (its combatants' above 0, summed) over time."""
    for side, colour in colours.items():
        _steps(axes, timeline.side_health.get(side, []), color=colour, linewidth=1.6, label=f"side {side}")
    axes.set_ylabel(_wrapped(timeline.measure) + "\nper side, summed")
    axes.set_ylim(bottom=0)
    axes.grid(color="#eeeeee", linewidth=0.6)


def _win_chances(axes: Axes, chances: WinChances, end: int, colours: dict[str, str]) -> None:
    """Each side's chance to win after each roll (``affray odds``), its 95 % interval as a band."""
    for side, steps in chances.sides.items():
        if not steps:
            continue
        steps = [*steps, (max(end, steps[-1][0]), *steps[-1][1:])]
        xs = [t / MS_PER_SECOND for t, *_ in steps]
        colour = colours.get(side, "#7f7f7f")
        axes.fill_between(
            xs,
            [100 * low for *_, low, _ in steps],
            [100 * high for *_, high in steps],
            step="post",
            color=colour,
            alpha=0.15,
            linewidth=0,
        )
        axes.step(xs, [100 * chance for _, chance, *_ in steps], where="post", color=colour, linewidth=1.6)
        axes.plot([0], [100 * chances.opening[side]], marker="o", markersize=5, color=colour, zorder=3)
    axes.set_ylabel(f"chance to win (%)\n95 % bands (within {100 * chances.within:g})\ndot: before any roll")
    axes.set_ylim(-2, 102)
    axes.set_yticks(range(0, 101, 25))
    axes.grid(color="#eeeeee", linewidth=0.6)


def _legend(timeline: Timeline, choice: LaneChoice, colours: dict[str, str], window: Window) -> list[Any]:
    """The legend's entries: the sides, then the kinds of span and instant drawn in the window."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Any] = [
        Line2D([], [], color=colour, linewidth=3, label=f"side {side}") for side, colour in colours.items()
    ]
    handles += _span_entries(choice, window) + _condition_entries(choice, window)
    handles += _instant_entries(choice, window)
    if timeline.rounds:
        handles.append(Patch(facecolor="#f4f4fb", edgecolor="#cccccc", label="a round (shaded every other)"))
    return handles


def _span_entries(choice: LaneChoice, window: Window) -> list[Any]:
    """An entry for each kind of span drawn in the window, conditions aside."""
    from matplotlib.patches import Patch

    spans = {span.kind for lane in choice.lanes for span in lane.spans if window.shows(span)}
    return [
        Patch(facecolor=look["color"], hatch=look.get("hatch"), edgecolor="#777777", label=look["label"])
        for kind, look in SPAN_LOOKS.items()
        if kind in spans and kind != "condition"
    ]


def _condition_entries(choice: LaneChoice, window: Window) -> list[Any]:
    """An entry for each condition drawn in the window, in its own colour."""
    from matplotlib.patches import Patch

    shown = {
        s.label for lane in choice.lanes for s in lane.spans if s.kind == "condition" and window.shows(s)
    }
    return [
        Patch(facecolor=colour, edgecolor="#777777", label=label)
        for label, colour in condition_colours(choice.lanes).items()
        if label in shown
    ]


def _instant_entries(choice: LaneChoice, window: Window) -> list[Any]:
    """An entry for each kind of instant drawn in the window."""
    from matplotlib.lines import Line2D

    instants = {mark.kind for lane in choice.lanes for mark in lane.instants if window.holds(mark.at)}
    return [
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
