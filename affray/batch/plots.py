"""Pictures of a batch (PNG, matplotlib with the Agg backend): who won, how long the fights took, and the
damage each combatant dealt and took.

:class:`Report` keeps only summaries; the distributions need each run's values, which a
:class:`PlotData` gathers beside the :class:`~affray.batch.report.Tally` (floats in arrays: 8 bytes a
value, linear in the runs). matplotlib is imported only when drawing, so the CLI starts fast.

Sides have the colours of the timeline (``affray timeline``), in the order they first appear in the runs.
"""

from __future__ import annotations

import math
import textwrap
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affray import files
from affray.batch.outcome import RunOutcome
from affray.batch.report import Rate, Report
from affray.colours import SIDE_COLOURS
from affray.drawing import plain_pyplot

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

PLOT_NAMES = ("wins.png", "time.png", "damage.png")
"""The files :func:`draw_plots` writes, in the order it returns them."""
NO_WINNER_LOOK: dict[str, Any] = {"color": "#7f7f7f", "label": "no winner"}
"""How runs no side won (all fell, or none could go on) are drawn."""
TIME_LIMIT_LOOK: dict[str, Any] = {
    "color": "#d9d9d9",
    "hatch": "//",
    "edgecolor": "#666666",
    "label": "time limit",
}
"""How runs the time limit ended are drawn."""
ENDING_LOOKS = {"no winner": NO_WINNER_LOOK, "time limit": TIME_LIMIT_LOOK}
"""The looks of the endings without a winner, by their bar's label."""
WHISKERS = (5.0, 95.0)
"""The percentiles a damage box's whiskers reach."""
DPI = 110
"""The pictures' resolution, in dots per inch."""
PLOTS = "--plots"
"""The flag errors writing the pictures name."""


def _floats() -> array[float]:
    return array("d")


@dataclass
class CombatantValues:
    """One combatant's damage dealt and taken, a value per run."""

    side: str
    dealt: array[float] = field(default_factory=_floats)
    taken: array[float] = field(default_factory=_floats)


class PlotData:
    """Each run's values the pictures need, gathered one outcome at a time: when it ended (seconds, by
    who won or how it ended without a winner) and each combatant's damage dealt and taken."""

    def __init__(self) -> None:
        self.runs = 0
        """The runs gathered."""
        self.won: dict[str, array[float]] = {}
        """The end times of the runs each side won."""
        self.no_winner = _floats()
        """The end times of the runs no side won before the time limit."""
        self.time_limit = _floats()
        """The end times of the runs the time limit ended."""
        self.combatants: dict[str, CombatantValues] = {}
        """Each combatant's values, in the order they joined."""
        self.sides: list[str] = []
        """The sides in the order they first appeared."""

    def add(self, outcome: RunOutcome) -> None:
        """Keep one run's values."""
        self.runs += 1
        for share in outcome.shares:
            self._side(share.side)
            values = self.combatants.get(share.combatant)
            if values is None:
                values = self.combatants[share.combatant] = CombatantValues(share.side)
            values.dealt.append(float(share.dealt))
            values.taken.append(float(share.taken))
        seconds = outcome.end_ms / 1000
        if outcome.winner is not None:
            self._side(outcome.winner)
            self.won.setdefault(outcome.winner, _floats()).append(seconds)
        elif outcome.timed_out:
            self.time_limit.append(seconds)
        else:
            self.no_winner.append(seconds)

    def _side(self, side: str) -> None:
        if side not in self.sides:
            self.sides.append(side)

    def colours(self, report: Report | None = None) -> dict[str, str]:
        """Each side's colour, the sides in the order they first appeared (here, then in ``report``)."""
        sides = list(self.sides)
        if report is not None:
            sides += [s.side for s in report.sides if s.side not in sides]
        return {side: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(sides)}


