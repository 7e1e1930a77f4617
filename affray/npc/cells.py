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
SQUARES_PER_ENEMY_SQUARE = 16
"""How many squares a search may look at, for each square an enemy stands in, before it looks at every
enemy instead: looking at an empty square costs a small fraction of measuring a distance."""

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


Distances = dict[int, tuple[Position, Position, Decimal]]
"""A chooser's distance to each contact by its index in the roster, with the two points it was measured
between: good while neither has moved (the same position objects)."""


def nearest_standing(
    here: Position,
    side: str,
    contacts: Sequence[Placed],
    cells: Cells | None,
    now: int,
    known: Distances | None = None,
) -> tuple[int, Decimal] | None:
    """The index and distance of the nearest contact of another side than ``side`` that can fight at
    ``now``, to the millimetre; of those as near, the first in the roster. With ``cells``, the squares
    are looked at ring by ring around ``here`` until no nearer one can be left; when the rings would cost
    more than looking at every enemy (they stand far off), and without cells, every enemy is looked at.
    ``known`` (kept by the chooser from one look to the next) spares measuring again."""
    search = _Search(here, side, contacts, now, {} if known is None else known)
    if cells is None:
        search.look(range(len(contacts)))
        return search.found()
    grids = [grid for name, grid in cells.items() if name != side]
    occupied = sum(len(grid) for grid in grids)
    column, row = cell_of(here)
    found = looked = ring = 0
    while found < occupied:
        if search.best is not None and (ring - 1) * CELL_M > search.best[0]:
            break
        if looked > SQUARES_PER_ENEMY_SQUARE * occupied + 64:
            search.look(_every(grids))
            break
        for cell in _ring(column, row, ring):
            looked += 1
            for grid in grids:
                indexes = grid.get(cell)
                if indexes is not None:
                    found += 1
                    search.look(indexes)
        ring += 1
    return search.found()


class _Search:
    """One look for the nearest enemy: from where, for which side, and the nearest found so far."""

    __slots__ = ("best", "contacts", "here", "known", "now", "side")

    def __init__(
        self, here: Position, side: str, contacts: Sequence[Placed], now: int, known: Distances
    ) -> None:
        self.here, self.side, self.contacts, self.now, self.known = here, side, contacts, now, known
        self.best: tuple[Decimal, int] | None = None

    def look(self, indexes: Iterable[int]) -> None:
        """Look at the contacts at ``indexes``: one of another side that can fight, nearer than the best
        so far (or as near and earlier in the roster), is the best."""
        here, side, contacts, now, known, best = (
            self.here,
            self.side,
            self.contacts,
            self.now,
            self.known,
            self.best,
        )
        for index in indexes:
            other = contacts[index]
            if other.side == side or other.incapacitated(now):
                continue
            there = other.position
            kept = known.get(index)
            if kept is not None and kept[0] is here and kept[1] is there:
                gap = kept[2]
            else:
                gap = distance(here, there)
                known[index] = (here, there, gap)
            if best is None or (gap, index) < best:
                best = (gap, index)
        self.best = best

    def found(self) -> tuple[int, Decimal] | None:
        """The nearest's index and distance, if any."""
        return None if self.best is None else (self.best[1], self.best[0])


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
