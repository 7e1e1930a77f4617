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


def _round(e: RoundStarted, s: FivestepState) -> Sequence[Mark]:
    return [
        Close(combatant="", kind="round", at=e.t),
        Span(combatant="", kind="round", start=e.t, end=None, label=f"R{e.round}"),
    ]


def _turn(e: TurnStarted, s: FivestepState) -> Sequence[Mark]:
    """Rule F7: a turn cut into sub-turns marks where each after the first begins."""
    if e.piece == 1:
        return []
    label = f"sub-turn {e.piece}/{e.pieces}"
    return [Instant(combatant=e.combatant, kind="subturn", at=e.t, label=label)]


def _action(e: ActionTaken, s: FivestepState) -> Sequence[Mark]:
    """From the start of the turn (or sub-turn) to the end of this action: its points' time so far."""
    return [Span(combatant=e.combatant, kind="turn", start=e.t - e.elapsed_ms, end=e.t, label=e.action)]


def _to_hit(e: ToHitResolved, s: FivestepState) -> Sequence[Mark]:
    kind: InstantKind = "hit" if e.outcome in HITS else "miss"
    return [Instant(combatant=e.attacker, kind=kind, at=e.t, target=e.target, label=e.weapon)]


def _damage(e: DamageResolved, s: FivestepState) -> Sequence[Mark]:
    label = f"{e.weapon}, {e.part}"
    return [
        Instant(
            combatant=e.attacker, kind="hit", at=e.t, target=e.target, damage=Decimal(e.points), label=label
        )
    ]


def _grenade(e: GrenadeThrown, s: FivestepState) -> Sequence[Mark]:
    kind: InstantKind = "miss" if e.outcome == "miss" else "hit"
    return [Instant(combatant=e.thrower, kind=kind, at=e.t, target=e.target, label=e.weapon)]


MARKERS: Mapping[type[Event], Marker] = {
    RoundStarted: _round,
    TurnStarted: _turn,
    ActionTaken: _action,
    ToHitResolved: _to_hit,
    DamageResolved: _damage,
    GrenadeThrown: _grenade,
}
"""The marker of each fivestep kind that leaves a mark."""
