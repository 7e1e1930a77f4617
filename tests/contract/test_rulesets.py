"""The contract of a ruleset, checked for every registered one (the built-ins, and the toy of tests/toy):
one scenario and seed give one log byte for byte; the live state is the fold of the log at every seq;
its logs verify, and tampering is caught; every die rolled is in the log; every kind is told, and every
kind of every vocabulary round-trips through the log's encoding.

Each ruleset is exercised on its sample scenarios: the examples of its ruleset, and the toy's duel.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray import rulesets
from affray.batch.odds import Sampling, recorded_odds
from affray.cli.odds import fight_odds
from affray.events.base import rolls_in
from affray.events.codec import ENCODER, encode_log
from affray.events.shared import RulingApplied, kind_of
from affray.kernel.dice import Need, Stream
from affray.kernel.encounter import Encounter
from affray.kernel.fold import digest, fold
from affray.kernel.ruleset import Module, Reading, Ruleset
from affray.replays import timeline
from affray.replays.continuation import check_prefix, continued_scenario
from affray.replays.explain import explain, explain_all
from affray.replays.narrate import SHARED_TELLERS, narrate
from affray.replays.verify import verify
from tests.contract.samples import instances
from tests.strategies import log_lines, read, rechain
from tests.toy import RULESET as TOY

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_FILES = [*sorted((ROOT / "examples").glob("*.toml")), ROOT / "tests" / "toy" / "duel.toml"]


@pytest.fixture(autouse=True, scope="module")
def toy_registered() -> Iterator[None]:
    """The toy is a registered ruleset while these tests run."""
    rulesets.register(TOY)
    yield
    rulesets.unregister(TOY.name)


def _ruleset_of(path: Path) -> str:
    match = re.search(r'^ruleset = "(\w+)"', path.read_text(), re.M)
    assert match, path
    return match.group(1)


SAMPLES = [pytest.param(path, id=f"{_ruleset_of(path)}:{path.stem}") for path in SAMPLE_FILES]
NAMES = sorted({*rulesets.BUILT_IN_RULESETS, TOY.name})


def load(path: Path) -> tuple[Ruleset, Any]:
    rulesets.register(TOY)
    return rulesets.load_scenario(path)


def log_of(path: Path) -> bytes:
    ruleset, scenario = load(path)
    return encode_log(ruleset.header(scenario), ruleset.battle(scenario).run().log)


def test_every_ruleset_has_a_sample() -> None:
    assert {_ruleset_of(path) for path in SAMPLE_FILES} == set(NAMES)


@pytest.mark.parametrize("path", SAMPLES)
def test_one_scenario_and_seed_give_one_log_byte_for_byte(path: Path) -> None:
    assert log_of(path) == log_of(path)


@pytest.mark.parametrize("path", SAMPLES)
def test_the_live_state_is_the_fold_of_the_log_at_every_seq(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshots: list[str] = []
    plain = Encounter.__init__

    def watched(self: Encounter[Any], *args: Any, **kwargs: Any) -> None:
        plain(self, *args, **kwargs)
        self.sinks.append(lambda event: snapshots.append(digest(self.state)))

    monkeypatch.setattr(Encounter, "__init__", watched)
    ruleset, scenario = load(path)
    encounter = ruleset.battle(scenario).run()
    state = encounter.vocabulary.new_state()
    for event, live in zip(encounter.log, snapshots, strict=True):
        assert digest(fold([event], encounter.vocabulary, state)) == live, f"seq {event.seq}"


@pytest.mark.parametrize("path", SAMPLES)
def test_a_run_keeping_no_log_hands_its_sinks_the_events_a_run_logs(path: Path) -> None:
    ruleset, scenario = load(path)
    seen: list[Any] = []
    encounter = ruleset.battle(scenario).run(sinks=[seen.append], keep_log=False)
    logged = ruleset.battle(scenario).run().log
    assert (seen, encounter.log, encounter.count, encounter.last) == (logged, [], len(logged), logged[-1])


@pytest.mark.parametrize("path", SAMPLES)
def test_a_log_verifies_by_re_simulating_its_header(path: Path) -> None:
    log = read(log_of(path))
    assert verify(log, lambda: rulesets.recorded(log.header, str(path))).ok


@pytest.mark.parametrize("path", SAMPLES)
def test_a_changed_line_is_caught_at_its_seq(path: Path) -> None:
    lines = log_lines(log_of(path))
    lines[2] = lines[2].replace(b'"seq":2', b'"seq":2,"note":"x"', 1)
    log = read(b"\n".join(lines) + b"\n")
    verdict = verify(log, lambda: rulesets.recorded(log.header, str(path)))
    assert (verdict.ok, verdict.seq) == (False, 2)


@pytest.mark.parametrize("path", SAMPLES)
def test_a_rechained_forgery_is_caught_by_the_re_simulation(path: Path) -> None:
    lines = log_lines(log_of(path))
    last = len(lines) - 2  # the last event (encounter_ended), told to come a millisecond later

    def later(stamp: re.Match[bytes]) -> bytes:
        return b'"seq":%s,"t":%d' % (stamp.group(1), int(stamp.group(2) or 0) + 1)

    lines[last] = re.sub(rb'"seq":(\d+)(?:,"t":(\d+))?', later, lines[last], count=1)
    log = read(rechain(lines))
    verdict = verify(log, lambda: rulesets.recorded(log.header, str(path)))
    assert (verdict.ok, verdict.seq) == (False, last)


def _rolls_made(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[str, int]], list[Any]]:
    """Run a sample, noting every roll as it is made (stream and draw); those and the log."""
    made: list[tuple[str, int]] = []
    plain = Stream.roll

    def noted(self: Stream, expr: str, need: Need = None) -> Any:
        roll = plain(self, expr, need)
        made.append((roll.stream, roll.draw))
        return roll

    monkeypatch.setattr(Stream, "roll", noted)
    ruleset, scenario = load(path)
    return made, ruleset.battle(scenario).run().log


def _logged(value: Any) -> list[tuple[str, int]]:
    """The rolls a logged value records, as stream and draw."""
    if isinstance(value, dict):
        own = [(f"{value['roller']}/{value['purpose']}", value["draw"])] if "faces" in value else []
        return own + [roll for v in value.values() for roll in _logged(v)]
    if isinstance(value, list | tuple):
        return [roll for v in value for roll in _logged(v)]
    return []


@pytest.mark.parametrize("path", SAMPLES)
def test_every_die_rolled_is_in_the_log_once(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made, log = _rolls_made(path, monkeypatch)
    logged = [roll for event in log for roll in _logged(msgspec.to_builtins(event))]
    assert sorted(made) == sorted(logged)
    assert made


@pytest.mark.parametrize("path", SAMPLES)
def test_every_roll_is_logged_no_earlier_than_the_rolls_made_before_it(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made, log = _rolls_made(path, monkeypatch)
    seq_of = {roll: event.seq for event in log for roll in _logged(msgspec.to_builtins(event))}
    seqs = [seq_of[roll] for roll in made]
    assert seqs == sorted(seqs)


@pytest.mark.parametrize("path", SAMPLES)
def test_the_draws_of_each_stream_are_numbered_from_one(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made, _ = _rolls_made(path, monkeypatch)
    streams = {stream for stream, _ in made}
    for stream in streams:
        draws = [draw for s, draw in made if s == stream]
        assert draws == list(range(1, len(draws) + 1)), stream


@pytest.mark.parametrize("path", SAMPLES)
def test_every_event_of_a_sample_is_explained(path: Path) -> None:
    ruleset, scenario = load(path)
    log = ruleset.battle(scenario).run().log
    reading = Reading(ruleset=ruleset, modules=tuple(map(rulesets.module, scenario.modules)))
    for event in log:
        found = explain(log, event.seq, reading)
        assert found is not None
        assert found.steps, event.seq


@pytest.mark.parametrize("path", SAMPLES)
def test_explaining_every_event_at_once_is_explaining_each(path: Path) -> None:
    ruleset, scenario = load(path)
    log = ruleset.battle(scenario).run().log
    reading = Reading(ruleset=ruleset, modules=tuple(map(rulesets.module, scenario.modules)))
    assert list(explain_all(log, reading)) == [explain(log, event.seq, reading) for event in log]


@pytest.mark.parametrize("path", SAMPLES)
def test_a_samples_timeline_has_a_lane_per_combatant_and_every_span_within_the_fight(path: Path) -> None:
    ruleset, scenario = load(path)
    log = ruleset.battle(scenario).run().log
    reading = Reading(ruleset=ruleset, modules=tuple(map(rulesets.module, scenario.modules)))
    drawn = timeline.build(log, reading, scenario=ruleset.header(scenario).scenario)
    assert set(drawn.lanes) == {c.id for c in scenario.combatants}
    spans = [span for lane in drawn.lanes.values() for span in lane.spans] + drawn.rounds
    assert all(span.end is not None and 0 <= span.start <= span.end for span in spans)
    assert all(0 <= mark.at <= drawn.end for lane in drawn.lanes.values() for mark in lane.instants)


@pytest.mark.parametrize("name", NAMES)
def test_every_kind_of_every_vocabulary_is_told(name: str) -> None:
    ruleset = rulesets.ruleset(name)
    reading = Reading(ruleset=ruleset, modules=tuple(map(rulesets.module, ruleset.modules)))
    told = {**SHARED_TELLERS, **reading.tellers()}
    untold = [kind_of(kind) for kind in ruleset.vocabulary(ruleset.modules).kinds if kind not in told]
    assert not untold


@pytest.mark.parametrize("path", SAMPLES)
def test_every_event_of_a_sample_is_told_in_one_line(path: Path) -> None:
    ruleset, scenario = load(path)
    log = ruleset.battle(scenario).run().log
    reading = Reading(ruleset=ruleset, modules=tuple(rulesets.modules_of(scenario)))
    lines = list(narrate(log, reading.vocabulary(), reading.tellers()))
    assert len(lines) == len(log)
    assert all("\n" not in line for line in lines)


@pytest.mark.parametrize("path", SAMPLES)
def test_the_header_lists_the_kinds_of_the_vocabulary_and_no_other(path: Path) -> None:
    ruleset, scenario = load(path)
    header = ruleset.header(scenario)
    assert set(header.event_versions) == {kind_of(k) for k in ruleset.vocabulary(scenario.modules).kinds}


def _kinds() -> list[Any]:
    rulesets.register(TOY)
    found = {}
    for name in NAMES:
        ruleset = rulesets.ruleset(name)
        vocabulary = ruleset.vocabulary(ruleset.modules)
        for kind in vocabulary.kinds:
            found[(name, kind_of(kind))] = (kind, vocabulary)
    return [
        pytest.param(kind, vocabulary, id=f"{name}:{tag}")
        for (name, tag), (kind, vocabulary) in found.items()
    ]


@pytest.mark.parametrize(("kind", "vocabulary"), _kinds())
@given(data=st.data())
def test_every_kind_round_trips_through_the_logs_encoding(
    kind: Any, vocabulary: Any, data: st.DataObject
) -> None:
    event = data.draw(instances(kind))
    line = ENCODER.encode(event)
    decoded = vocabulary.decoder.decode(line)
    assert decoded == event
    assert ENCODER.encode(decoded) == line


OWNERS = [*NAMES, *sorted(rulesets.BUILT_IN_MODULES)]


def _owner(name: str) -> Ruleset | Module:
    return rulesets.ruleset(name) if name in NAMES else rulesets.module(name)


@pytest.mark.parametrize("name", OWNERS)
def test_tables_have_names_one_can_type_and_rows(name: str) -> None:
    tables = _owner(name).tables()
    names = [table.name for table in tables]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[a-z0-9][a-z0-9-]*", table_name) for table_name in names)
    assert all(table.rows for table in tables)


@pytest.mark.parametrize("name", OWNERS)
def test_every_row_of_a_table_is_found_by_its_own_name(name: str) -> None:
    for table in _owner(name).tables():
        for row_name in table.names():
            assert row_name in table.matching(row_name).names()


RULED = [
    pytest.param(path, id=f"{_ruleset_of(path)}:{path.stem}")
    for path in SAMPLE_FILES
    if _ruleset_of(path) in rulesets.BUILT_IN_RULESETS and rulesets.ruleset(_ruleset_of(path)).rules_on
]
"""The samples of the rulesets that offer referee's rulings."""


