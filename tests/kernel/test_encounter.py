"""The encounter: ``emit`` stamps seq and t, applies, appends, hands to sinks; live state is the fold."""

from __future__ import annotations

from collections.abc import Generator
from decimal import Decimal
from typing import Any

import msgspec
import pytest
from hypothesis import given

from affray.events.base import Event
from affray.events.codec import encode_log
from affray.events.energion.kinds import AttackResolved, CombatantJoined, Perceived, Reacted
from affray.events.energion.state import vocabulary
from affray.events.shared import CombatantOut
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import EnergionScenario
from affray.kernel.dice import Dice, ManualDice
from affray.kernel.encounter import Encounter
from affray.kernel.fold import digest, encode_state, fold
from tests.strategies import (
    example,
    example_log,
    header_for,
    read,
    rolls_made_and_logged,
    run_with_snapshots,
    scenarios,
    seeds,
    with_seed,
)


def encounter() -> Encounter[Any]:
    return Encounter(Dice(ManualDice([])), vocabulary())


def joined(combatant: str) -> CombatantJoined:
    return CombatantJoined(
        combatant=combatant,
        name=combatant,
        side=combatant,
        damage_points=Decimal(10),
        position=(Decimal(0), Decimal(0)),
        weapon="Staff",
        armor="Cloth",
    )


def test_the_clock_starts_at_zero_with_an_empty_state_and_log() -> None:
    e = encounter()
    assert (e.now, e.log, e.state.seq) == (0, [], 0)


def test_an_encounter_starts_with_nothing_to_warn_of() -> None:
    # the battle adds its warnings when it closes the run (a ruling on special damage never used, S10)
    assert encounter().warnings == []


def test_emit_stamps_seq_one_to_n_in_emission_order() -> None:
    e = encounter()
    for name in "abc":
        e.emit(joined(name))
    assert [event.seq for event in e.log] == [1, 2, 3]


def test_emit_stamps_t_with_the_clocks_now() -> None:
    e = encounter()

    def process() -> Generator[Any, Any, None]:
        e.emit(joined("a"))
        yield e.timeout(1250)
        e.emit(Perceived(combatant="a", after_ms=0, seq=99, t=99))
        yield e.timeout(750)
        e.emit(Reacted(combatant="a", reaction_ms=750))

    e.process(process())
    e.run()
    assert [(event.seq, event.t) for event in e.log] == [(1, 0), (2, 1250), (3, 2000)]


def test_emit_returns_the_stamped_event_it_appended() -> None:
    e = encounter()
    e.emit(joined("a"))
    stamped = e.emit(joined("b"))
    assert stamped is e.log[-1]
    assert stamped.seq == 2


def test_emit_applies_the_event_to_the_live_state() -> None:
    e = encounter()
    e.emit(joined("a"))
    e.emit(Perceived(combatant="a", after_ms=0))
    assert (e.state.seq, e.state.combatants["a"].perceived) == (2, True)


def test_an_event_stamped_by_its_handler_is_recorded_as_an_emitted_one_is() -> None:
    e = encounter()
    e.emit(joined("a"))
    e.recorder(CombatantJoined)(msgspec.structs.replace(joined("b"), seq=2))
    emitted = encounter()
    for name in "ab":
        emitted.emit(joined(name))
    assert (e.log, e.count, e.last) == (emitted.log, 2, emitted.log[-1])
    assert digest(e.state) == digest(emitted.state)


def test_the_encounter_notes_who_moved_the_field_last_and_when() -> None:
    e = encounter()
    for name in "abc":
        e.emit(joined(name))
    e.emit(Perceived(combatant="a", after_ms=0))
    e.emit(CombatantOut(combatant="a", reason="fled"))
    assert list(e.moved.items()) == [("b", 2), ("c", 3), ("a", 5)]


def test_changes_count_the_events_that_change_the_world_and_not_attacks() -> None:
    """``changes`` counts every event but a kind that says it changes nothing another's action is checked
    against (an attack resolved): two joins and a perception, then an attack, make 3."""
    e = encounter()
    e.emit(joined("a"))
    e.emit(joined("b"))
    e.emit(Perceived(combatant="a", after_ms=0))
    attack = next(event for event in read(example_log("duel")).events if isinstance(event, AttackResolved))
    e.emit(msgspec.structs.replace(attack, attacker="a", target="b"))
    assert e.changes == 3


def test_sinks_receive_each_stamped_event_after_it_is_applied() -> None:
    e = encounter()
    seen: list[tuple[int, int]] = []

    def sink(event: Event) -> None:
        seen.append((event.seq, e.state.seq))

    e.sinks.append(sink)
    e.emit(joined("a"))
    e.emit(joined("b"))
    assert seen == [(1, 1), (2, 2)]


def test_every_sink_receives_every_event_in_order() -> None:
    e = encounter()
    first: list[Event] = []
    second: list[Event] = []
    e.sinks.extend([first.append, second.append])
    for name in "ab":
        e.emit(joined(name))
    assert first == second == e.log


