"""What every controller sees of the field, under any ruleset: frozen contacts, never the live state.

A :class:`Roster` holds one :class:`Contact` per combatant: who it is, its side, where it stands and
whether it can fight. It is rebuilt from the encounter's state only when the state's ``field_version``
has moved (someone joined, moved, fell or changed condition), so handing it to every decision is cheap,
and a controller holding it cannot change the encounter.
"""

from __future__ import annotations

import bisect
from itertools import takewhile
from typing import Any
from weakref import WeakKeyDictionary

import msgspec

from affray.events.base import Position
from affray.npc.cells import CELLS_FROM, Cells, cells_moved, cells_of


class Contact(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One combatant as anyone in the fight can see it."""

    id: str
    side: str
    position: Position
    out: bool
    conditions: tuple[tuple[str, int | None], ...] = ()
    """Its conditions, each with the ms it lasts until (None: for good)."""

    def incapacitated(self, now: int) -> bool:
        """Out, or under a condition at ``now``: it can neither act nor react."""
        if self.out:
            return True
        if not self.conditions:
            return False
        return any(until is None or now < until for _, until in self.conditions)


class Roster(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Every combatant's contact, in the order they joined, as of ``version`` of the field."""

    contacts: tuple[Contact, ...]
    version: int
    steady_until: int | None = None
    """Until this ms no condition runs out by itself, so who can fight changes only with a new version;
    None when no condition is timed."""
    cells: Cells | None = None
    """Where the contacts not out stand, side by side (``affray.npc.cells``), for a roster of
    ``CELLS_FROM`` or more; None: the nearest enemy is found by looking at every contact."""
    recent: tuple[tuple[int, int], ...] = ()
    """The contacts made again lately, oldest first: the version of the roster each was made again for,
    and its index (-1: every contact was made anew)."""
    recalls_from: int | None = None
    """The oldest version since which ``recent`` holds every contact made again (None: none before this
    roster's own)."""

    def changed_since(self, version: int) -> set[int] | None:
        """The indexes of the contacts made again since ``version`` of the field; None when the roster
        cannot tell (too long ago, or every contact was made anew since)."""
        if version == self.version:
            return set()
        if self.recalls_from is None or version < self.recalls_from:
            return None
        since = bisect.bisect_right(self.recent, (version, len(self.contacts)))
        changed = {index for _, index in self.recent[since:]}
        return None if -1 in changed else changed

    def get(self, combatant: str) -> Contact | None:
        """The contact of ``combatant``, if it is in the fight."""
        return next((c for c in self.contacts if c.id == combatant), None)

    def steady(self, now: int) -> bool:
        """Whether who can fight is as it was when the roster was made."""
        return self.steady_until is None or now < self.steady_until


def contact_of(combatant: Any) -> Contact:
    """The contact of a live combatant state (any ruleset's)."""
    return Contact(
        id=combatant.id,
        side=combatant.side,
        position=combatant.position,
        out=combatant.out,
        conditions=tuple(combatant.conditions.items()),
    )


class FieldWatch:
    """The roster of one encounter's state, remade when the field changes. With ``moved`` (the encounter's
    record of who moved the field last, and when: ``Encounter.moved``) only the contacts of those named
    since the roster was last made are made again; without it, every contact."""

    def __init__(self, state: Any, moved: dict[str, int] | None = None) -> None:
        self._state = state
        self._moved = moved
        self._roster = Roster(contacts=(), version=-1)
        self._seen = 0
        """The seq of the last move the roster holds."""
        self._where: dict[str, int] = {}
        self._timed: dict[str, int] = {}
        """The first ms a condition of each combatant runs out, of those with a timed one."""
        self._recent: tuple[tuple[int, int], ...] = ()
        self._recalls_from = -1

    def roster(self) -> Roster:
        """The roster as of the state's current ``field_version``."""
        state = self._state
        if self._roster.version != state.field_version:
            version = state.field_version
            contacts, cells, remade = self._made_anew() if self._moved is None else self._remade(self._moved)
            self._recall(version, remade)
            steady_until = min(self._timed.values()) if self._timed else None
            self._roster = Roster(
                contacts=contacts,
                version=version,
                steady_until=steady_until,
                cells=cells,
                recent=self._recent,
                recalls_from=self._recalls_from,
            )
        return self._roster

    def _remade(self, moved: dict[str, int]) -> Remade:
        """The contacts with those of the combatants ``moved`` names since ``_seen`` made again (all of
        them when one has joined since, to keep the order they joined in), and their cells."""
        roster = self._roster
        changed = list(takewhile(lambda named: named[1] > self._seen, reversed(moved.items())))
        if not changed:
            return roster.contacts, roster.cells, ()
        self._seen = changed[0][1]
        if any(who not in self._where for who, _ in changed):
            return self._made_anew()
        combatants = self._state.combatants
        contacts = list(roster.contacts)
        changes = []
        for who, _ in changed:
            index = self._where[who]
            contacts[index] = contact = contact_of(combatants[who])
            changes.append((index, roster.contacts[index], contact))
            self._time(contact)
        made = tuple(contacts)
        cells = None if roster.cells is None else cells_moved(roster.cells, changes)
        return made, cells, tuple(index for index, _, _ in changes)

    def _made_anew(self) -> Remade:
        """Every combatant's contact, made again, and their cells."""
        made = tuple(contact_of(c) for c in self._state.combatants.values())
        self._where = {contact.id: k for k, contact in enumerate(made)}
        self._timed = {}
        for contact in made:
            self._time(contact)
        return made, _cells(made), (-1,)

    def _recall(self, version: int, remade: tuple[int, ...]) -> None:
        """Note the contacts made again for ``version``, keeping the last ``RECALLED``."""
        recent = self._recent + tuple((version, index) for index in remade)
        if len(recent) > RECALLED:
            self._recalls_from = max(self._recalls_from, recent[-RECALLED - 1][0])
            recent = recent[-RECALLED:]
        self._recent = recent

    def _time(self, contact: Contact) -> None:
        """Note when ``contact``'s first timed condition runs out, if it has one."""
        ends = [until for _, until in contact.conditions if until is not None]
        if ends:
            self._timed[contact.id] = min(ends)
        else:
            self._timed.pop(contact.id, None)


RECALLED = 512
"""How many contacts made again a roster remembers (``Roster.changed_since``)."""
Remade = tuple[tuple[Contact, ...], Cells | None, tuple[int, ...]]
"""The contacts, their cells, and the indexes of those made again (-1: all of them)."""


def _cells(contacts: tuple[Contact, ...]) -> Cells | None:
    """The cells of a roster big enough to need them."""
    return cells_of(contacts) if len(contacts) >= CELLS_FROM else None


_WATCHES: WeakKeyDictionary[Any, FieldWatch] = WeakKeyDictionary()


def watch_of(encounter: Any) -> FieldWatch:
    """The one watch of ``encounter``'s field (its ``state`` and its record of who moved, ``moved``),
    shared by every controller that looks at it: the roster is made again once for each change."""
    watch = _WATCHES.get(encounter)
    if watch is None:
        watch = _WATCHES[encounter] = FieldWatch(encounter.state, encounter.moved)
    return watch