def draw_plots(report: Report, data: PlotData, folder: Path, name: str, *, force: bool = False) -> list[Path]:
    """Draw the batch into ``folder`` (made if missing) as ``wins.png``, ``time.png`` and ``damage.png``
    (:data:`PLOT_NAMES`; one there, or a link, is replaced only with ``force``: see ``affray.files``)
    and return their paths in that order. ``report`` is the :class:`~affray.batch.report.Tally`'s report
    of the runs ``data`` gathered; ``name`` the scenario's."""
    files.make_folder(folder, PLOTS)
    colours = data.colours(report)
    paths = [folder / file for file in PLOT_NAMES]
    with plain_pyplot():
        _save(_wins(report, colours, name), paths[0], force)
        _save(_times(report, data, colours, name), paths[1], force)
        _save(_damage(data, colours, name, report.runs), paths[2], force)
    return paths


def _save(figure: Figure, path: Path, force: bool) -> None:
    from matplotlib import pyplot

    try:
        files.write_new(
            path, lambda file: figure.savefig(file, format="png", dpi=DPI), force=force, flag=PLOTS
        )
    finally:
        pyplot.close(figure)


def _runs(count: int) -> str:
    return f"{count:,} run" + ("" if count == 1 else "s")


def win_bars(report: Report) -> list[tuple[str, Rate]]:
    """The bars of ``wins.png``, left to right: each side's wins (``side ford``), then ``no winner`` and
    ``time limit`` when some run ended so."""
    bars = [(f"side {s.side}", s.wins) for s in report.sides]
    for label, rate in (("no winner", report.draws), ("time limit", report.time_limit)):
        if rate.count:
            bars.append((label, rate))
    return bars


def _wins(report: Report, colours: dict[str, str], name: str) -> Figure:
    """Each side's win rate as a bar with its Wilson interval, then no winner and the time limit."""
    from matplotlib import pyplot

    looks = [{"color": colours[s.side]} for s in report.sides]
    bars = [
        (label, rate, looks[i] if i < len(looks) else ENDING_LOOKS[label])
        for i, (label, rate) in enumerate(win_bars(report))
    ]
    figure, axes = pyplot.subplots(figsize=(max(5.0, 1.5 + 1.35 * len(bars)), 4.8))
    try:
        for x, (_, rate, look) in enumerate(bars):
            axes.bar(x, 100 * rate.rate, width=0.6, **{**look, "label": None}, zorder=2)
            axes.errorbar(
                x,
                100 * rate.rate,
                yerr=[[100 * (rate.rate - rate.low)], [100 * (rate.high - rate.rate)]],
                color="black",
                capsize=6,
                linewidth=1.2,
                zorder=3,
            )
        labels = [_bar_label(label, rate) for label, rate, _ in bars]
        axes.set_xticks(range(len(bars)), labels, fontsize=9)
        axes.set_xlim(-0.6, len(bars) - 0.4)
        axes.set_ylim(0, 104)
        axes.set_yticks(range(0, 101, 20))
        axes.spines[["top", "right"]].set_visible(False)
        axes.set_ylabel("share of the runs (%)")
        axes.grid(axis="y", color="#e6e6e6", linewidth=0.6, zorder=0)
        axes.set_title(
            f"{_title(name)}\nwins in {_runs(report.runs)}; whiskers: 95 % Wilson interval", fontsize=10
        )
        figure.tight_layout()
    except BaseException:
        pyplot.close(figure)
        raise
    return figure


def _bar_label(label: str, rate: Rate) -> str:
    """``side ford``, the rate and its interval, a line each."""
    return (
        f"{textwrap.fill(label, 14)}\n{100 * rate.rate:.1f} %\n({100 * rate.low:.1f}-{100 * rate.high:.1f})"
    )


def _title(name: str) -> str:
    return textwrap.shorten(name, 70, placeholder="...")


def nice_step(raw: float) -> float:
    """The one of 1, 2, 2.5 and 5 times a power of ten nearest ``raw`` (> 0) by ratio."""
    power = 10.0 ** math.floor(math.log10(raw))
    steps = [factor * power for factor in (1.0, 2.0, 2.5, 5.0, 10.0)]
    return min(steps, key=lambda step: abs(math.log(step / raw)))


def bin_edges(low: float, high: float, count: int) -> list[float]:
    """Edges of about ``count`` bins of a round width covering ``low`` to ``high``, each centred on a
    multiple of its width (so whole seconds sit in the middle of their bins)."""
    width = nice_step((high - low) / count) if high > low else 1.0
    first = (math.floor(low / width + 0.5) - 0.5) * width
    bins = max(1, math.ceil((high - first) / width))
    if first + bins * width <= high:
        bins += 1
    return [first + i * width for i in range(bins + 1)]