def test_finish_stops_the_run() -> None:
    e = encounter()

    def forever() -> Generator[Any, Any, None]:
        while True:
            yield e.timeout(1000)
            if e.now == 3000:
                e.finish()

    e.process(forever())
    e.run(until=e.finished)
    assert e.now == 3000


@given(scenarios())
def test_a_battle_log_numbers_its_events_one_to_n(scenario: EnergionScenario) -> None:
    log = EnergionBattle(scenario).run().log
    assert [event.seq for event in log] == list(range(1, len(log) + 1))


@given(scenarios())
def test_a_battle_log_never_goes_back_in_time(scenario: EnergionScenario) -> None:
    times = [event.t for event in EnergionBattle(scenario).run().log]
    assert times == sorted(times)


@given(scenarios())
def test_live_state_equals_the_fold_of_the_log_at_every_seq(scenario: EnergionScenario) -> None:
    run = run_with_snapshots(scenario)
    assert len(run.snapshots) == len(run.log)
    for k in range(1, len(run.log) + 1):
        assert digest(fold(run.log[:k], run.vocabulary)) == run.snapshots[k - 1], f"seq {k}"


@given(seeds)
def test_live_state_equals_the_fold_of_the_skirmish_log_at_every_seq_under_any_seed(seed: int) -> None:
    run = run_with_snapshots(with_seed(example("skirmish"), seed))
    folded = [digest(fold(run.log[:k], run.vocabulary)) for k in range(1, len(run.log) + 1)]
    assert folded == run.snapshots


@given(scenarios())
def test_live_state_equals_the_fold_of_the_log_read_back_from_bytes(scenario: EnergionScenario) -> None:
    battle = EnergionBattle(scenario)
    run = battle.run()
    events = read(encode_log(header_for(battle.scenario), run.log)).events
    assert encode_state(fold(events, run.vocabulary)) == encode_state(run.state)


@given(scenarios())
def test_state_seq_and_t_follow_the_last_emitted_event(scenario: EnergionScenario) -> None:
    run = EnergionBattle(scenario).run()
    assert (run.state.seq, run.state.t) == (run.log[-1].seq, run.log[-1].t)


@given(scenarios())
def test_every_die_rolled_is_in_the_log(scenario: EnergionScenario) -> None:
    # the design: every roll is recorded when it is made, so a replay shows each die that decided something,
    # a perception or reaction time of a combatant that fell before it ran out included
    made, logged = rolls_made_and_logged(scenario)
    assert logged == made


@pytest.mark.parametrize("name", ["duel", "skirmish", "archers", "mage-duel", "brawl", "robots"])
def test_every_die_rolled_in_an_example_is_in_the_log(name: str) -> None:
    # RS checks, kick recovery and a computer's special damage roll included
    made, logged = rolls_made_and_logged(example(name))
    assert logged == made


# -- keeping no log, and sinks that fail -------------------------------------------------------------


def test_an_encounter_keeping_no_log_counts_its_events_and_keeps_the_last() -> None:
    e = Encounter(Dice(ManualDice([])), vocabulary(), keep_log=False)
    seen: list[Event] = []
    e.sinks.append(seen.append)
    for name in "abc":
        e.emit(joined(name))
    assert (e.log, e.count, e.last, [event.seq for event in seen]) == ([], 3, seen[-1], [1, 2, 3])


class SinkFailed(Exception):
    pass


def fail_on(seq: int) -> Any:
    def sink(event: Event) -> None:
        if event.seq == seq:
            raise SinkFailed(f"seq {event.seq}")

    return sink


def test_a_sink_failing_at_the_instant_the_run_stops_still_fails_the_run() -> None:
    e = encounter()
    e.sinks.append(fail_on(2))

    def ends_then_joins() -> Generator[Any, Any, None]:
        yield e.timeout(5)
        e.emit(joined("a"))
        e.finish()  # the run stops at this instant, before the next process's failure has its turn

    def joins_at_the_same_instant() -> Generator[Any, Any, None]:
        yield e.timeout(5)
        e.emit(joined("b"))

    e.process(ends_then_joins())
    e.process(joins_at_the_same_instant())
    with pytest.raises(SinkFailed, match="seq 2"):
        e.run(until=e.finished)


@pytest.mark.parametrize("record", ["emitted", "recorded"])
def test_no_sink_sees_an_event_after_one_a_sink_failed_on(record: str) -> None:
    """Emitted, or built stamped and recorded through its kind's recorder: either raises the failure."""
    e = encounter()
    seen: list[int] = []
    e.sinks.extend([fail_on(1), lambda event: seen.append(event.seq)])
    with pytest.raises(SinkFailed):
        e.emit(joined("a"))
    second = e.emit if record == "emitted" else e.recorder(CombatantJoined)
    with pytest.raises(SinkFailed):
        second(msgspec.structs.replace(joined("b"), seq=2))
    assert (seen, e.count) == ([], 1)
