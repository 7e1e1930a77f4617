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
    """A controller's last choice of target, kept while the same choice follows: while the field stands
    as it was (no one has joined, moved, fallen or changed condition, and no condition has run out) and its
    priority targets are the same; and, with no priority targets, while the chooser and its target stand
    as they stood and no enemy made again since (moved, fallen, come round) stands nearer, or as near and
    listed before the target (``Roster.changed_since``)."""

    def __init__(self) -> None:
        self.distances: Distances = {}
        self._version = -1
        self._priority: Sequence[str] = ()
        self._found: Found = None
        self._best: tuple[Decimal, int] | None = None
        """The target's distance and index in the roster (with no priority targets)."""
        self._here: Position | None = None

    def nearest(self, me: Placed, roster: Roster, now: int, priority: Sequence[str] = ()) -> Found:
        """``nearest_enemy`` for ``me``, remembered while the same choice follows."""
        steady = roster.steady(now)
        if roster.version != self._version or not steady or priority != self._priority:
            if not (steady and not priority and self._still_nearest(me, roster, now)):
                self._choose(me, roster, now, priority)
            self._version = roster.version if steady else -1
            self._priority = priority
        return self._found

    def _choose(self, me: Placed, roster: Roster, now: int, priority: Sequence[str]) -> None:
        """Look for the target afresh."""
        self._here = me.position
        if priority:
            self._found, self._best = nearest_enemy(me, roster, now, priority, self.distances), None
            return
        found = nearest_standing(me.position, me.side, roster.contacts, roster.cells, now, self.distances)
        self._found = None if found is None else (roster.contacts[found[0]], found[1])
        self._best = None if found is None else (found[1], found[0])

    def _still_nearest(self, me: Placed, roster: Roster, now: int) -> bool:
        """Whether the last choice, made for ``me`` where it stands now, is the choice in ``roster``: no
        contact made again since is the target or an enemy as near or nearer (ties go to the first)."""
        if self._version < 0 or self._priority or me.position is not self._here:
            return False
        changed = roster.changed_since(self._version)
        if changed is None:
            return False
        best, here = self._best, me.position
        for index in changed:
            other = roster.contacts[index]
            if other.side == me.side:
                continue
            if best is None:
                if not other.incapacitated(now):
                    return False  # someone to choose now
                continue
            if index == best[1]:
                return False  # the target moved, fell or changed condition
            there = other.position
            if abs(there[0] - here[0]) > best[0] or abs(there[1] - here[1]) > best[0]:
                continue  # farther along one axis alone than the target is
            if not other.incapacitated(now) and (distance(here, there), index) < best:
                return False
        return True
