"""The state every ruleset's fold shares, and the appliers of the shared kinds.

A ruleset's combatant state subclasses :class:`CombatantState` with its own fields, and its encounter
state subclasses :class:`EncounterState` over that combatant type. The shared tools (summaries, ending,
controllers' view of the field) read only what is declared here.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Generic, TypeVar

import msgspec

from affray.events.base import Event, Position
from affray.events.shared import (
    ActionRefused,
    CheckRolled,
    CombatantJoined,
    CombatantOut,
    EncounterEnded,
    Moved,
    RulingApplied,
)
from affray.events.vocabulary import Part

_ZERO = Decimal(0)
RECENT_MS = 1000
"""A move within the last second is the combatant's current velocity."""
SAME_STEP_M = Decimal("0.002")
"""Steps that differ by no more than this on either axis are the same movement: positions are kept to the
millimetre, so a steady pace moves 1 m one second and 0.999 m the next (E17: steady movement)."""


class CombatantState(msgspec.Struct, kw_only=True):
    """What is true of one combatant at a moment, under any ruleset."""

    id: str
    name: str
    side: str
    damage_points: Decimal
    position: Position
    damage_taken: Decimal = _ZERO
    damage_dealt: Decimal = _ZERO
    attacks: int = 0
    hits: int = 0
    velocity: Position = (_ZERO, _ZERO)
    """Its last move, in metres over the move's second."""
    moved_ms: int | None = None
    course_changed_ms: int | None = None
    """When its movement last changed: it set off, turned, changed pace or fled (a move that is not the one
    of the second before, at the same velocity). Energion reads it as the "unusual or unpredictable
    movement" that ruins aim at it (E17)."""
    location_damage: dict[str, Decimal] = msgspec.field(default_factory=dict)
    """Damage taken by location or body part, where the ruleset has them."""
    disabled: list[str] = msgspec.field(default_factory=list)
    """Locations or body parts no longer of use."""
    conditions: dict[str, int | None] = msgspec.field(default_factory=dict)
    """Conditions that keep it from acting or reacting, each with the ms it lasts until (None: for good)."""
    out: bool = False
    out_reason: str | None = None

    @property
    def damage_left(self) -> Decimal:
        """Damage points not yet lost."""
        return self.damage_points - self.damage_taken

    def incapacitated(self, now: int) -> bool:
        """Out, or under a condition at ``now``: it can neither act nor react."""
        if self.out:
            return True
        if not self.conditions:
            return False
        return any(until is None or now < until for until in self.conditions.values())

    def recovers_at(self) -> int | None:
        """When its conditions have all run out; None when one lasts for good."""
        ends = list(self.conditions.values())
        if any(until is None for until in ends):
            return None
        return max((until for until in ends if until is not None), default=0)

    def velocity_at(self, now: int) -> Position:
        """Its velocity in m/s: the last move if it moved within the last second, else at rest."""
        if self.moved_ms is not None and now - self.moved_ms < RECENT_MS:
            return self.velocity
        return (_ZERO, _ZERO)


C = TypeVar("C", bound=CombatantState)


def joined_fields(event: CombatantJoined) -> dict[str, Any]:
    """The shared fields of a combatant state, from its ``combatant_joined``: a ruleset's applier adds its own
    (``YourCombatant(**joined_fields(e), weapon=e.weapon)``)."""
    return {
        "id": event.combatant,
        "name": event.name,
        "side": event.side,
        "damage_points": event.damage_points,
        "position": event.position,
    }


class EncounterState(msgspec.Struct, Generic[C], kw_only=True):
    """Everything the log has established up to ``seq`` at game time ``t`` (milliseconds)."""

    seq: int = 0
    t: int = 0
    combatants: dict[str, C] = msgspec.field(default_factory=dict)
    ended: bool = False
    winner: str | None = None
    end_reason: str | None = None
    field_version: int = 0
    """How many events so far changed who stands where (``Event.MOVES_THE_FIELD``)."""

    def standing_sides(self) -> list[str]:
        """Sides with at least one combatant still in the fight, in order of first appearance."""
        sides: list[str] = []
        for c in self.combatants.values():
            if not c.incapacitated(self.t) and c.side not in sides:
                sides.append(c.side)
        return sides


def _moved(state: EncounterState[Any], event: Moved) -> None:
    combatant = state.combatants[event.combatant]
    step = (event.end[0] - event.start[0], event.end[1] - event.start[1])
    before = combatant.moved_ms
    steady = before is not None and event.t - before <= RECENT_MS and _same_step(combatant.velocity, step)
    if event.fleeing or not steady:
        combatant.course_changed_ms = event.t
    combatant.position = event.end
    combatant.velocity = step
    combatant.moved_ms = event.t


def _same_step(before: tuple[Decimal, Decimal], now: tuple[Decimal, Decimal]) -> bool:
    return abs(before[0] - now[0]) <= SAME_STEP_M and abs(before[1] - now[1]) <= SAME_STEP_M


def _out(state: EncounterState[Any], event: CombatantOut) -> None:
    combatant = state.combatants[event.combatant]
    combatant.out = True
    combatant.out_reason = event.reason


def _ended(state: EncounterState[Any], event: EncounterEnded) -> None:
    state.ended = True
    state.winner = event.winner
    state.end_reason = event.reason


def unchanged(state: object, event: Event) -> None:
    """For kinds that are told but change nothing the fold keeps (a refusal, a check that changed nothing)."""


SHARED = Part(
    name="shared",
    appliers={
        Moved: _moved,
        ActionRefused: unchanged,
        CheckRolled: unchanged,
        CombatantOut: _out,
        RulingApplied: unchanged,
        EncounterEnded: _ended,
    },
)
"""The shared kinds, in every vocabulary."""
