"""Explain the special_damage events (``affray explain``): each kind by its fields and rolls under its
rules."""

from __future__ import annotations

from collections.abc import Mapping

from affray.events.base import Event
from affray.events.special_damage.kinds import (
    AftermathEnded,
    AftermathStarted,
    ConditionEnded,
    ConditionStarted,
    EquipmentLost,
    Exploded,
    Healed,
    HealingScheduled,
    NotHealed,
    ProgramsDestroyed,
    RefereeRuling,
    SpecialDamage,
)
from affray.kernel.explanation import Explainer, by_rule

EXPLAINERS: Mapping[type[Event], Explainer] = {
    SpecialDamage: by_rule("S1, S2, S3, S9"),
    ConditionStarted: by_rule("S4, S5"),
    ConditionEnded: by_rule("S4, S5"),
    EquipmentLost: by_rule("S3"),
    ProgramsDestroyed: by_rule("S6"),
    Exploded: by_rule("S5, S6"),
    RefereeRuling: by_rule("S10"),
    AftermathStarted: by_rule("S7, S8"),
    HealingScheduled: by_rule("S7, S8"),
    Healed: by_rule("S7, S8"),
    NotHealed: by_rule("S7"),
    AftermathEnded: by_rule("S7, S8"),
}
"""The explainer of each special_damage kind: its fields and rolls, under the rules that make it."""
