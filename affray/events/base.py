"""The base of every event: a frozen, keyword-only msgspec Struct tagged with a stable snake_case kind."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from decimal import Decimal
from typing import Annotated, ClassVar, Literal, get_args

import msgspec

Position = tuple[Decimal, Decimal]
"""A point on the plane in metres, to the millimetre."""

_NAMES = "names"
ActorId = Annotated[str, msgspec.Meta(extra={_NAMES: "actor"})]
"""The type of the field by which an event names the combatant it records the doing of (an attack's
attacker, a move's mover) or what befell (who fell, who woke): what a ruling on the event is about."""
CombatantId = Annotated[str, msgspec.Meta(extra={_NAMES: "combatant"})]
"""The type of a field by which an event names another combatant it is about (an attack's target)."""


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
    only when it changed; a kind that changes a position, ``out`` or ``conditions`` must say so, and
    changes them only for the combatant its ``combatant`` member names (a vocabulary refuses a kind that
    says so and has no such member)."""
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


def rolls_at(value: object, at: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Roll]]:
    """Every Roll a value holds (an event, a struct in it, a list or a mapping of them), in field order,
    each with where it is: the names and indexes that lead to it."""
    if isinstance(value, Roll):
        yield at, value
    elif isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            yield from rolls_at(getattr(value, name), (*at, name))
    elif isinstance(value, tuple | list):
        for index, item in enumerate(value):
            yield from rolls_at(item, (*at, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from rolls_at(item, (*at, key))


def rolls_in(value: object) -> list[Roll]:
    """Every Roll a value holds (an event, a struct in it, a list of them), in field order."""
    return [roll for _, roll in rolls_at(value)]


def _names(annotation: object) -> str | None:
    """What a field of this type names: "actor", "combatant", or None."""
    for meta in get_args(annotation)[1:]:
        if isinstance(meta, msgspec.Meta) and meta.extra:
            return meta.extra.get(_NAMES)
    return None


@functools.cache
def named_fields(kind: type[msgspec.Struct]) -> tuple[str, ...]:
    """The fields of ``kind`` that name combatants (typed ``ActorId`` or ``CombatantId``), in order."""
    return tuple(f.name for f in msgspec.structs.fields(kind) if _names(f.type) is not None)


@functools.cache
def actor_field(kind: type[msgspec.Struct]) -> str | None:
    """The field of ``kind`` typed ``ActorId``, if it has one."""
    return next((f.name for f in msgspec.structs.fields(kind) if _names(f.type) == "actor"), None)
