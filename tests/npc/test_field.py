"""What every controller sees of the field (affray/npc/field.py): the roster, remade when the field moves."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from affray.events.base import Position
from affray.npc.field import FieldWatch


@dataclass
class Fighter:
    """The members of a live combatant a contact is made of."""

    id: str
    side: str
    position: Position
    out: bool = False
    conditions: dict[str, int | None] = field(default_factory=dict)


@dataclass
class Field:
    """A state's field: its combatants and the version the fold keeps."""

    combatants: dict[str, Fighter]
    field_version: int = 0


def at(x: int) -> Position:
    return (Decimal(x), Decimal(0))


def field_of(count: int) -> Field:
    return Field({f"c{k}": Fighter(f"c{k}", "ab"[k % 2], at(k)) for k in range(count)})


changes = st.lists(
    st.tuples(st.integers(0, 5), st.sampled_from(["move", "fall", "stun", "recover"])), max_size=12
)


@given(changes)
def test_a_roster_remade_as_the_field_moves_is_the_roster_made_from_nothing(
    steps: list[tuple[int, str]],
) -> None:
    state = field_of(6)
    watch = FieldWatch(state)
    watch.roster()
    for k, change in steps:
        fighter = state.combatants[f"c{k}"]
        if change == "move":
            fighter.position = at(int(fighter.position[0]) + 1)
        elif change == "fall":
            fighter.out = True
        elif change == "stun":
            fighter.conditions["stunned"] = 5000
        else:
            fighter.conditions.clear()
        state.field_version += 1
        assert watch.roster() == FieldWatch(state).roster()


def test_a_combatant_joining_is_on_the_roster_remade() -> None:
    state = field_of(2)
    watch = FieldWatch(state)
    watch.roster()
    state.combatants["c2"] = Fighter("c2", "a", at(9))
    state.field_version += 1
    assert [contact.id for contact in watch.roster().contacts] == ["c0", "c1", "c2"]
