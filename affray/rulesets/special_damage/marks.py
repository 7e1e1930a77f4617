"""The marks the special_damage module's events leave on the clock: each special damage on its target
(S1-S3), and conditions (S4, S5) from their start to their end or for good."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from affray.events.base import Event
from affray.events.special_damage.kinds import ConditionEnded, ConditionStarted, SpecialDamage
from affray.kernel.timeline import Close, Instant, Mark, Marker, Span


def _special(event: SpecialDamage, state: Any) -> Sequence[Mark]:
    return [Instant(combatant=event.target, kind="check", at=event.t, label=event.damage)]


def _started(event: ConditionStarted, state: Any) -> Sequence[Mark]:
    return [
        Span(
            combatant=event.combatant,
            kind="condition",
            start=event.t,
            end=event.until_ms,
            label=event.condition,
        )
    ]


def _ended(event: ConditionEnded, state: Any) -> Sequence[Mark]:
    return [Close(combatant=event.combatant, kind="condition", at=event.t, label=event.condition)]


MARKERS: Mapping[type[Event], Marker] = {
    SpecialDamage: _special,
    ConditionStarted: _started,
    ConditionEnded: _ended,
}
"""The marker of each special_damage kind that leaves a mark."""
