"""Sweeps (``affray battle --vary PATH=LIST``): a batch fought at each point of a grid of changes to the
scenario, with the same seeds at every point (common random numbers), so that what differs between
points is due to the change and not to the dice.

A path names a value in the scenario as its TOML does, entering a list of tables by an entry's ``id``
(``combatants.gorm.skill``) or its position (``combatants.0.weapons.0.name``). A list is comma-separated
(``50,60,70``) or, for values holding commas, a JSON array (``["Axe, 1 hand", "Sword, Long"]``); each
value is read as JSON where it can be (numbers, true, false) and as text otherwise.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from typing import Any, BinaryIO

import msgspec

from affray.batch.report import Report
from affray.colours import SIDE_COLOURS
from affray.drawing import plain_pyplot
from affray.errors import AffrayError

Point = tuple[tuple[str, Any], ...]
"""One point of a sweep: each varied path with its value there."""


def parse_vary(text: str) -> tuple[str, list[Any]]:
    """``PATH=LIST`` as the path and its values."""
    path, sep, listed = text.partition("=")
    path = path.strip()
    if not sep or not path or not listed.strip():
        raise AffrayError(f"--vary {text[:40]!r}: expected PATH=LIST, such as combatants.gorm.skill=50,60,70")
    if listed.strip().startswith("["):
        try:
            values = json.loads(listed)
        except json.JSONDecodeError as exc:
            raise AffrayError(f"--vary {path}: the list is not a JSON array ({exc.msg})") from None
        if not isinstance(values, list) or not values:
            raise AffrayError(f"--vary {path}: the list is empty")
        return path, values
    return path, [_value(part.strip()) for part in listed.split(",") if part.strip()]


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def grid(varied: Sequence[tuple[str, list[Any]]]) -> list[Point]:
    """Every combination of the varied values, the first path varying slowest."""
    paths = [path for path, _ in varied]
    if len(set(paths)) != len(paths):
        raise AffrayError("--vary: a path is varied twice")
    return [tuple(zip(paths, values, strict=True)) for values in itertools.product(*(v for _, v in varied))]


def unevenness(report: Report) -> float:
    """How far a point is from an even fight: the sum over sides of how far each side's win rate is from
    an equal share (runs with no winner count against every side)."""
    share = 1 / len(report.sides) if report.sides else 0.0
    return sum(abs(side.wins.rate - share) for side in report.sides)


def nearest_even(reports: Sequence[Report]) -> int:
    """The index of the point nearest to an even fight (the first of equals)."""
    return min(range(len(reports)), key=lambda i: unevenness(reports[i]))


def shown(point: Point) -> str:
    """``combatants.gorm.skill=60, combatants.gorm.parry=10``."""
    return ", ".join(f"{path}={json.dumps(value)}" for path, value in point)


def tell_sweep(points: Sequence[Point], reports: Sequence[Report], name: str) -> list[str]:
    """The sweep as lines for people: each point's win rates with their intervals, then the nearest to
    an even fight."""
    sides = list(dict.fromkeys(side.side for report in reports for side in report.sides))
    counted = f"{len(points)} point" + ("s" if len(points) != 1 else "")
    lines = [f"{name}: {counted} of {reports[0].runs} runs each, the same seeds at every point"]
    for point, report in zip(points, reports, strict=True):
        rates = {s.side: s.wins.shown() for s in report.sides}
        lines.append(
            f"  {shown(point)}" + (f" (interrupted after {report.runs} runs)" if report.interrupted else "")
        )
        lines += [f"      side {side:<12} {rates.get(side, '-')}" for side in sides]
    best = nearest_even(reports)
    edges = at_the_edge(points, best)
    beyond = (
        f" (at the edge of the {', '.join(edges)} swept: the even point may lie beyond it)" if edges else ""
    )
    lines.append(f"nearest to an even fight: {shown(points[best])}{beyond}")
    return lines


def at_the_edge(points: Sequence[Point], index: int) -> list[str]:
    """The varied paths at whose first or last value the point ``index`` lies (of a path swept over more
    than one value): the fight may be more even beyond them."""
    edges = []
    for k, (path, value) in enumerate(points[index]):
        values = list(dict.fromkeys(json.dumps(point[k][1]) for point in points))
        if len(values) > 1 and json.dumps(value) in (values[0], values[-1]):
            edges.append(path)
    return edges


class SweepPoint(msgspec.Struct, frozen=True):
    """One point of a sweep in the JSON report: its values and its batch's report."""

    values: dict[str, Any]
    report: Report


