"""Sweeps (batch/sweep.py): a grid of changes, the same seeds at every point."""

from __future__ import annotations

from pathlib import Path

import pytest

from affray.batch.report import Rate, Report, SideReport
from affray.batch.runner import BatchSpec, run_batch
from affray.batch.sweep import _series, at_the_edge, grid, nearest_even, parse_vary, tell_sweep
from affray.errors import AffrayError

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples" / "duel.toml"


def test_a_list_is_comma_separated_and_read_as_json_where_it_can_be() -> None:
    assert parse_vary("combatants.gorm.skill=50,60.5,true,Axe") == (
        "combatants.gorm.skill",
        [50, 60.5, True, "Axe"],
    )


def test_values_with_commas_are_a_json_array() -> None:
    assert parse_vary('combatants.gorm.weapons.0.name=["Axe, 1 hand", "Sword, Long"]')[1] == [
        "Axe, 1 hand",
        "Sword, Long",
    ]


@pytest.mark.parametrize("text", ["combatants.gorm.skill", "=1,2", "x=", "x=[1,"])
def test_a_malformed_vary_is_an_error(text: str) -> None:
    with pytest.raises(AffrayError, match="--vary"):
        parse_vary(text)


def test_the_grid_varies_the_first_path_slowest() -> None:
    assert grid([("a", [1, 2]), ("b", ["x", "y"])]) == [
        (("a", 1), ("b", "x")),
        (("a", 1), ("b", "y")),
        (("a", 2), ("b", "x")),
        (("a", 2), ("b", "y")),
    ]


def test_every_point_is_fought_with_the_same_seeds() -> None:
    low = list(run_batch(BatchSpec(DUEL, (("combatants.gorm.skill", 60),)), 20, 3))
    high = list(run_batch(BatchSpec(DUEL, (("combatants.gorm.skill", 100),)), 20, 3))
    assert [o.seed for o in low] == [o.seed for o in high]
    assert [o.end_ms for o in low] != [o.end_ms for o in high]


def _report(rates: dict[str, int], runs: int = 100) -> Report:
    sides = [SideReport(side, Rate.of(wins, runs)) for side, wins in rates.items()]
    none = Rate.of(0, runs)
    return Report(runs, 1, sides, none, none, 1.0, {}, 1.0, [])


def test_the_point_nearest_an_even_fight_has_its_sides_closest_to_equal_shares() -> None:
    # |0.9 - 0.5| + |0.1 - 0.5| = 0.8; 0.6 and 0.4: 0.2; 0.3 and 0.7: 0.4
    reports = [_report({"a": 90, "b": 10}), _report({"a": 60, "b": 40}), _report({"a": 30, "b": 70})]
    assert nearest_even(reports) == 1


def test_a_point_at_the_first_or_last_value_swept_is_at_the_edge() -> None:
    points = grid([("a.skill", [40, 60, 80]), ("b.skill", [50, 90])])
    edges = {point: at_the_edge(points, index) for index, point in enumerate(points)}
    assert edges[(("a.skill", 60), ("b.skill", 90))] == ["b.skill"]
    assert edges[(("a.skill", 40), ("b.skill", 50))] == ["a.skill", "b.skill"]


def test_a_point_inside_the_range_swept_is_not_at_the_edge() -> None:
    points = grid([("a.skill", [40, 60, 80])])
    assert at_the_edge(points, 1) == []


def test_the_nearest_even_point_at_an_edge_says_the_even_point_may_lie_beyond() -> None:
    points = grid([("a.skill", [40, 60, 80])])
    reports = [_report({"a": 90, "b": 10}), _report({"a": 80, "b": 20}), _report({"a": 70, "b": 30})]
    told = tell_sweep(points, reports, "duel")[-1]
    assert told == (
        "nearest to an even fight: a.skill=80"
        " (at the edge of the a.skill swept: the even point may lie beyond it)"
    )


def test_every_line_of_a_grid_sweep_is_drawn_in_the_colour_of_its_side() -> None:
    points = grid([("a.skill", [40, 60]), ("b.skill", [50, 90])])
    reports = [_report({"ford": 60, "raiders": 40}) for _ in points]
    lines = _series(points, reports, ["ford", "raiders"])
    assert {side for side, _ in lines.values()} == {"ford"}
    assert len(lines) == 2
