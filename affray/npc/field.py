"""What every controller sees of the field, under any ruleset: frozen contacts, never the live state.

A :class:`Roster` holds one :class:`Contact` per combatant: who it is, its side, where it stands and
whether it can fight. It is rebuilt from the encounter's state only when the state's ``field_version``
has moved (someone joined, moved, fell or changed condition), so handing it to every decision is cheap,
and a controller holding it cannot change the encounter.
"""

from __future__ import annotations

from typing import Any

import msgspec

from affray.events.base import Position


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
    """The roster of one encounter's state, remade when the field changes."""

    def __init__(self, state: Any) -> None:
        self._state = state
        self._roster = Roster(contacts=(), version=-1)

    def roster(self) -> Roster:
        """The roster as of the state's current ``field_version`` (a contact made again only for a
        combatant that moved, fell or has conditions)."""
        state = self._state
        if self._roster.version != state.field_version:
            contacts, steady_until = _contacts(state.combatants, self._roster.contacts)
            self._roster = Roster(contacts=contacts, version=state.field_version, steady_until=steady_until)
        return self._roster


def _contacts(combatants: Any, before: tuple[Contact, ...]) -> tuple[tuple[Contact, ...], int | None]:
    """Each combatant's contact: as ``before`` (in the same order, for those who had joined then) where it
    still holds (the same position, out or not as it was, and no conditions then or now), else made anew;
    and the first ms a condition runs out (None: none is timed)."""
    live = list(combatants.values())
    made = [
        kept
        if kept.position is c.position and kept.out == c.out and not (kept.conditions or c.conditions)
        else contact_of(c)
        for kept, c in zip(before, live, strict=False)
    ]
    made += map(contact_of, live[len(before) :])
    timed = [until for c in made if c.conditions for _, until in c.conditions if until is not None]
    return tuple(made), min(timed) if timed else None
