"""The marks fivestep's events leave on the clock (``affray timeline``, ``affray view``): rounds (F3, F4),
the time each character's points take in its turn and where its sub-turns begin (F7: 0.5 s per 10 % of
them), attacks with their outcome and damage (F8, F10), grenades (F9)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from affray.events.base import Event
from affray.events.fivestep.kinds import (
    ActionTaken,
    DamageResolved,
    GrenadeThrown,
    RoundStarted,
    ToHitResolved,
    TurnStarted,
)
from affray.events.fivestep.state import FivestepState
from affray.kernel.timeline import Close, Instant, InstantKind, Mark, Marker, Span

HITS = ("hit", "direct", "random")
"""Outcomes of a to-hit roll that land (F8)."""


def _round(event: RoundStarted, state: FivestepState) -> Sequence[Mark]:
    return [
        Close(combatant="", kind="round", at=event.t),
        Span(combatant="", kind="round", start=event.t, end=None, label=f"R{event.round}"),
    ]


def _turn(event: TurnStarted, state: FivestepState) -> Sequence[Mark]:
    """Rule F7: a turn cut into sub-turns marks where each after the first begins."""
    if event.piece == 1:
        return []
    label = f"sub-turn {event.piece}/{event.pieces}"
    return [Instant(combatant=event.combatant, kind="subturn", at=event.t, label=label)]


def _action(event: ActionTaken, state: FivestepState) -> Sequence[Mark]:
    """From the start of the turn (or sub-turn) to the end of this action: its points' time so far."""
    return [
        Span(
            combatant=event.combatant,
            kind="turn",
            start=event.t - event.elapsed_ms,
            end=event.t,
            label=event.action,
        )
    ]


def _to_hit(event: ToHitResolved, state: FivestepState) -> Sequence[Mark]:
    kind: InstantKind = "hit" if event.outcome in HITS else "miss"
    return [Instant(combatant=event.attacker, kind=kind, at=event.t, target=event.target, label=event.weapon)]


def _damage(event: DamageResolved, state: FivestepState) -> Sequence[Mark]:
    label = f"{event.weapon}, {event.part}"
    return [
        Instant(
            combatant=event.attacker,
            kind="hit",
            at=event.t,
            target=event.target,
            damage=Decimal(event.points),
            label=label,
        )
    ]


def _grenade(event: GrenadeThrown, state: FivestepState) -> Sequence[Mark]:
    kind: InstantKind = "miss" if event.outcome == "miss" else "hit"
    return [Instant(combatant=event.thrower, kind=kind, at=event.t, target=event.target, label=event.weapon)]


MARKERS: Mapping[type[Event], Marker] = {
    RoundStarted: _round,
    TurnStarted: _turn,
    ActionTaken: _action,
    ToHitResolved: _to_hit,
    DamageResolved: _damage,
    GrenadeThrown: _grenade,
}
"""The marker of each fivestep kind that leaves a mark."""