def _times(report: Report, data: PlotData, colours: dict[str, str], name: str) -> Figure:
    """A histogram of the time to resolution, stacked by how the run ended, with the median and the 10th
    and 90th percentiles as vertical lines named in the legend."""
    from matplotlib import pyplot

    stacks: list[tuple[array[float], dict[str, Any]]] = [
        (data.won[side], {"color": colours[side], "label": f"side {side} won"})
        for side in colours
        if side in data.won
    ]
    stacks += [(data.no_winner, NO_WINNER_LOOK), (data.time_limit, TIME_LIMIT_LOOK)]
    stacks = [(values, look) for values, look in stacks if values]
    figure, axes = pyplot.subplots(figsize=(9, 4.8))
    try:
        if stacks:
            _histogram(axes, stacks, data.runs)
            _percentile_lines(axes, report)
        else:
            axes.text(0.5, 0.5, "no runs", transform=axes.transAxes, ha="center", va="center")
        axes.set_xlabel("time to resolution (s)")
        axes.set_ylabel("runs")
        axes.set_ylim(bottom=0)
        axes.grid(axis="y", color="#e6e6e6", linewidth=0.6)
        axes.set_axisbelow(True)
        axes.set_title(f"{_title(name)}\ntime to resolution, {_runs(report.runs)}", fontsize=10)
        if stacks:
            axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
        figure.tight_layout()
    except BaseException:
        pyplot.close(figure)
        raise
    return figure


def _histogram(axes: Axes, stacks: Sequence[tuple[Sequence[float], dict[str, Any]]], runs: int) -> None:
    """The stacks' values in bins of one round width, each stack on top of the ones before it."""
    from matplotlib.ticker import MaxNLocator

    low = min(min(values) for values, _ in stacks)
    high = max(max(values) for values, _ in stacks)
    edges = bin_edges(low, high, min(40, max(8, round(math.sqrt(runs)))))
    for (values, look), bottom in zip(stacks, _bottoms([v for v, _ in stacks], edges), strict=True):
        top = [b + c for b, c in zip(bottom, _counts(values, edges), strict=True)]
        axes.stairs(top, edges, baseline=bottom, fill=True, linewidth=0.4, **_stair_look(look))
    width = edges[1] - edges[0]
    pad = width * max(0.5, (8 - len(edges)) / 2)  # a few bins' room when there are few
    axes.set_xlim(edges[0] - pad, edges[-1] + pad)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))


def _stair_look(look: dict[str, Any]) -> dict[str, Any]:
    """A bar look as the keywords of ``stairs``: a face colour and an edge."""
    return {
        "facecolor": look["color"],
        "edgecolor": look.get("edgecolor", "white"),
        "hatch": look.get("hatch"),
        "label": look["label"],
    }


def _counts(values: Sequence[float], edges: Sequence[float]) -> list[float]:
    """How many values fall in each bin (the last bin holds its upper edge)."""
    import numpy

    counts, _ = numpy.histogram(numpy.asarray(values, dtype=float), bins=numpy.asarray(edges))
    return [float(c) for c in counts]


def _bottoms(stacks: Sequence[Sequence[float]], edges: Sequence[float]) -> list[list[float]]:
    """Where each stack's bars start: on top of the stacks before it."""
    bottoms: list[list[float]] = []
    below = [0.0] * (len(edges) - 1)
    for values in stacks:
        bottoms.append(below)
        below = [b + c for b, c in zip(below, _counts(values, edges), strict=True)]
    return bottoms


def _percentile_lines(axes: Axes, report: Report) -> None:
    p = report.time_percentiles_s
    lines = (
        ("p10", f"10th percentile {p['p10']:.1f} s", "--", 1.2),
        ("p50", f"median {p['p50']:.1f} s", "-", 2.0),
        ("p90", f"90th percentile {p['p90']:.1f} s", ":", 1.6),
    )
    for key, label, style, width in lines:
        if not math.isnan(p[key]):
            axes.axvline(p[key], color="black", linestyle=style, linewidth=width, label=label, zorder=3)


