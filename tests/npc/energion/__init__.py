"""Tests for the NPC controllers, and the weapons their views are built with."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from affray.events.energion.state import EnergionCombatant, EnergionState
from affray.npc.energion.view import ArmView, View, seen
from affray.npc.field import FieldWatch

# Bow, Self, Long ranges 10/40/100/150/200, gap 2.5 s; a long sword reaches 1 m (its chart row's PTB).
BOW = ArmView(
    index=0,
    name="Bow, Self, Long",
    mode="missile",
    reach=Decimal(10),
    ranges=(10, 40, 100, 150, 200),
    speed_ms=2500,
    uses_left=12,
)
SWORD = ArmView(
    index=1,
    name="Sword, Long",
    mode="melee",
    reach=Decimal(1),
    ranges=(1, 0, 0, 0, 0),
    speed_ms=8000,
    uses_left=None,
)


def view_of(me: EnergionCombatant, state: EnergionState, **fields: Any) -> View:
    """The frozen view a controller gets of ``me`` in ``state``, as the handlers make it."""
    return View(
        me=seen(me),
        field=FieldWatch(state).roster(),
        look=lambda combatant: seen(state.combatants[combatant]),
        **fields,
    )