def _with_ruling(path: Path, ruling: dict[str, Any]) -> tuple[Ruleset, Any]:
    """The sample's scenario with one more ruling, loaded as its ruleset loads a file."""
    ruleset, scenario = load(path)
    raw = msgspec.json.decode(ENCODER.encode(scenario))
    raw["rulings"] = [*raw.get("rulings", []), ruling]
    return ruleset, ruleset.load(raw, str(path), path.parent)


@pytest.mark.parametrize("path", RULED)
def test_a_miss_ruling_rules_on_the_first_outcome_and_is_recorded_after_it(path: Path) -> None:
    ruleset, scenario = load(path)
    kind = ruleset.rules_on["outcome"]
    first = next(e for e in ruleset.battle(scenario).run().log if kind_of(type(e)) == kind)
    ruled_ruleset, ruled = _with_ruling(path, {"seq": first.seq, "outcome": "miss", "reason": "contract"})
    log = ruled_ruleset.battle(ruled).run().log
    ruled_event, record = log[first.seq - 1], log[first.seq]
    assert (kind_of(type(ruled_event)), ruled_event.outcome) == (kind, "miss")  # type: ignore[attr-defined]
    assert isinstance(record, RulingApplied)
    assert record.rules_on == first.seq


@pytest.mark.parametrize("path", RULED)
def test_a_log_with_a_ruling_verifies(path: Path) -> None:
    ruleset, scenario = _with_ruling(
        path, {"at": 0, "combatant": load(path)[1].combatants[0].id, "leaves": True, "reason": "contract"}
    )
    log = read(encode_log(ruleset.header(scenario), ruleset.battle(scenario).run().log))
    assert "ruling_applied" in {kind_of(type(e)) for e in log.events}
    assert verify(log, lambda: rulesets.recorded(log.header, str(path))).ok


