"""Choosing a target under any ruleset (affray/npc/targeting.py): the remembered choice."""

from __future__ import annotations

from decimal import Decimal

from affray.npc.field import Contact, Roster
from affray.npc.targeting import TargetMemory

ME = Contact(id="a", side="ford", position=(Decimal(0), Decimal(0)), out=False)
ROSTER = Roster(
    contacts=(
        ME,
        Contact(id="b", side="raiders", position=(Decimal(1), Decimal(0)), out=False),
        Contact(id="c", side="raiders", position=(Decimal(0), Decimal(2)), out=False),
    ),
    version=3,
)


def test_the_memory_keeps_the_nearest_while_the_field_stands() -> None:
    memory = TargetMemory()
    first = memory.nearest(ME, ROSTER, 0)
    assert first is not None
    assert first[0].id == "b"
    assert memory.nearest(ME, ROSTER, 4000) is first


def test_new_priority_targets_are_chosen_though_the_field_stands() -> None:
    """A standing order's priority targets take effect at its time, whether or not anyone has moved."""
    memory = TargetMemory()
    memory.nearest(ME, ROSTER, 0)
    found = memory.nearest(ME, ROSTER, 21000, ("c",))
    assert found is not None
    assert (found[0].id, found[1]) == ("c", Decimal(2))
