"""Positions on the plane: distances and steps, exact to the millimetre."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from affray.events.base import Position
from affray.kernel.space import approach, distance, metres, step_toward

D = Decimal
MILLIMETRE = D("0.001")

coordinates = st.integers(min_value=-50_000, max_value=50_000).map(lambda mm: D(mm).scaleb(-3))
points = st.tuples(coordinates, coordinates)
lengths = st.integers(min_value=1, max_value=20_000).map(lambda mm: D(mm).scaleb(-3))


def at(x: str, y: str) -> Position:
    return (D(x), D(y))


def test_metres_keeps_a_scenario_number_to_the_millimetre() -> None:
    assert metres(2.5) == D("2.500")
    assert str(metres(0.1)) == "0.100"  # from the float's shortest repr, not its binary value


def test_distance_of_a_3_4_5_triangle() -> None:
    assert distance(at("0", "0"), at("3", "4")) == 5


def test_distance_rounds_to_the_millimetre() -> None:
    # sqrt(2) = 1.41421... -> 1.414
    assert str(distance(at("0", "0"), at("1", "1"))) == "1.414"


@given(a=points, b=points)
def test_distance_is_symmetric(a: Position, b: Position) -> None:
    assert distance(a, b) == distance(b, a)


def test_step_along_an_axis_is_exact() -> None:
    assert step_toward(at("0", "0"), at("10", "0"), D(3)) == (D("3.000"), D("0.000"))


def test_step_along_a_diagonal_is_exact() -> None:
    # 2.5 m of the 5 m to (3, 4): half way, (1.5, 2)
    assert step_toward(at("0", "0"), at("3", "4"), D("2.5")) == (D("1.5"), D("2"))


def test_step_longer_than_the_gap_stops_at_the_goal() -> None:
    assert step_toward(at("0", "0"), at("3", "4"), D(10)) == at("3", "4")


def test_step_onto_the_goal_itself() -> None:
    assert step_toward(at("1", "1"), at("1", "1"), D(3)) == at("1", "1")


@given(start=points, goal=points, length=lengths)
def test_step_lands_on_the_millimetre_grid(start: Position, goal: Position, length: Decimal) -> None:
    end = step_toward(start, goal, length)
    assert all(value % MILLIMETRE == 0 for value in end)


@given(start=points, goal=points, length=lengths)
def test_step_never_overshoots_the_goal(start: Position, goal: Position, length: Decimal) -> None:
    # each coordinate stays between start and goal, and the goal is never further than it was
    end = step_toward(start, goal, length)
    for axis in (0, 1):
        low, high = sorted((start[axis], goal[axis]))
        assert low <= end[axis] <= high
    assert distance(end, goal) <= distance(start, goal)


def test_step_is_never_longer_than_asked() -> None:
    start = at("0", "0")
    end = step_toward(start, at("0.097", "0.097"), D("0.097"))
    assert distance(start, end) <= D("0.097")


def test_approach_ends_within_reach_on_a_diagonal() -> None:
    # 2.005 m to go with 1 m reach: rounding toward the goal leaves 1 m or less, never 1.001 m.
    end = approach(at("0", "0"), at("0.143", "2.0"), D(1))
    assert distance(end, at("0.143", "2.0")) <= D(1)


def test_approach_from_within_reach_stays_put() -> None:
    assert approach(at("0", "0"), at("0.5", "0"), D(1)) == at("0", "0")


def test_a_step_that_is_a_whole_share_of_the_way_ends_exactly_there() -> None:
    # energion ruling 60, fivestep ruling 59 (F8 reach): dx x length / distance = 3 x 1 / 3 = 1.000 m;
    # the share first, 1/3 to 28 digits x 3, was 0.999
    start, goal = (Decimal("0.000"), Decimal("0.000")), (Decimal("3.000"), Decimal("0.000"))
    assert step_toward(start, goal, Decimal(1)) == (Decimal("1.000"), Decimal("0.000"))
    assert step_toward((Decimal("1.000"), Decimal("0.000")), goal, Decimal(1)) == (
        Decimal("2.000"),
        Decimal("0.000"),
    )
