"""The timeline's picture (replays/picture.py, replays/lanes_drawn.py): panels, marks as collections, and
damage labels that never lie on one another."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from itertools import combinations
from typing import Any

import msgspec
import pytest

from affray.drawing import plain_pyplot
from affray.replays.lanes_drawn import INSTANT_LOOKS, SPAN_LOOKS, Window
from affray.replays.picture import timeline_figure
from affray.replays.timeline import Timeline, choose_lanes
from tests.replays.test_timeline import lines_of, timeline_of


@pytest.fixture(scope="module")
def lines() -> Timeline:
    return lines_of(7, damage_points=600)  # some fifty blows a lane: their labels crowd at this scale


@pytest.fixture
def pyplot() -> Iterator[Any]:
    with plain_pyplot() as drawing:
        yield drawing
        drawing.close("all")


def figure(pyplot: Any, timeline: Timeline, start: float | None = None, end: float | None = None) -> Any:
    return timeline_figure(pyplot, timeline, choose_lanes(timeline), Window(timeline, start, end))


def damage_labels(drawn: Any) -> list[Any]:
    lanes = drawn.axes[0]
    return [text for text in lanes.texts if text.get_text().replace(".", "").isdigit()]


def test_a_small_fight_has_its_lanes_and_their_damage_points() -> None:
    with plain_pyplot() as drawing:
        drawn = figure(drawing, timeline_of("skirmish"))
        assert len(drawn.axes) == 2
        drawing.close(drawn)


def test_a_big_fight_also_has_each_sides_standing_and_damage_points(pyplot: Any, lines: Timeline) -> None:
    drawn = figure(pyplot, lines)
    assert [axes.get_ylabel() for axes in drawn.axes[1:]] == [
        "damage points left",
        "standing",
        "damage points left\nper side, summed",
    ]


def test_each_kind_of_mark_is_one_collection_however_many_there_are(pyplot: Any, lines: Timeline) -> None:
    marks = sum(len(lane.instants) + len(lane.spans) for lane in choose_lanes(lines).lanes)
    lanes = figure(pyplot, lines).axes[0]
    sides = len(lines.sides())
    assert len(lanes.collections) <= 2 + len(SPAN_LOOKS) + sides * len(INSTANT_LOOKS) < marks


@pytest.mark.parametrize(("start", "end"), [(None, None), (0, 10)], ids=["whole", "stretch"])
def test_damage_labels_never_touch(
    pyplot: Any, lines: Timeline, start: float | None, end: float | None
) -> None:
    drawn = figure(pyplot, lines, start, end)
    drawn.canvas.draw()
    boxes = [text.get_window_extent() for text in damage_labels(drawn)]
    hits = sum(
        mark.kind == "hit" and Window(lines, start, end).holds(mark.at)
        for lane in choose_lanes(lines).lanes
        for mark in lane.instants
    )
    assert 0 < len(boxes) <= hits
    assert not [(a, b) for a, b in combinations(boxes, 2) if a.overlaps(b)]


def test_a_combatants_damage_line_ends_when_it_goes_out(pyplot: Any) -> None:
    # the skirmish: Vell goes out at 21 s, and nothing of hers is drawn after
    skirmish = timeline_of("skirmish")
    vell = next(lane for lane in skirmish.lanes.values() if lane.name == "Vell")
    assert vell.out_at is not None
    health = figure(pyplot, skirmish).axes[1]
    line = next(line for line in health.get_lines() if line.get_label() == "Vell")
    assert max(line.get_xdata()) == vell.out_at / 1000


def test_a_hit_of_no_damage_has_no_label(pyplot: Any) -> None:
    skirmish = timeline_of("skirmish")
    lane = next(iter(skirmish.lanes.values()))
    hit = next(mark for mark in lane.instants if mark.kind == "hit")
    lane.instants[lane.instants.index(hit)] = msgspec.structs.replace(hit, damage=Decimal(0))
    drawn = figure(pyplot, skirmish)
    labels = [text.get_text() for text in damage_labels(drawn)]
    assert "0" not in labels


def test_each_condition_shown_is_named_in_the_legend(pyplot: Any) -> None:
    robots = timeline_of("robots")
    conditions = {s.label for lane in robots.lanes.values() for s in lane.spans if s.kind == "condition"}
    assert conditions
    legend = {text.get_text() for text in figure(pyplot, robots).legends[0].get_texts()}
    assert conditions <= legend
    assert "a condition" not in legend
