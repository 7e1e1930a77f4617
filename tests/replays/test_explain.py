"""Explaining one event: the ruleset's derivation, with rule ids, and the earlier events it rests on."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import msgspec
import pytest

from affray import rulesets
from affray.events.base import Event, named_fields
from affray.events.codec import ENCODER
from affray.events.energion.kinds import AttackResolved
from affray.events.shared import kind_of
from affray.replays.explain import Explained, Explaining, Index, explain, explain_each, tell_explained
from tests.strategies import read_path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
LOGS = sorted(GOLDEN.glob("*.jsonl"))


def explained(log: Path, seq: int) -> Explained:
    read = read_path(log)
    found = explain(read.events, seq, rulesets.reading(read.header, str(log)))
    assert found is not None
    return found


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_every_event_of_every_golden_log_is_explained(log: Path) -> None:
    read = read_path(log)
    reading = rulesets.reading(read.header, str(log))
    for event in read.events:
        found = explain(read.events, event.seq, reading)
        assert found is not None
        assert (found.seq, found.steps != []) == (event.seq, True)
        assert all(because.seq < event.seq for because in found.depends_on)
        assert ENCODER.encode(found)  # every explanation is plain data
        assert tell_explained(found)[0].startswith(f"seq {event.seq} at ")


def test_an_energion_attack_gives_a_rule_for_every_step_of_its_derivation() -> None:
    duel = GOLDEN / "duel.jsonl"
    attacks = [e.seq for e in read_path(duel).events if isinstance(e, AttackResolved)]
    for seq in attacks:
        steps = explained(duel, seq).steps
        assert all(step.rule for step in steps if not step.what.endswith(" left")), seq


def test_the_duels_axe_blow_is_derived_as_the_rules_work_it_out() -> None:
    # seq 25, gorm's one axe blow that lands (his first, seq 16, is parried):
    # E4: 72 + 20 = 92%; E9 + E5: Chain Suit vs type 6 is 30, the buckler +10; E6: 92 - 40 - 7 = 45;
    # E5: parry 90 > 25% fails; E7: D = 20 + 1.75 + 0 + 0 = 21.75, TRUNC((45 + 10) / 10) / 10 = 0.5,
    # 0.5 x 21.75 = 10.875
    steps = {step.what: step for step in explained(GOLDEN / "duel.jsonl", 25).steps}
    assert steps["hit chance"].value == "92%"
    assert (steps["armor value"].value, steps["shield"].value) == ("30", "+10")
    assert (steps["hit quality"].value, steps["hit quality"].how) == ("45", "92 - 40 - 7")
    assert (steps["parry"].value, steps["parry"].how) == ("fails", "90 > 25%")
    assert (steps["multiplier"].value, steps["damage"].value) == ("x0.5", str(Decimal("10.875")))
    assert steps["hit roll"].source == "@gorm/hit#4, generated"


def test_an_attack_depends_on_the_weapon_readied_and_the_target_chosen() -> None:
    found = explained(GOLDEN / "duel.jsonl", 25)
    assert [(b.seq, b.why.split(" (")[0]) for b in found.depends_on] == [
        (14, "gorm readied a weapon"),
        (15, "gorm chose its target"),
    ]
    assert found.depends_on[0].told.startswith("gorm readies Axe, 1 hand")


def test_a_shot_shows_its_range_band_and_aim() -> None:
    archers = GOLDEN / "archers.jsonl"
    shot = next(e.seq for e in read_path(archers).events if isinstance(e, AttackResolved) and e.hit.ranged)
    rules = {step.rule for step in explained(archers, shot).steps}
    assert {"E4", "E8", "E17", "E6", "E7"} <= rules


def test_a_seq_past_the_end_is_none() -> None:
    read = read_path(GOLDEN / "duel.jsonl")
    assert explain(read.events, 99, rulesets.reading(read.header, "duel")) is None


def test_a_kind_without_an_explainer_is_shown_by_its_fields_and_rolls() -> None:
    steps = explained(GOLDEN / "firefight.jsonl", 6).steps  # fivestep's surprise check
    assert any(step.source.startswith("@") for step in steps)
    assert msgspec.to_builtins(steps)


def _index_after(log: Path, seq: int) -> tuple[Index, dict[int, Event]]:
    """The index of an explaining reading of ``log`` after event ``seq``, and the events read."""
    read = read_path(log)
    explaining = Explaining(rulesets.reading(read.header, str(log)))
    for event in read.events[:seq]:
        explaining.read(event)
    return explaining.index, {event.seq: event for event in read.events[:seq]}


def _answers(index: Index, events: dict[int, Event]) -> dict[tuple[str, ...], object]:
    answers: dict[tuple[str, ...], object] = {}
    for event in events.values():
        kind = kind_of(type(event))
        for who in ["", *(getattr(event, f) for f in named_fields(type(event)))]:
            if isinstance(who, str):
                latest = index.latest(kind, who)
                answers[(kind, who)] = None if latest is None else (latest.seq, index.told(latest.seq))
        for field in named_fields(type(event)):
            found = index.latest_as(kind, field, getattr(event, field))
            answers[(kind, field, str(getattr(event, field)))] = None if found is None else found.seq
    return answers


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_an_index_made_again_from_the_events_it_keeps_answers_as_it_did(log: Path) -> None:
    index, events = _index_after(log, 2 * len(read_path(log).events) // 3)
    again = Index()
    for seq in index.kept():
        again.add(events[seq], index.told(seq))
    assert _answers(again, events) == _answers(index, events)


def test_events_not_wanted_are_told_but_not_explained() -> None:
    duel = GOLDEN / "duel.jsonl"
    read = read_path(duel)
    reading = rulesets.reading(read.header, str(duel))
    each = list(explain_each(read.events, Explaining(reading), lambda event: event.seq == 10))
    assert [r.explained.seq for r in each if r.explained.steps] == [10]
    assert all(r.explained.told for r in each)
    assert each[9].explained == explain(read.events, 10, reading)
