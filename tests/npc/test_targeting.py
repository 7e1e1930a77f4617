"""Choosing a target under any ruleset (affray/npc/targeting.py): the remembered choice."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from affray.events.base import Position
from affray.npc.field import Contact, Roster
from affray.npc.targeting import TargetMemory, nearest_enemy
from tests.npc.test_field import Field, joined

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


steps = st.lists(
    st.tuples(
        st.integers(0, 29),
        st.sampled_from(["move", "fall", "stun", "recover"]),
        st.tuples(st.integers(-30, 30), st.integers(-30, 30)),
        st.booleans(),
    ),
    max_size=30,
)


@given(st.lists(st.tuples(st.integers(-30, 30), st.integers(-30, 30)), min_size=30, max_size=30), steps)
def test_the_memory_chooses_as_a_fresh_look_would_whoever_moves(
    places: list[tuple[int, int]], changes: list[tuple[int, str, tuple[int, int], bool]]
) -> None:
    """Thirty combatants, two sides, in a battle's worth of rosters: whoever moves, falls, is stunned or
    comes round, each chooser's remembered target is the one a fresh look finds (ties to the first)."""
    state, moved, watch, _ = joined(30)
    for k, (x, y) in enumerate(places):
        place(state, moved, f"c{k}", (Decimal(x), Decimal(y)))
    memories = [TargetMemory() for _ in range(4)]
    for k, how, (x, y), look in [(0, "move", (0, 0), True), *changes]:
        fighter = state.combatants[f"c{k}"]
        if how == "fall":
            fighter.out = True
        elif how == "stun":
            fighter.conditions["stunned"] = None
        elif how == "recover":
            fighter.conditions.clear()
        place(state, moved, fighter.id, (Decimal(x), Decimal(y)) if how == "move" else fighter.position)
        if look:
            roster = watch.roster()
            for chooser, memory in enumerate(memories):
                me = roster.contacts[chooser]
                assert memory.nearest(me, roster, 0) == nearest_enemy(me, roster, 0)


def test_an_enemy_moving_as_near_as_the_target_takes_it_if_listed_first() -> None:
    # c0 (side a) at (0, 0); c1 (side b) at (9, 0), c3 (side b) at (5, 0): c3 is nearest, 5 m off.
    # Then c1 steps to (0, 5), as near as c3 and listed before it: c1 is the nearest now.
    state, moved, watch, _ = joined(4)
    for k, x in ((0, 0), (1, 9), (2, -40), (3, 5)):
        place(state, moved, f"c{k}", (Decimal(x), Decimal(0)))
    memory = TargetMemory()
    roster = watch.roster()
    found = memory.nearest(roster.contacts[0], roster, 0)
    assert found is not None
    assert (found[0].id, found[1]) == ("c3", Decimal(5))
    place(state, moved, "c1", (Decimal(0), Decimal(5)))
    roster = watch.roster()
    found = memory.nearest(roster.contacts[0], roster, 0)
    assert found is not None
    assert (found[0].id, found[1]) == ("c1", Decimal(5))


def place(state: Field, moved: dict[str, int], who: str, where: Position) -> None:
    """``who`` moved to ``where``, as an event that moves the field folds it and the encounter notes it."""
    state.combatants[who].position = where
    state.field_version += 1
    moved.pop(who, None)
    moved[who] = state.field_version
