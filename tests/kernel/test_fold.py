"""The fold: a vocabulary's ``apply`` over events, the same live and in a replay; errors name the seq."""

from __future__ import annotations

from decimal import Decimal

import pytest

from affray.errors import LogError
from affray.events.base import Event
from affray.events.energion.kinds import CombatantJoined
from affray.events.energion.state import EnergionState, vocabulary
from affray.events.shared import CombatantOut, Moved
from affray.kernel.fold import apply_checked, fold

VOCABULARY = vocabulary()
ORIGIN = (Decimal(0), Decimal(0))


def joined(combatant: str, seq: int = 1) -> CombatantJoined:
    return CombatantJoined(
        seq=seq,
        combatant=combatant,
        name=combatant,
        side=combatant,
        damage_points=Decimal(30),
        position=ORIGIN,
        weapon="Staff",
        armor="Cloth",
    )


def test_the_fold_of_no_events_is_the_vocabularys_fresh_state() -> None:
    assert fold([], VOCABULARY) == EnergionState()


def test_the_fold_takes_seq_and_t_from_the_last_event() -> None:
    state = fold([joined("a"), CombatantOut(seq=2, t=250, combatant="a", reason="r")], VOCABULARY)
    assert (state.seq, state.t) == (2, 250)


def test_apply_changes_the_state_in_place_and_returns_it() -> None:
    state = EnergionState()
    assert apply_checked(VOCABULARY, state, joined("a")) is state
    assert list(state.combatants) == ["a"]


def test_fold_onto_a_state_continues_the_replay() -> None:
    events: list[Event] = [joined("a"), joined("b", 2), CombatantOut(seq=3, combatant="b", reason="r")]
    assert fold(events[1:], VOCABULARY, fold(events[:1], VOCABULARY)) == fold(events, VOCABULARY)


def test_an_event_naming_a_combatant_who_never_joined_is_a_log_error_with_its_seq() -> None:
    with pytest.raises(LogError, match="seq 2: combatant_out names combatant 'ghost' who never joined"):
        fold([joined("a"), CombatantOut(seq=2, combatant="ghost", reason="r")], VOCABULARY)


def test_a_combatant_who_never_joined_is_named_in_at_most_a_few_dozen_characters() -> None:
    with pytest.raises(LogError, match=r"names combatant 'x{37}\.\.\.' who never joined"):
        fold([joined("a"), CombatantOut(seq=2, combatant="x" * 10_000, reason="r")], VOCABULARY)


def test_joins_moves_and_falls_move_the_field_version() -> None:
    move = Moved(
        seq=2, combatant="a", toward="a", start=ORIGIN, end=(Decimal(1), Decimal(0)), distance=Decimal(1)
    )
    versions = []
    state = EnergionState()
    for event in (joined("a"), move, CombatantOut(seq=3, combatant="a", reason="r")):
        versions.append(apply_checked(VOCABULARY, state, event).field_version)
    assert versions == [1, 2, 3]
