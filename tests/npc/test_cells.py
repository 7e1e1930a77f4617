"""Where the combatants stand, cell by cell (affray/npc/cells.py): the nearest enemy found from the cells
is the one a look at every combatant finds."""

from __future__ import annotations

from decimal import Decimal

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.events.base import Position
from affray.kernel.space import distance
from affray.npc.cells import (
    CELL_M,
    Distances,
    _ring,
    cell_of,
    cells_moved,
    cells_of,
    nearest_standing,
)
from affray.npc.field import Contact

coordinates = st.one_of(
    st.integers(-40_000, 40_000).map(lambda mm: Decimal(mm) / 1000),
    st.integers(-900_000, 900_000).map(Decimal),
)
contacts = st.builds(
    Contact,
    id=st.just(""),
    side=st.sampled_from(["ford", "raiders", "wolves"]),
    position=st.tuples(coordinates, coordinates),
    out=st.booleans(),
    conditions=st.sampled_from([(), (("stunned", 3000),), (("asleep", None),)]),
)
rosters = st.lists(contacts, max_size=30)


def every_enemy_looked_at(here: tuple[Decimal, Decimal], side: str, made: list[Contact], now: int) -> object:
    """The nearest as a look at every combatant finds it: least distance, then first in the roster."""
    standing = [
        (distance(here, c.position), k)
        for k, c in enumerate(made)
        if c.side != side and not c.incapacitated(now)
    ]
    if not standing:
        return None
    gap, index = min(standing)
    return index, gap


def test_a_cell_is_the_square_a_point_lies_in_negative_or_not() -> None:
    # floor(-0.001) = -1 and -1 // 5 = -1; floor(4.999) = 4 and 4 // 5 = 0; floor(5) // 5 = 1.
    assert cell_of((Decimal("-0.001"), Decimal("4.999"))) == (-1, 0)
    assert cell_of((Decimal(5), Decimal(-5))) == (1, -1)


def test_a_ring_is_the_squares_that_far_around() -> None:
    # Ring 0 is the square itself; ring r the 8r squares on the border of the (2r+1)-wide block.
    assert list(_ring(2, 3, 0)) == [(2, 3)]
    for ring in (1, 2, 5):
        cells = list(_ring(0, 0, ring))
        assert len(cells) == len(set(cells)) == 8 * ring
        assert all(max(abs(x), abs(y)) == ring for x, y in cells)


def test_contacts_out_are_in_no_cell() -> None:
    made = [
        Contact(id="a", side="ford", position=(Decimal(1), Decimal(1)), out=False),
        Contact(id="b", side="ford", position=(Decimal(2), Decimal(2)), out=True),
        Contact(id="c", side="raiders", position=(Decimal(CELL_M), Decimal(0)), out=False),
    ]
    assert cells_of(made) == {"ford": {(0, 0): (0,)}, "raiders": {(1, 0): (2,)}}


places = st.tuples(coordinates, coordinates)


@given(rosters, places, st.sampled_from(["ford", "raiders"]), st.integers(0, 6000), st.booleans())
def test_the_nearest_from_the_cells_is_the_nearest_of_all(
    made: list[Contact], here: tuple[Decimal, Decimal], side: str, now: int, with_cells: bool
) -> None:
    """Ties included: the first in the roster of those as near, far-off and far-apart fields too; and
    without cells, by looking at every contact."""
    found = nearest_standing(here, side, made, cells_of(made) if with_cells else None, now)
    assert found == every_enemy_looked_at(here, side, made, now)


@given(rosters, places, st.lists(st.tuples(st.integers(0, 29), places), max_size=6), st.booleans())
def test_distances_kept_from_a_look_before_are_measured_again_for_those_who_moved(
    made: list[Contact], here: tuple[Decimal, Decimal], moves: list[tuple[int, Position]], with_cells: bool
) -> None:
    """The chooser keeps its distances from one look to the next (``known``); one whose contact or
    itself has moved since is measured again."""
    known: Distances = {}
    nearest_standing(here, "ford", made, cells_of(made) if with_cells else None, 0, known)
    after = list(made)
    for index, there in moves:
        if index < len(after):
            after[index] = msgspec.structs.replace(after[index], position=there)
    found = nearest_standing(here, "ford", after, cells_of(after) if with_cells else None, 0, known)
    assert found == every_enemy_looked_at(here, "ford", after, 0)


def raider(x: int) -> Contact:
    return Contact(id="", side="raiders", position=(Decimal(x), Decimal(0)), out=False)


ORIGIN = (Decimal(0), Decimal(0))
LINE = [raider(2), raider(7)]
"""From (0, 0), raiders at 2 m and 7 m: the first is the nearest."""


def looked_again(here: Position, after: list[Contact], with_cells: bool) -> object:
    """The nearest from ``here`` among ``after``, with the distances kept from a look from (0, 0) at
    ``LINE``."""
    known: Distances = {}
    assert nearest_standing(ORIGIN, "ford", LINE, cells_of(LINE) if with_cells else None, 0, known) == (
        0,
        Decimal(2),
    )
    return nearest_standing(here, "ford", after, cells_of(after) if with_cells else None, 0, known)


@pytest.mark.parametrize("with_cells", [False, True])
def test_a_distance_kept_is_measured_again_when_the_enemy_moved(with_cells: bool) -> None:
    # The raider at 2 m steps back to 9 m: the one at 7 m is the nearest.
    assert looked_again(ORIGIN, [raider(9), LINE[1]], with_cells) == (1, Decimal(7))


@pytest.mark.parametrize("with_cells", [False, True])
def test_a_distance_kept_is_measured_again_when_the_chooser_moved(with_cells: bool) -> None:
    # The chooser steps to (10, 0): the raider at 7 m is 3 m off, the one at 2 m 8 m off.
    assert looked_again((Decimal(10), Decimal(0)), LINE, with_cells) == (1, Decimal(3))


@pytest.mark.parametrize("first", [Decimal(-3), Decimal(3)])
def test_of_two_as_near_the_first_in_the_roster_is_the_nearest(first: Decimal) -> None:
    # Both raiders stand 3 m from (0, 0), in different squares: (3, 0) in (0, 0), looked at first,
    # and (-3, 0) in (-1, 0), looked at next; whichever is listed first is the nearest.
    made = [
        Contact(id="first", side="raiders", position=(first, Decimal(0)), out=False),
        Contact(id="second", side="raiders", position=(-first, Decimal(0)), out=False),
    ]
    assert nearest_standing((Decimal(0), Decimal(0)), "ford", made, cells_of(made), 0) == (0, Decimal(3))


@given(rosters, st.lists(st.tuples(st.integers(0, 29), contacts), max_size=8))
def test_cells_moved_are_the_cells_made_anew(made: list[Contact], changed: list[tuple[int, Contact]]) -> None:
    """And the cells moved from are left as they were, for the roster that holds them."""
    before = cells_of(made)
    kept = {side: dict(grid) for side, grid in before.items()}
    after = list(made)
    changes = []
    for index, contact in changed:
        if index < len(after):
            changes.append((index, after[index], contact))
            after[index] = contact
    assert cells_moved(before, changes) == cells_of(after)
    assert before == kept
