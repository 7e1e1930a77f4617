"""The kinds every ruleset shares: a combatant joins, moves, is refused an action, is out; a referee's ruling
takes effect; the encounter ends.

Shared machinery (``handlers.ending``) emits ``combatant_out`` and ``encounter_ended``; every ruleset's
vocabulary holds these kinds, and each defines its own ``combatant_joined`` on :class:`CombatantJoined`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar

import msgspec

from affray.events.base import ActorId, Event, Position, Roll


class Score(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """What a controller from outside affray thought of one of its options, as it said."""

    option: str
    score: float


class CombatantJoined(Event, frozen=True, kw_only=True, omit_defaults=True):
    """A combatant enters the encounter: the fields every ruleset's ``combatant_joined`` starts with.

    Not a kind of its own: each ruleset subclasses it with ``tag="combatant_joined"`` and the fields its
    fold needs (weapons, armor, body parts...).
    """

    MOVES_THE_FIELD: ClassVar[bool] = True

    combatant: ActorId
    name: str
    side: str
    damage_points: Decimal
    position: Position


class Moved(Event, frozen=True, kw_only=True, tag="moved", omit_defaults=True):
    """A combatant moved toward its target, or away from it when ``fleeing``: for one second (Energion),
    or as far as the Agility Points spent took it (fivestep)."""

    MOVES_THE_FIELD: ClassVar[bool] = True

    combatant: ActorId
    toward: str
    start: Position
    end: Position
    distance: Decimal
    fleeing: bool = False


class ActionRefused(Event, frozen=True, kw_only=True, tag="action_refused"):
    """An intent that the rules do not allow now, and why."""

    combatant: ActorId
    action: str
    reason: str


class CheckRolled(Event, frozen=True, kw_only=True, tag="check_rolled"):
    """A percentile check whose roll is kept even when it changes nothing (every roll is in the log): an
    Energion kick recovery (E13), a special damage RS check (S9, S5), the chance of a condition (S4, S5), a
    robot's malfunction (S5). A roll at or under ``chance`` (``under``) succeeds: for a malfunction,
    success is the robot's failure."""

    combatant: ActorId
    check: str
    roll: Roll
    chance: Decimal
    under: bool


class CombatantOut(Event, frozen=True, kw_only=True, tag="combatant_out"):
    """A combatant can fight no more."""

    MOVES_THE_FIELD: ClassVar[bool] = True

    combatant: ActorId
    reason: str


class RulingApplied(Event, frozen=True, kw_only=True, tag="ruling_applied"):
    """A referee's ruling took effect on the event just before it (seq ``rules_on``): ruling number
    ``ruling`` of the scenario's ``rulings``, what it did, and why. The ruled event already holds the
    effect; this records that it was the referee's."""

    combatant: ActorId
    ruling: int
    rules_on: int
    effect: str
    reason: str


TIME_LIMIT = "time limit"
"""How the reason of an encounter ended by its time limit begins."""


class EncounterEnded(Event, frozen=True, kw_only=True, tag="encounter_ended"):
    """The encounter is over: one side stands, or the time limit came."""

    winner: str | None
    reason: str


def kind_of(event_type: type[Event]) -> str:
    """The stable tag of an event kind, as written in the log."""
    return str(event_type.__struct_config__.tag)