def _damage(data: PlotData, colours: dict[str, str], name: str, runs: int) -> Figure:
    """Damage dealt and damage taken, a horizontal box per combatant in each of two panels side by side
    (same scale), coloured by side: the box the middle half of the runs, the line the median, the
    whiskers the 5th and 95th percentiles, the diamond the mean."""
    from matplotlib import pyplot

    who = list(data.combatants)
    figure, panels = pyplot.subplots(
        1, 2, sharex=True, sharey=True, figsize=(11, 1.9 + 0.42 * max(len(who), 2)), squeeze=False
    )
    try:
        dealt, taken = panels[0]
        for axes, title, pick in ((dealt, "damage dealt", "dealt"), (taken, "damage taken", "taken")):
            _boxes(axes, data, colours, pick)
            axes.set_title(title, fontsize=10)
            axes.set_xlabel("damage points a run")
            axes.grid(axis="x", color="#e6e6e6", linewidth=0.6)
            axes.set_axisbelow(True)
        rows = len(who)
        dealt.set_yticks(range(rows), [_label(c) for c in reversed(who)], fontsize=9)
        for tick, combatant in zip(dealt.get_yticklabels(), reversed(who), strict=True):
            tick.set_color(colours[data.combatants[combatant].side])
        dealt.set_ylim(-0.7, max(rows, 1) - 0.3)
        dealt.set_xlim(0, max(1.0, dealt.get_xlim()[1]))
        if not who:
            dealt.text(0.5, 0.5, "no combatants", transform=dealt.transAxes, ha="center", va="center")
        figure.suptitle(f"{_title(name)}: damage per combatant, {_runs(runs)}", fontsize=11)
        legend_rows = _damage_legend(figure, colours)
        figure.tight_layout(rect=(0, (0.08 + 0.2 * legend_rows) / figure.get_figheight(), 1, 1))
    except BaseException:
        pyplot.close(figure)
        raise
    return figure


def _label(combatant: str) -> str:
    return textwrap.shorten(combatant, 22, placeholder="...")


def _boxes(axes: Axes, data: PlotData, colours: dict[str, str], pick: str) -> None:
    """One box per combatant with values, the first combatant on top."""
    rows = len(data.combatants)
    drawn = [
        (rows - 1 - i, values)
        for i, values in enumerate(data.combatants.values())
        if len(getattr(values, pick)) > 0
    ]
    if not drawn:
        return
    parts = axes.boxplot(
        [getattr(values, pick) for _, values in drawn],
        positions=[row for row, _ in drawn],
        orientation="horizontal",
        widths=0.6,
        whis=WHISKERS,
        showfliers=False,
        showmeans=True,
        patch_artist=True,
        manage_ticks=False,
        medianprops={"color": "black", "linewidth": 1.6},
        meanprops={"marker": "D", "markerfacecolor": "white", "markeredgecolor": "black", "markersize": 5},
    )
    for box, (_, values) in zip(parts["boxes"], drawn, strict=True):
        box.set_facecolor(colours[values.side])
        box.set_alpha(0.75)


def _damage_legend(figure: Figure, colours: dict[str, str]) -> int:
    """The sides' colours and how to read a box, under the panels; the legend's rows."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Any] = [
        Patch(facecolor=colour, alpha=0.75, edgecolor="black", label=f"side {side}")
        for side, colour in colours.items()
    ]
    handles += [
        Patch(facecolor="white", edgecolor="black", label="box: middle half of the runs"),
        Line2D([], [], color="black", linewidth=1.6, label="median"),
        Line2D(
            [],
            [],
            linestyle="none",
            marker="D",
            markerfacecolor="white",
            markeredgecolor="black",
            markersize=5,
            label="mean",
        ),
        Line2D(
            [],
            [],
            color="black",
            linewidth=1.0,
            label=f"whiskers: {WHISKERS[0]:g}th-{WHISKERS[1]:g}th percentile",
        ),
    ]
    columns = 4
    figure.legend(handles=handles, loc="lower center", ncol=columns, fontsize=8, frameon=False)
    return -(-len(handles) // columns)