@pytest.mark.parametrize("path", SAMPLES)
def test_a_sample_fought_on_from_its_middle_replays_its_first_half_then_draws_its_own(path: Path) -> None:
    # affray battle LOG@N for every ruleset: the rolls up to N entered, the later ones a new seed's
    log = read(log_of(path))
    after = log.events[len(log.events) // 2].seq
    ruleset, loaded = rulesets.load_mapping(continued_scenario(log, after, path.name), path.name, None)
    check_prefix(ruleset, loaded, log, after, path.name)
    again = ruleset.battle(msgspec.structs.replace(loaded, seed=loaded.seed + 1)).run().log
    assert [kind_of(type(e)) for e in again[:after]] == [kind_of(type(e)) for e in log.events[:after]]


ONE_PER_RULESET = [
    pytest.param(ROOT / "examples" / "duel.toml", id="energion:duel"),
    pytest.param(ROOT / "examples" / "firefight.toml", id="fivestep:firefight"),
    pytest.param(ROOT / "tests" / "toy" / "duel.toml", id="toy:duel"),
]
"""A sample of each ruleset, for what fights a sample many times at every roll."""


@pytest.mark.parametrize("path", ONE_PER_RULESET)
def test_a_samples_odds_run_from_its_opening_to_its_result_and_luck_accounts_for_the_change(
    path: Path,
) -> None:
    # affray odds for every ruleset: every roll a point, the last one the recorded result
    log = read(log_of(path))
    report = fight_odds(log, "", path.name, Sampling(within=0.5, most=4, seed=1))
    assert len(report.rolls) == sum(len(rolls_in(e)) for e in log.events)
    assert report.rolls[-1].after == recorded_odds(report.winner, report.sides)
    for side in report.split:
        assert side.luck + side.rest == pytest.approx(side.final - side.opening)
