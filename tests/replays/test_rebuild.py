"""Rebuilding state from a log: at a seq, or at a game time."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from affray.events.base import Event
from affray.events.energion.state import EnergionState, vocabulary
from affray.handlers.energion.scenario import EnergionScenario
from affray.kernel.fold import digest
from affray.replays import rebuild
from tests.strategies import example, example_log, read, run_with_snapshots, scenarios

DUEL = read(example_log("duel")).events
SKIRMISH = example("skirmish")


def state_at_seq(events: list[Event], seq: int) -> EnergionState:
    return rebuild.fold_until(events, vocabulary(["special_damage"]), seq=seq).state  # type: ignore[no-any-return]


def state_at_time(events: list[Event], t_ms: int) -> EnergionState:
    return rebuild.fold_until(events, vocabulary(["special_damage"]), t_ms=t_ms).state  # type: ignore[no-any-return]


def test_state_at_seq_zero_is_the_state_before_any_event() -> None:
    assert state_at_seq(DUEL, 0) == EnergionState()


@given(scenarios())
def test_state_at_seq_is_the_live_state_at_that_seq(scenario: EnergionScenario) -> None:
    run = run_with_snapshots(scenario)
    rebuilt = [digest(state_at_seq(run.log, k)) for k in range(1, len(run.log) + 1)]
    assert rebuilt == run.snapshots


def test_state_at_seq_stops_after_the_event_numbered_seq() -> None:
    assert [state_at_seq(DUEL, k).seq for k in (1, 5, 27)] == [1, 5, 27]


def test_state_at_the_last_seq_is_the_final_live_state() -> None:
    run = run_with_snapshots(SKIRMISH)
    assert digest(state_at_seq(run.log, len(run.log))) == digest(run.state)


def test_state_at_time_includes_every_event_at_that_instant() -> None:
    t = DUEL[4].t
    last_at_t = max(e.seq for e in DUEL if e.t == t)
    assert state_at_time(DUEL, t).seq == last_at_t


def test_state_at_time_between_events_is_the_state_after_the_last_earlier_event() -> None:
    before, after = next((a, b) for a, b in itertools.pairwise(DUEL) if b.t - a.t > 1)
    assert state_at_time(DUEL, before.t + 1) == state_at_seq(DUEL, before.seq)
    assert state_at_time(DUEL, after.t - 1) == state_at_seq(DUEL, before.seq)


def test_state_at_time_before_the_clock_starts_is_the_initial_state() -> None:
    assert state_at_time(DUEL, -1) == EnergionState()


def test_state_at_time_zero_holds_everyone_who_joined() -> None:
    state = state_at_time(DUEL, 0)
    assert list(state.combatants) == ["brenna", "gorm"]


def test_state_at_time_after_the_end_is_the_final_state() -> None:
    assert state_at_time(DUEL, DUEL[-1].t + 60_000) == state_at_seq(DUEL, len(DUEL))


@given(st.data())
def test_state_at_time_is_the_live_state_after_the_last_event_at_or_before_it(data: st.DataObject) -> None:
    run = run_with_snapshots(data.draw(scenarios(), label="scenario"))
    t = data.draw(st.integers(min_value=-1, max_value=run.log[-1].t + 1000), label="t")
    seq = max((e.seq for e in run.log if e.t <= t), default=0)
    expected = run.snapshots[seq - 1] if seq else digest(EnergionState())
    assert digest(state_at_time(run.log, t)) == expected
