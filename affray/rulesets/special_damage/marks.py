"""The marks the special_damage module's events leave on the clock: each special damage on its target
(S1-S3), and conditions (S4, S5) from their start to their end or for good."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from affray.events.base import Event
from affray.events.special_damage.kinds import ConditionEnded, ConditionStarted, SpecialDamage
from affray.kernel.timeline import Close, Instant, Mark, Marker, Span


def _special(e: SpecialDamage, s: Any) -> Sequence[Mark]:
    return [Instant(combatant=e.target, kind="check", at=e.t, label=e.damage)]


def _started(e: ConditionStarted, s: Any) -> Sequence[Mark]:
    return [Span(combatant=e.combatant, kind="condition", start=e.t, end=e.until_ms, label=e.condition)]


def _ended(e: ConditionEnded, s: Any) -> Sequence[Mark]:
    return [Close(combatant=e.combatant, kind="condition", at=e.t, label=e.condition)]


MARKERS: Mapping[type[Event], Marker] = {
    SpecialDamage: _special,
    ConditionStarted: _started,
    ConditionEnded: _ended,
}
"""The marker of each special_damage kind that leaves a mark."""
