"""What every controller sees of the field (affray/npc/field.py): the roster, remade when the field moves."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.events.base import Position
from affray.npc.cells import CELLS_FROM
from affray.npc.field import RECALLED, FieldWatch, Roster, watch_of


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


def change(state: Field, moved: dict[str, int], who: str, how: str) -> None:
    """``how`` done to ``who``, as an event that moves the field folds it and the encounter notes it."""
    fighter = state.combatants[who]
    if how == "move":
        fighter.position = at(int(fighter.position[0]) + 3)
    elif how == "fall":
        fighter.out = True
    elif how == "stun":
        fighter.conditions["stunned"] = 5000 + state.field_version
    else:
        fighter.conditions.clear()
    state.field_version += 1
    moved.pop(who, None)
    moved[who] = state.field_version


def shown(roster: Roster) -> object:
    """What a roster shows of the field: its contacts, version, steadiness and cells (not its memory of
    who was made again when)."""
    return roster.contacts, roster.version, roster.steady_until, roster.cells


def joined(count: int) -> tuple[Field, dict[str, int], FieldWatch, Roster]:
    """A field that ``count`` combatants join, one by one, as events that move the field; its watch, and
    the roster it first made, when three of them had joined."""
    state = field_of(0)
    moved: dict[str, int] = {}
    watch = FieldWatch(state, moved)
    first = watch.roster()
    for k in range(count):
        state.combatants[f"c{k}"] = Fighter(f"c{k}", "ab"[k % 2], at(k))
        state.field_version += 1
        moved[f"c{k}"] = state.field_version
        if k == 2:
            first = watch.roster()  # some have joined when the roster is first made, some after
    return state, moved, watch, first


@given(changes)
def test_a_roster_remade_as_the_field_moves_is_the_roster_made_from_nothing(
    steps: list[tuple[int, str]],
) -> None:
    state = field_of(6)
    watch = FieldWatch(state)
    watch.roster()
    for k, how in steps:
        change(state, {}, f"c{k}", how)
        assert shown(watch.roster()) == shown(FieldWatch(state).roster())


@pytest.mark.parametrize("count", [6, CELLS_FROM + 2])
@given(changes, st.lists(st.booleans(), max_size=12))
def test_a_roster_remade_from_who_moved_is_the_roster_made_from_nothing(
    count: int, steps: list[tuple[int, str]], looks: list[bool]
) -> None:
    """Its contacts, and with as many combatants as keep them, its cells."""
    state, moved, watch, _ = joined(count)
    for (k, how), look in zip(steps, [*looks, *[True] * len(steps)], strict=False):
        change(state, moved, f"c{k}", how)
        if look:  # the roster is asked for after some changes, not after each
            assert shown(watch.roster()) == shown(FieldWatch(state).roster())
    assert shown(watch.roster()) == shown(FieldWatch(state).roster())


@given(changes, st.lists(st.booleans(), max_size=12))
def test_a_roster_tells_which_contacts_were_made_again_since_an_earlier_one(
    steps: list[tuple[int, str]], looks: list[bool]
) -> None:
    """Every contact it does not name is as it was in the earlier roster; it cannot tell only of a roster
    made before everyone was made anew (the last join)."""
    state, moved, watch, before_the_last_joins = joined(6)
    earlier = [watch.roster()]
    for (k, how), look in zip(steps, looks, strict=False):
        change(state, moved, f"c{k}", how)
        if look:
            earlier.append(watch.roster())
    now = watch.roster()
    assert now.changed_since(now.version) == set()
    assert now.changed_since(before_the_last_joins.version) is None
    for before in earlier:
        changed = now.changed_since(before.version)
        assert changed is not None
        unchanged = [k for k in range(len(now.contacts)) if k not in changed]
        assert [now.contacts[k] for k in unchanged] == [before.contacts[k] for k in unchanged]


def test_a_roster_cannot_tell_what_changed_before_it_remembers() -> None:
    # Each move makes one contact again; after RECALLED + 1 of them the first is forgotten.
    state, moved, watch, _ = joined(2)
    first = watch.roster()
    for _ in range(RECALLED + 1):
        change(state, moved, "c0", "move")
        watch.roster()
    assert watch.roster().changed_since(first.version) is None
    assert watch.roster().changed_since(watch.roster().version - 1) == {0}


def test_a_combatant_joining_is_on_the_roster_remade() -> None:
    state = field_of(2)
    watch = FieldWatch(state)
    watch.roster()
    state.combatants["c2"] = Fighter("c2", "a", at(9))
    state.field_version += 1
    assert [contact.id for contact in watch.roster().contacts] == ["c0", "c1", "c2"]


class Encounter:
    """What ``watch_of`` reads of an encounter."""

    def __init__(self) -> None:
        self.state = field_of(2)
        self.moved: dict[str, int] = {}


def test_every_controller_of_one_encounter_shares_one_watch() -> None:
    one, other = Encounter(), Encounter()
    assert watch_of(one) is watch_of(one)
    assert watch_of(one) is not watch_of(other)
