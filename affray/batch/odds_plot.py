"""A picture of a fight's odds (PNG, matplotlib with the Agg backend): each side's chance to win after every
roll, its 95 % interval as a band, and the pivotal rolls named where they struck. matplotlib is imported
only when drawing."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

from affray import files
from affray.batch.odds import Chance, OddsReport, percent
from affray.batch.plots import DPI, NO_WINNER_LOOK
from affray.colours import SIDE_COLOURS
from affray.drawing import plain_pyplot

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

PLOT = "--plot"
"""The flag errors writing the picture name."""
NAMED = 3
"""How many of the pivotal rolls the picture names."""


def draw_odds(report: OddsReport, path: Path, *, force: bool = False, last: bool = False) -> None:
    """Draw ``report`` to ``path`` (replaced only with ``force``: see affray.files); ``last``: the
    command's last output."""
    from matplotlib import pyplot

    with plain_pyplot():
        figure = _figure(report)
        try:
            files.write_new(
                path,
                lambda file: figure.savefig(file, format="png", dpi=DPI),
                force=force,
                flag=PLOT,
                last=last,
            )
        finally:
            pyplot.close(figure)


def _figure(report: OddsReport) -> Figure:
    """Each side's chance after each roll as a step line over its band; no winner in grey when it has any."""
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(max(7.0, min(16.0, 4 + 0.08 * len(report.rolls))), 4.8))
    points = [report.opening, *(made.after for made in report.rolls)]
    points.append(points[-1])  # the last step drawn one roll wide, as every other
    for index, side in enumerate(report.sides):
        _curve(axes, [p.sides[side] for p in points], SIDE_COLOURS[index % len(SIDE_COLOURS)], f"side {side}")
    nobody = [p.no_winner for p in points]
    if any(c.chance for c in nobody):
        _curve(axes, nobody, NO_WINNER_LOOK["color"], "no winner")
    _name_pivotal(axes, report)
    axes.set_xlim(0, len(points) - 1)
    axes.set_ylim(-2, 102)
    axes.set_yticks(range(0, 101, 20))
    axes.set_xlabel("rolls, in the order made (0: before the first)")
    axes.set_ylabel("chance to win (%)")
    axes.spines[["top", "right"]].set_visible(False)
    axes.grid(axis="y", color="#e6e6e6", linewidth=0.6, zorder=0)
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    title = textwrap.shorten(report.name, 70, placeholder="...")
    axes.set_title(
        f"{title}\nchance to win after each roll; bands: 95 % intervals "
        f"(within {100 * report.within:g} points)",
        fontsize=10,
    )
    figure.tight_layout()
    return figure


def _curve(axes: Axes, chances: list[Chance], colour: str, label: str) -> None:
    """A chance after each roll (x: the roll's number) as a step line over its 95 % band."""
    at = range(len(chances))
    low, high = [100 * c.low for c in chances], [100 * c.high for c in chances]
    axes.fill_between(at, low, high, step="post", color=colour, alpha=0.15, linewidth=0)
    axes.step(
        at,
        [100 * c.chance for c in chances],
        where="post",
        color=colour,
        linewidth=1.6,
        label=label,
        zorder=3,
    )


def _name_pivotal(axes: Axes, report: OddsReport) -> None:
    """A mark and a label at each of the largest swings of the recorded outcome: its roll and the jump."""
    index = {made.roll.key: number for number, made in enumerate(report.rolls, start=1)}
    named = report.pivotal[:NAMED]
    for rank, key in enumerate(named):
        number = index[key]
        made = report.rolls[number - 1]
        side = report.winner if report.winner is not None else report.sides[0]
        before, after = made.before.sides[side].chance, made.after.sides[side].chance
        axes.annotate(
            f"{key} = {made.roll.total}\n{side} {percent(before)} -> {percent(after)}",
            xy=(number, 100 * after),
            xytext=(10, -34 - 26 * rank) if after > 0.5 else (10, 22 + 26 * rank),
            textcoords="offset points",
            fontsize=7.5,
            arrowprops={"arrowstyle": "-", "color": "#555555", "linewidth": 0.6},
            bbox={
                "boxstyle": "round,pad=0.2",
                "facecolor": "white",
                "edgecolor": "#bbbbbb",
                "linewidth": 0.5,
            },
            zorder=5,
        )
