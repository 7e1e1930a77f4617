"""Tests for the NPC controllers, and the weapons their views are built with."""

from __future__ import annotations

from decimal import Decimal

from affray.npc.intents import ArmView

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
