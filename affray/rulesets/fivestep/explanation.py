"""Explain the fivestep events (``affray explain``): each kind by its fields and rolls under its rules."""

from __future__ import annotations

from collections.abc import Mapping

from affray.events.base import Event
from affray.events.fivestep.kinds import (
    ActionTaken,
    AlertnessRaised,
    ApBorrowed,
    CombatantJoined,
    DamageResolved,
    GrenadeThrown,
    PoisonResolved,
    PrimaryAttackRolled,
    RoundStarted,
    SurpriseChecked,
    ToHitResolved,
    TurnStarted,
)
from affray.kernel.explanation import Explainer, by_rule

EXPLAINERS: Mapping[type[Event], Explainer] = {
    CombatantJoined: by_rule("F2"),
    SurpriseChecked: by_rule("F5"),
    PrimaryAttackRolled: by_rule("F6"),
    RoundStarted: by_rule("F3, F4"),
    TurnStarted: by_rule("F3, F7"),
    ApBorrowed: by_rule("F7"),
    ActionTaken: by_rule("F7"),
    ToHitResolved: by_rule("F1, F8"),
    GrenadeThrown: by_rule("F9"),
    DamageResolved: by_rule("F10, F11, F12"),
    PoisonResolved: by_rule("F10"),
    AlertnessRaised: by_rule("F5"),
}
"""The explainer of each fivestep kind: its fields and rolls, under the rules that make it."""
