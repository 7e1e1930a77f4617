"""Where the combatants still in the fight stand, side by side and cell by cell: the nearest enemy is
found by looking at the cells around a chooser, nearest first, not at every combatant.

The field is cut into squares of ``CELL_M`` metres. Each side's :data:`Grid` maps a square to the
indexes (in the roster's order) of that side's contacts standing in it that are not out; a contact under
a condition stays in its square and is checked when it is looked at.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Protocol

from affray.events.base import Position
from affray.kernel.space import distance

CELL_M = 5
"""The side of a square, in metres."""
CELLS_FROM = 24
"""The fewest combatants whose roster keeps cells: among fewer, looking at every one is as quick."""

Cell = tuple[int, int]
Grid = dict[Cell, tuple[int, ...]]
Cells = dict[str, Grid]
"""Each side's grid."""


class Placed(Protocol):
    """A contact as the cells see it: its side, where it stands, whether it is out."""

    @property
    def side(self) -> str: ...
    @property
    def position(self) -> Position: ...
    @property
    def out(self) -> bool: ...

    def incapacitated(self, now: int) -> bool: ...


def cell_of(position: Position) -> Cell:
    """The square a point lies in (squares start at multiples of ``CELL_M``, negative ones too)."""
    return math.floor(position[0]) // CELL_M, math.floor(position[1]) // CELL_M


def cells_of(contacts: Sequence[Placed]) -> Cells:
    """The grids of ``contacts``, made from scratch."""
    cells: Cells = {}
    for index, contact in enumerate(contacts):
        if not contact.out:
            grid = cells.setdefault(contact.side, {})
            cell = cell_of(contact.position)
            grid[cell] = (*grid.get(cell, ()), index)
    return cells


def cells_moved(cells: Cells, changes: Sequence[tuple[int, Placed, Placed]]) -> Cells:
    """The grids after the contacts at the given indexes changed from the first contact to the second,
    as ``cells_of`` would make them; ``cells`` itself is left as it was (a roster made before holds it)."""
    moved: Cells = {}
    for index, before, after in changes:
        here = None if before.out else (before.side, cell_of(before.position))
        there = None if after.out else (after.side, cell_of(after.position))
        if here == there:
            continue
        if here is not None:
            grid = _copy(moved, cells, here[0])
            left = tuple(k for k in grid[here[1]] if k != index)
            if left:
                grid[here[1]] = left
            else:
                del grid[here[1]]
        if there is not None:
            grid = _copy(moved, cells, there[0])
            grid[there[1]] = tuple(sorted((*grid.get(there[1], ()), index)))
    return {side: grid for side, grid in {**cells, **moved}.items() if grid}


def _copy(moved: Cells, cells: Cells, side: str) -> Grid:
    """Side's grid as copied for this change (copied on its first change)."""
    grid = moved.get(side)
    if grid is None:
        grid = moved[side] = dict(cells.get(side, {}))
    return grid


def nearest_standing(
    here: Position, side: str, contacts: Sequence[Placed], cells: Cells | None, now: int
) -> tuple[int, Decimal] | None:
    """The index and distance of the nearest contact of another side than ``side`` that can fight at
    ``now``, to the millimetre; of those as near, the first in the roster. With ``cells``, the squares
    are looked at ring by ring around ``here`` until no nearer one can be left; when the rings would cost
    more than looking at every enemy (they stand far apart, or far off), and without cells, every enemy
    is looked at."""
    if cells is None:
        return _nearest_of(here, side, range(len(contacts)), contacts, now)
    grids = [grid for name, grid in cells.items() if name != side]
    occupied = sum(len(grid) for grid in grids)
    column, row = cell_of(here)
    best: tuple[Decimal, int] | None = None
    found = looked = ring = 0
    while found < occupied:
        if best is not None and (ring - 1) * CELL_M > best[0]:
            break
        if looked > 2 * occupied + 8:
            return _nearest_of(here, side, _every(grids), contacts, now)
        for cell in _ring(column, row, ring):
            looked += 1
            for grid in grids:
                indexes = grid.get(cell)
                if indexes is not None:
                    found += 1
                    best = _nearer(best, here, side, indexes, contacts, now)
        ring += 1
    return None if best is None else (best[1], best[0])


def _nearest_of(
    here: Position, side: str, indexes: Iterable[int], contacts: Sequence[Placed], now: int
) -> tuple[int, Decimal] | None:
    best = _nearer(None, here, side, indexes, contacts, now)
    return None if best is None else (best[1], best[0])


def _nearer(
    best: tuple[Decimal, int] | None,
    here: Position,
    side: str,
    indexes: Iterable[int],
    contacts: Sequence[Placed],
    now: int,
) -> tuple[Decimal, int] | None:
    """``best`` or a nearer (or as near, earlier) one of the contacts at ``indexes`` of another side
    than ``side`` that can fight."""
    for index in indexes:
        other = contacts[index]
        if other.side == side or other.incapacitated(now):
            continue
        candidate = (distance(here, other.position), index)
        if best is None or candidate < best:
            best = candidate
    return best


def _every(grids: Sequence[Grid]) -> Iterator[int]:
    for grid in grids:
        for indexes in grid.values():
            yield from indexes


def _ring(column: int, row: int, ring: int) -> Iterator[Cell]:
    """The squares ``ring`` squares away from (column, row) in either direction or both."""
    if ring == 0:
        yield column, row
        return
    for x in range(column - ring, column + ring + 1):
        yield x, row - ring
        yield x, row + ring
    for y in range(row - ring + 1, row + ring):
        yield column - ring, y
        yield column + ring, y
