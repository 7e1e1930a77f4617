"""The base of every event: a frozen, keyword-only msgspec Struct tagged with a stable snake_case kind."""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar, Literal

import msgspec

Position = tuple[Decimal, Decimal]
"""A point on the plane in metres, to the millimetre."""


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", gc=False):
    """Something that happened at game time ``t`` (milliseconds), number ``seq`` in the log.

    Handlers build events with ``seq`` and ``t`` left at 0; ``Encounter.emit`` stamps both.
    ``VERSION`` is the kind's schema version: a change that cannot be defaulted bumps it and adds an
    upcaster in ``affray.events.upcast``. Events are frozen and hold only values and other frozen
    structs, so they cannot form reference cycles: ``gc=False`` keeps the garbage collector off them.
    """

    VERSION: ClassVar[int] = 1
    MOVES_THE_FIELD: ClassVar[bool] = False
    """Whether this kind changes who stands where: a join, a move, a fall, a condition. The fold counts
    such events (``EncounterState.field_version``) so that controllers' views of the field are rebuilt
    only when it changed; a kind that changes a position, ``out`` or ``conditions`` must say so."""
    CHANGES_THE_WORLD: ClassVar[bool] = True
    """Whether this kind may change what a combatant's next action is checked against. The encounter counts
    such events (``Encounter.changes``): while none happens, a combatant may repeat an action without its
    checks. Only a kind that changes nothing another combatant's action is checked against (tallies,
    damage taken, parry times, and the acting combatant's own readiness and aim) may say no."""

    seq: int = 0
    t: int = 0


RollSource = Literal["generated", "manual"]


class Roll(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One roll as it is recorded: what was rolled, by whom, why, every face, and where it came from."""

    expr: str
    faces: tuple[int, ...]
    total: int
    purpose: str
    roller: str
    source: RollSource = "generated"
    draw: int = 0
    """Which roll of its stream (``roller/purpose``) it is, from 1; 0 in logs written before rolls were
    numbered."""

    @property
    def stream(self) -> str:
        """The stream it was drawn from: ``roller/purpose``."""
        return f"{self.roller}/{self.purpose}"


def rolls_in(value: object) -> list[Roll]:
    """Every Roll a value holds (an event, a struct in it, a list of them), in field order."""
    if isinstance(value, Roll):
        return [value]
    if isinstance(value, msgspec.Struct):
        return [r for name in value.__struct_fields__ for r in rolls_in(getattr(value, name))]
    if isinstance(value, tuple | list):
        return [r for item in value for r in rolls_in(item)]
    if isinstance(value, dict):
        return [r for item in value.values() for r in rolls_in(item)]
    return []