class SweepReport(msgspec.Struct, frozen=True):
    """A whole sweep: each point, and which is nearest to an even fight."""

    points: list[SweepPoint]
    nearest_even: int


def sweep_report(points: Sequence[Point], reports: Sequence[Report]) -> SweepReport:
    """The sweep's JSON report."""
    listed = [SweepPoint(dict(point), report) for point, report in zip(points, reports, strict=True)]
    return SweepReport(listed, nearest_even(reports))


MARKERS = ("o", "s", "^", "D", "v", "P")
LINESTYLES = ("-", "--", ":", "-.")


def draw_sweep(points: Sequence[Point], reports: Sequence[Report], output: BinaryIO, name: str) -> None:
    """The win-rate curve of a sweep into ``output`` (an open binary file) as a PNG: each side's win rate
    with its 95 % interval against the first varied path's values (a line per value of the others, for
    the first side), an even share marked, and the point nearest to an even fight circled."""
    with plain_pyplot() as pyplot:
        _draw_sweep(pyplot, points, reports, output, name)


def _draw_sweep(
    pyplot: Any, points: Sequence[Point], reports: Sequence[Report], output: BinaryIO, name: str
) -> None:
    """The curve drawn and saved (under ``plain_pyplot``)."""
    first = points[0][0][0]
    xs = list(dict.fromkeys(json.dumps(point[0][1]) for point in points))
    sides = list(dict.fromkeys(s.side for r in reports for s in r.sides))
    figure, axes = pyplot.subplots(figsize=(9, 5))
    try:
        for series, (label, (side, members)) in enumerate(_series(points, reports, sides).items()):
            x = [xs.index(json.dumps(point[0][1])) + 0.04 * series for point, _, _ in members]
            y = [100 * rate.rate for _, _, rate in members]
            low = [100 * (rate.rate - rate.low) for _, _, rate in members]
            high = [100 * (rate.high - rate.rate) for _, _, rate in members]
            axes.errorbar(
                x,
                y,
                yerr=[low, high],
                marker=MARKERS[series % len(MARKERS)],
                linestyle=LINESTYLES[series % len(LINESTYLES)] if len(points[0]) > 1 else "-",
                capsize=3,
                label=label,
                color=SIDE_COLOURS[sides.index(side) % len(SIDE_COLOURS)],
            )
        if sides:
            axes.axhline(
                100 / len(sides), color="#999999", linestyle="--", linewidth=0.8, label="an even share"
            )
        best = xs.index(json.dumps(points[nearest_even(reports)][0][1]))
        axes.axvline(
            best, color="#bbbbbb", linewidth=6, alpha=0.4, zorder=0, label="nearest to an even fight"
        )
        axes.set_xticks(range(len(xs)), [x.strip('"') for x in xs])
        axes.set_xlabel(first)
        axes.set_ylabel("win rate (%), with 95 % Wilson intervals")
        axes.set_ylim(0, 100)
        axes.set_title(f"{name}: {reports[0].runs} runs a point, the same seeds at every point", fontsize=10)
        axes.grid(color="#eeeeee")
        axes.legend(fontsize=8)
        figure.tight_layout()
        figure.savefig(output, format="png", dpi=110)
    finally:
        pyplot.close(figure)


def _series(
    points: Sequence[Point], reports: Sequence[Report], sides: list[str]
) -> dict[str, tuple[str, list[Any]]]:
    """The lines to draw, each with the side whose win rate it is: one per side when one path varies;
    else one per value of the other paths, all of the first side (drawn in its colour, told apart by
    their marks and dashes)."""
    lines: dict[str, tuple[str, list[Any]]] = {}
    for point, report in zip(points, reports, strict=True):
        wins = {s.side: s.wins for s in report.sides}
        if len(point) == 1:
            for side in sides:
                lines.setdefault(f"side {side}", (side, []))[1].append((point, report, wins[side]))
        else:
            rest = ", ".join(f"{path}={json.dumps(value)}" for path, value in point[1:])
            label = f"side {sides[0]} at {rest}"
            lines.setdefault(label, (sides[0], []))[1].append((point, report, wins[sides[0]]))
    return lines
