"""Choosing a target, under any ruleset: the first standing priority target, else the nearest enemy."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Protocol

from affray.events.base import Position
from affray.kernel.space import distance
from affray.npc.cells import Distances, nearest_standing
from affray.npc.field import Contact, Roster

Found = tuple[Contact, Decimal] | None


class Placed(Protocol):
    """The chooser: its side and where it stands."""

    @property
    def side(self) -> str: ...
    @property
    def position(self) -> Position: ...


def nearest_enemy(
    me: Placed,
    roster: Roster,
    now: int,
    priority: Sequence[str] = (),
    known_distances: Distances | None = None,
) -> Found:
    """The first standing priority target, else the nearest standing enemy, and its distance (to the
    millimetre; ties go to the one listed first), looked for in the roster's cells where it keeps them.
    ``known_distances`` spares measuring again those who have not moved."""
    here: Position = me.position
    for wanted in priority:
        other = roster.get(wanted)
        if other is not None and other.side != me.side and not other.incapacitated(now):
            return other, distance(here, other.position)
    found = nearest_standing(here, me.side, roster.contacts, roster.cells, now, known_distances)
    if found is None:
        return None
    return roster.contacts[found[0]], found[1]


class TargetMemory:
    """A controller's last choice of target, kept while the field stands as it was (no one has joined,
    moved, fallen or changed condition, and no condition has run out) and its priority targets are the
    same, when the same choice follows."""

    def __init__(self) -> None:
        self.distances: Distances = {}
        self._version = -1
        self._priority: Sequence[str] = ()
        self._found: Found = None

    def nearest(self, me: Placed, roster: Roster, now: int, priority: Sequence[str] = ()) -> Found:
        """``nearest_enemy`` for ``me``, remembered until the field or the priority targets change."""
        if roster.version != self._version or not roster.steady(now) or priority != self._priority:
            self._found = nearest_enemy(me, roster, now, priority, self.distances)
            self._version = roster.version if roster.steady(now) else -1
            self._priority = priority
        return self._found
