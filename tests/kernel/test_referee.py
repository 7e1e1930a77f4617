"""The referee (kernel/referee.py): a ruling's terms, when it is due, its record, and the rulings that
never took effect.

The encounter is the toy's (tests/toy): ann and bob join at seq 1 and 2, so the next event is seq 3. The
rulings are a small stand-in for a scenario's ``[[rulings]]`` entry with only the general fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest

from affray.errors import ScenarioError
from affray.events.base import Roll
from affray.events.shared import RulingApplied
from affray.kernel.dice import Dice, ManualDice
from affray.kernel.encounter import Encounter
from affray.kernel.referee import Effect, Referee, RulingError, check_terms, effect_of, moment
from tests.toy.kinds import FighterJoined, Swung
from tests.toy.state import vocabulary

COMBATANTS = ("ann", "bob")
RULES_ON: dict[Effect, str] = {
    "outcome": "swung",
    "damage": "swung",
    "modifier": "swung",
    "leaves": "combatant_out",
}


@dataclass(frozen=True)
class Terms:
    """A ruling as a scenario gives it (the fields of ``RulingTerms``)."""

    reason: str = "the referee says so"
    seq: int | None = None
    at: float | None = None
    until: float | None = None
    combatant: str | None = None
    outcome: str | None = None
    damage: int | None = None
    modifier: int | None = None
    leaves: bool = False


def encounter() -> Encounter[Any]:
    """A toy encounter in which ann and bob have joined (seq 1 and 2), at 0 ms."""
    e: Encounter[Any] = Encounter(Dice(ManualDice([])), vocabulary())
    for name in COMBATANTS:
        e.emit(
            FighterJoined(
                combatant=name,
                name=name,
                side=name,
                damage_points=Decimal(10),
                position=(Decimal(0), Decimal(0)),
                skill=10,
                speed_ms=1000,
            )
        )
    return e


def swing(e: Encounter[Any], attacker: str = "ann", target: str = "bob") -> Swung:
    roll = Roll(expr="1d20", faces=(5,), total=5, purpose="swing", roller=attacker)
    return e.emit(Swung(attacker=attacker, target=target, roll=roll, skill=10))


def referee(*rulings: Terms) -> Referee:
    return Referee(rulings, RULES_ON)


def at_ms(e: Encounter[Any], ms: int) -> None:
    e.run(until=ms)


# --- check_terms ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("terms", "message"),
    [
        (Terms(seq=3), r"^\$\.rulings\[0\]: a ruling has one effect .* \(none given\)$"),
        (Terms(seq=3, outcome="miss", damage=2), r"\(outcome and damage given\)"),
        (Terms(seq=3, modifier=5, leaves=True), r"\(modifier and leaves given\)"),
        (Terms(seq=3, at=1.0, combatant="ann", damage=2), "names seq or at .*not both or neither"),
        (Terms(combatant="ann", damage=2), "names seq or at .*not both or neither"),
        (Terms(at=1.0, damage=2), r"\$\.rulings\[0\]\.combatant: a ruling at a time names whose outcome"),
        (Terms(seq=3, combatant="zed", damage=2), r"\$\.rulings\[0\]\.combatant: no combatant 'zed'"),
        (Terms(at=1.0, combatant="zed", damage=2), "no combatant 'zed'"),
        (Terms(seq=3, combatant="ann", leaves=True), "leaves the fight at a time: give at, not seq"),
        (Terms(at=1.0, until=2.0, combatant="ann", damage=2), r"\.until: only a modifier at a time lasts"),
        (Terms(seq=3, until=2.0, modifier=5), r"\.until: only a modifier at a time lasts"),
        (
            Terms(at=2.0, until=2.0, combatant="ann", modifier=5),
            r"\.until: 2\.0 s is not after at \(2\.0 s\)",
        ),
        (Terms(at=2.0, until=1.5, combatant="ann", modifier=5), r"1\.5 s is not after at \(2\.0 s\)"),
        (Terms(seq=3, damage=2, reason=""), r"\$\.rulings\[0\]\.reason: a ruling says why"),
        (Terms(seq=3, damage=2, reason="  \t"), r"\.reason: a ruling says why"),
    ],
    ids=[
        "no-effect",
        "two-effects",
        "modifier-and-leaves",
        "seq-and-at",
        "neither-seq-nor-at",
        "at-without-combatant",
        "unknown-combatant-by-seq",
        "unknown-combatant-at-a-time",
        "leaves-keyed-by-seq",
        "until-without-modifier",
        "until-on-a-seq",
        "until-at-at",
        "until-before-at",
        "empty-reason",
        "blank-reason",
    ],
)
def test_check_terms_refuses_a_ruling_that_cannot_be_applied(terms: Terms, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        check_terms(terms, COMBATANTS, "$.rulings[0]")


@pytest.mark.parametrize(
    "terms",
    [
        Terms(seq=3, outcome="miss"),
        Terms(seq=3, combatant="ann", damage=-4),
        Terms(seq=3, damage=0),
        Terms(at=1.5, combatant="bob", modifier=10),
        Terms(at=1.5, until=4.0, combatant="bob", modifier=-10),
        Terms(at=0.0, combatant="ann", leaves=True),
    ],
    ids=[
        "miss-by-seq",
        "damage-checked-combatant",
        "zero-damage",
        "modifier-at",
        "modifier-window",
        "leaves",
    ],
)
def test_check_terms_accepts_one_key_and_one_effect(terms: Terms) -> None:
    check_terms(terms, COMBATANTS, "$.rulings[0]")


@pytest.mark.parametrize(
    ("terms", "effect"),
    [
        (Terms(seq=3, outcome="miss"), "outcome"),
        (Terms(seq=3, damage=0), "damage"),
        (Terms(seq=3, modifier=-5), "modifier"),
        (Terms(at=1.0, combatant="ann", leaves=True), "leaves"),
        (Terms(seq=3), None),
        (Terms(seq=3, damage=2, modifier=2), None),
    ],
)
def test_effect_of_is_the_one_effect_or_none(terms: Terms, effect: Effect | None) -> None:
    assert effect_of(terms) == effect


def test_moment_reads_a_rulings_seconds_onto_the_millisecond_clock() -> None:
    # 11.666 s is 11666 ms exactly, not 11665 from the float's binary digits.
    assert (moment(11.666), moment(0.1), moment(0), moment(20.332)) == (11666, 100, 0, 20332)


# --- due ------------------------------------------------------------------------------------------------


def test_a_seq_ruling_is_due_only_for_the_event_emitted_next() -> None:
    e = encounter()  # count 2: the next event is seq 3
    ruling = Terms(seq=3, damage=2)
    assert referee(Terms(seq=4, damage=2)).due(e, "ann", "damage") == []
    assert referee(Terms(seq=2, damage=2)).due(e, "ann", "damage") == []
    assert referee(ruling).due(e, "ann", "damage") == [(0, ruling)]


def test_a_seq_ruling_is_due_only_for_its_effect() -> None:
    e = encounter()
    judge = referee(Terms(seq=3, damage=2))
    assert judge.due(e, "ann", "modifier") == []
    assert judge.due(e, "ann", "outcome") == []


def test_a_seq_ruling_naming_a_combatant_is_due_only_for_that_combatant() -> None:
    e = encounter()
    ruling = Terms(seq=3, combatant="bob", outcome="miss")
    judge = referee(ruling)
    assert judge.due(e, "ann", "outcome") == []
    assert judge.due(e, "bob", "outcome") == [(0, ruling)]


def test_a_seq_ruling_naming_no_combatant_is_due_for_whoever_acts_at_that_seq() -> None:
    e = encounter()
    ruling = Terms(seq=3, outcome="miss")
    assert referee(ruling).due(e, "bob", "outcome") == [(0, ruling)]


def test_due_lists_the_rulings_in_scenario_order_by_number() -> None:
    e = encounter()
    first, second = Terms(seq=3, damage=2), Terms(at=0.0, combatant="ann", damage=-1)
    judge = referee(Terms(seq=3, outcome="miss"), first, second)
    assert judge.due(e, "ann", "damage") == [(1, first), (2, second)]


def test_an_at_ruling_is_due_from_its_time_on() -> None:
    e = encounter()
    ruling = Terms(at=2.0, combatant="ann", damage=3)
    judge = referee(ruling)
    at_ms(e, 1999)
    assert judge.due(e, "ann", "damage") == []
    at_ms(e, 2000)
    assert judge.due(e, "ann", "damage") == [(0, ruling)]
    assert judge.due(e, "bob", "damage") == []
    at_ms(e, 60000)
    assert judge.due(e, "ann", "damage") == [(0, ruling)]


def test_an_at_ruling_without_until_is_due_no_more_once_recorded() -> None:
    e = encounter()
    judge = referee(Terms(at=0.0, combatant="ann", damage=3))
    assert judge.due(e, "ann", "damage") != []
    swing(e)
    judge.record(e, 0, "ann", "+3 points")
    assert judge.due(e, "ann", "damage") == []


def test_a_modifier_with_until_is_due_only_before_until() -> None:
    e = encounter()
    ruling = Terms(at=2.0, until=4.0, combatant="ann", modifier=10)
    judge = referee(ruling)
    at_ms(e, 1999)
    assert judge.due(e, "ann", "modifier") == []
    at_ms(e, 2000)
    assert judge.due(e, "ann", "modifier") == [(0, ruling)]
    at_ms(e, 3999)
    assert judge.due(e, "ann", "modifier") == [(0, ruling)]
    at_ms(e, 4000)
    assert judge.due(e, "ann", "modifier") == []


def test_a_modifier_with_until_stays_due_after_each_record_within_its_window() -> None:
    e = encounter()
    ruling = Terms(at=0.0, until=4.0, combatant="ann", modifier=10)
    judge = referee(ruling)
    for ms in (0, 1000, 3999):
        if ms > e.now:
            at_ms(e, ms)
        assert judge.due(e, "ann", "modifier") == [(0, ruling)]
        swing(e)
        judge.record(e, 0, "ann", "+10 to hit")
    assert judge.unapplied(3999, e.count) is None


def test_a_leaves_ruling_is_never_due_to_an_outcome_but_is_leaving() -> None:
    e = encounter()
    ruling = Terms(at=0.0, combatant="ann", leaves=True)
    judge = referee(ruling)
    assert judge.due(e, "ann", "leaves") == []
    assert judge.leaving() == [(0, ruling)]


def test_a_referee_of_rulings_without_a_general_effect_is_empty() -> None:
    # special damage's rulings (S10) have none of the four effects: the referee leaves them alone.
    e = encounter()
    judge = referee(Terms(seq=3))
    assert not judge
    assert judge.due(e, "ann", "damage") == []
    assert judge.unapplied(0, 2) is None
    assert referee(Terms(seq=3, damage=1))


# --- record ---------------------------------------------------------------------------------------------


def test_record_emits_a_ruling_applied_naming_the_ruled_seq() -> None:
    e = encounter()
    judge = referee(Terms(seq=3, combatant="ann", outcome="miss", reason="ann slipped"))
    judge.due(e, "ann", "outcome")
    swing(e)  # seq 3
    judge.record(e, 0, "ann", "the attack is a miss")
    assert e.last == RulingApplied(
        seq=4,
        t=0,
        combatant="ann",
        ruling=0,
        rules_on=3,
        effect="the attack is a miss",
        reason="ann slipped",
    )


def test_a_second_ruling_recorded_after_the_first_names_the_same_ruled_seq() -> None:
    e = encounter()
    judge = referee(
        Terms(seq=3, modifier=5, reason="high ground"), Terms(seq=3, outcome="miss", reason="fog")
    )
    judge.due(e, "ann", "modifier")
    judge.due(e, "ann", "outcome")
    swing(e)  # seq 3
    judge.record(e, 0, "ann", "+5 to hit")
    judge.record(e, 1, "ann", "the attack is a miss")
    applied = [event for event in e.log if isinstance(event, RulingApplied)]
    assert [(a.seq, a.ruling, a.rules_on, a.reason) for a in applied] == [
        (4, 0, 3, "high ground"),
        (5, 1, 3, "fog"),
    ]


def test_record_stamps_the_ruling_applied_at_the_ruled_events_time() -> None:
    e = encounter()
    judge = referee(Terms(at=1.5, combatant="ann", damage=1))
    at_ms(e, 2500)
    swing(e)
    judge.record(e, 0, "ann", "+1 points")
    assert (e.last.t if e.last else None) == 2500


# --- see ------------------------------------------------------------------------------------------------


def test_see_refuses_a_seq_ruling_whose_seq_passes_unclaimed_naming_the_kind_found() -> None:
    e = encounter()
    judge = referee(Terms(seq=3, combatant="ann", damage=2))
    e.sinks.insert(0, judge.see)
    with pytest.raises(
        RulingError,
        match=(
            r"^\$\.rulings\[0\]: seq 3 is a combatant_joined, not what a damage ruling rules on "
            r"\(a swung by ann\)$"
        ),
    ):
        e.emit(
            FighterJoined(
                combatant="cy",
                name="cy",
                side="cy",
                damage_points=Decimal(1),
                position=(Decimal(0), Decimal(0)),
                skill=1,
                speed_ms=1000,
            )
        )


def test_see_refuses_a_seq_ruling_on_an_outcome_no_handler_asked_about() -> None:
    # The right kind at the seq, but its handler never asked the referee: the ruling did not apply.
    e = encounter()
    judge = Referee([Terms(seq=3, outcome="miss")], RULES_ON, where="duel.toml: $.rulings")
    e.sinks.insert(0, judge.see)
    with pytest.raises(
        RulingError, match=r"^duel\.toml: \$\.rulings\[0\]: seq 3 is a swung, not what an outcome"
    ):
        swing(e)


def test_see_lets_a_claimed_seq_ruling_pass() -> None:
    e = encounter()
    judge = referee(Terms(seq=3, outcome="miss"))
    e.sinks.insert(0, judge.see)
    assert judge.due(e, "ann", "outcome") != []
    swing(e)
    judge.record(e, 0, "ann", "the attack is a miss")
    assert judge.unapplied(0, e.count) is None


def test_see_ignores_rulings_keyed_to_a_time_and_other_seqs() -> None:
    e = encounter()
    judge = referee(Terms(at=0.0, combatant="ann", damage=2), Terms(seq=9, damage=2))
    e.sinks.insert(0, judge.see)
    swing(e)
    assert e.count == 3


# --- unapplied ------------------------------------------------------------------------------------------


def test_unapplied_names_a_seq_ruling_beyond_the_end_of_the_fight() -> None:
    problem = referee(Terms(seq=9, damage=2)).unapplied(2500, 5)
    assert isinstance(problem, RulingError)
    assert str(problem) == "$.rulings[0]: the fight ended at seq 5, before seq 9"


def test_unapplied_names_an_at_ruling_that_was_never_due() -> None:
    problem = referee(Terms(at=3.0, combatant="ann", outcome="miss")).unapplied(2500, 5)
    assert str(problem) == (
        "$.rulings[0]: ann had no swung at or after 3.0 s to rule on (the fight ended at 2.500 s)"
    )


def test_unapplied_names_the_window_of_a_modifier_that_was_never_due() -> None:
    problem = referee(Terms(at=3.0, until=4.0, combatant="bob", modifier=5)).unapplied(62500, 5)
    assert str(problem) == (
        "$.rulings[0]: bob had no swung between 3.0 s and 4.0 s to rule on (the fight ended at 62.500 s)"
    )


def test_unapplied_names_a_leaves_ruling_never_reached() -> None:
    problem = referee(Terms(at=3.0, combatant="ann", leaves=True)).unapplied(2500, 5)
    assert str(problem) == "$.rulings[0]: the fight ended at 2.500 s, before ann could leave at 3.0 s"


def test_unapplied_names_the_first_ruling_that_never_took_effect() -> None:
    e = encounter()
    judge = referee(Terms(seq=3, damage=2), Terms(seq=10, damage=1), Terms(seq=11, damage=1))
    judge.due(e, "ann", "damage")
    swing(e)
    judge.record(e, 0, "ann", "+2 points")
    assert str(judge.unapplied(0, e.count)) == "$.rulings[1]: the fight ended at seq 4, before seq 10"


def test_unapplied_is_none_once_every_ruling_took_effect() -> None:
    e = encounter()
    judge = referee(Terms(seq=3, damage=2), Terms(at=0.0, combatant="bob", leaves=True))
    judge.due(e, "ann", "damage")
    swing(e)
    judge.record(e, 0, "ann", "+2 points")
    judge.record(e, 1, "bob", "leaves the fight")
    assert judge.unapplied(0, e.count) is None
