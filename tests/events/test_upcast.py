"""Upcasters: a line recorded under an older version of its kind is brought up to date as it is read.

The mechanism is tested here with upcasters of the tests' own: the Energion parts with more upcasters given
(``Part.upcasters``, beside Energion's real ones), and a kind's ``VERSION`` raised where a test needs a
bump. Their logs' headers record an older version of a kind. Energion's real upcasters (``perceived`` and
``reacted`` of version 1) are tested in tests/events/energion/test_versions.py.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Mapping
from typing import Any

import msgspec
import pytest

from affray.errors import LogError
from affray.events import upcast
from affray.events.codec import LogHeader, encode_log
from affray.events.energion.kinds import Perceived
from affray.events.energion.state import ENERGION, EnergionState
from affray.events.reader import LogFile, LogReader, read_bytes
from affray.events.shared import EncounterEnded
from affray.events.state import SHARED
from affray.events.vocabulary import Upcaster, Vocabulary
from affray.replays.verify import verify
from tests.strategies import example, example_log, header_for, log_lines, read, rechain, recorded_for

DUEL = example("duel")
HEADER = header_for(DUEL)
EVENTS = read(example_log("duel")).events
PERCEIVED = [e for e in EVENTS if isinstance(e, Perceived)]


def energion_with(upcasters: Mapping[tuple[str, int], Upcaster]) -> Vocabulary[EnergionState]:
    """The duel's vocabulary (Energion, no module) with these upcasters besides its own, made now (so it
    sees the kinds' current ``VERSION``)."""
    more = dataclasses.replace(ENERGION, upcasters={**ENERGION.upcasters, **upcasters})
    return Vocabulary(EnergionState, SHARED, more)


def read_with(data: bytes, upcasters: Mapping[tuple[str, int], Upcaster], source: str = "<log>") -> LogFile:
    vocabulary = energion_with(upcasters)
    return read_bytes(data, lambda header, where: vocabulary, source)


def recorded_as(kind: str, version: int) -> LogHeader:
    """The duel's header, saying ``kind`` was written under ``version``."""
    return msgspec.structs.replace(HEADER, event_versions={**HEADER.event_versions, kind: version})


def perceived_v0_log() -> bytes:
    """The duel as an imagined version 0 of ``perceived`` wrote it: ``delay_ms`` instead of ``after_ms``."""
    lines = log_lines(encode_log(recorded_as("perceived", 0), EVENTS))
    old = [
        line.replace(b'"after_ms":', b'"delay_ms":') if line.startswith(b'{"kind":"perceived",') else line
        for line in lines
    ]
    return rechain(old)


def rename_delay(record: dict[str, Any]) -> dict[str, Any]:
    record = dict(record)
    record["after_ms"] = record.pop("delay_ms")
    return record


def test_an_old_version_line_is_upcast_when_the_log_is_read() -> None:
    log = read_with(perceived_v0_log(), {("perceived", 0): rename_delay})
    assert log.problem is None
    assert [e for e in log.events if isinstance(e, Perceived)] == PERCEIVED


def test_a_streaming_reader_upcasts_old_version_lines_too() -> None:
    vocabulary = energion_with({("perceived", 0): rename_delay})
    streamed = list(LogReader(io.BytesIO(perceived_v0_log()), lambda header, where: vocabulary))
    assert [e for e in streamed if isinstance(e, Perceived)] == PERCEIVED


def test_a_kind_recorded_at_its_current_version_is_not_upcast() -> None:
    def refuse(record: dict[str, Any]) -> dict[str, Any]:
        raise AssertionError("a current line went through an upcaster")

    assert read_with(example_log("duel"), {("perceived", 0): refuse}).events == EVENTS


def test_a_log_written_before_a_version_bump_is_upcast(monkeypatch: pytest.MonkeyPatch) -> None:
    data = example_log("duel")  # written with perceived at version 2
    seen: list[int] = []

    def to_v3(record: dict[str, Any]) -> dict[str, Any]:
        seen.append(record["seq"])
        return record

    monkeypatch.setattr(Perceived, "VERSION", 3)
    log = read_with(data, {("perceived", 2): to_v3})
    assert log.problem is None
    assert seen == [e.seq for e in PERCEIVED]


def test_a_missing_upcaster_is_a_log_error() -> None:
    with pytest.raises(LogError, match="line 1: no upcaster brings perceived from version 0 to 2"):
        read(perceived_v0_log(), "old.jsonl")


def test_a_version_absurdly_far_back_is_a_log_error_found_at_once() -> None:
    # a damaged header's -2**63 once had the reader list 2**63 missing versions until memory ran out
    data = encode_log(recorded_as("perceived", -(2**63)), EVENTS)
    with pytest.raises(LogError, match=f"no upcaster brings perceived from version {-(2**63)} to 2"):
        read_with(data, {("perceived", 0): lambda r: r})


def test_lacks_a_step_counts_the_upcasters_between_two_versions() -> None:
    upcasters: dict[tuple[str, int], Upcaster] = {("moved", 1): lambda r: r, ("moved", 2): lambda r: r}
    assert not upcast.lacks_a_step(upcasters, "moved", 1, 3)
    assert upcast.lacks_a_step(upcasters, "moved", 0, 3)
    assert upcast.lacks_a_step(upcasters, "moved", 1, 4)
    assert upcast.lacks_a_step(upcasters, "moved", -(2**63), 3)
    assert not upcast.lacks_a_step(upcasters, "moved", 3, 3)


def test_a_missing_step_in_a_chain_of_upcasters_is_a_log_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Perceived, "VERSION", 4)
    with pytest.raises(LogError, match="no upcaster brings perceived from version 2 to 4"):
        read_with(example_log("duel"), {("perceived", 2): lambda r: r})


def test_upcast_applies_each_step_in_version_order() -> None:
    upcasters: dict[tuple[str, int], Upcaster] = {
        ("moved", step): lambda r, step=step: {**r, "steps": [*r["steps"], step]}  # type: ignore[misc]
        for step in (1, 2, 3)
    }
    assert upcast.upcast(upcasters, {"kind": "moved", "steps": []}, 1, 4)["steps"] == [1, 2, 3]


def test_upcast_from_the_current_version_changes_nothing() -> None:
    record = {"kind": "moved", "seq": 1}
    assert upcast.upcast({}, record, 1, 1) == record


def test_a_new_header_records_every_kind_of_its_vocabulary_and_no_other() -> None:
    assert HEADER.event_versions == energion_with({}).versions


def test_an_old_header_may_list_kinds_of_other_rulesets() -> None:
    header = recorded_as("round_started", 1)  # a fivestep kind, as format 1 headers listed every kind
    assert read(encode_log(header, EVENTS)).events == EVENTS


def test_upcasting_one_kind_keeps_every_other_event_exactly_as_written() -> None:
    header = recorded_as("encounter_ended", 0)
    data = encode_log(header, EVENTS)
    log = read_with(data, {("encounter_ended", 0): lambda r: r})
    assert log.problem is None
    assert encode_log(header, log.events) == data


def test_verify_accepts_an_untouched_log_that_needs_upcasting() -> None:
    log = read_with(
        encode_log(recorded_as("encounter_ended", 0), EVENTS), {("encounter_ended", 0): lambda r: r}
    )
    assert verify(log, lambda: recorded_for(DUEL)).ok


def test_a_line_with_a_non_string_kind_under_upcasting_is_a_problem() -> None:
    lines = log_lines(encode_log(recorded_as("encounter_ended", 0), EVENTS))
    lines[3] = lines[3].replace(b'"kind":"perceived"', b'"kind":["perceived"]')
    problem = read_with(rechain(lines), {("encounter_ended", 0): lambda r: r}).problem
    assert problem is not None
    assert problem.seq == 3


def test_an_upcaster_comes_with_the_part_that_defines_its_kind() -> None:
    vocabulary = Vocabulary(EnergionState, SHARED, dataclasses.replace(ENERGION, upcasters={("x", 1): dict}))
    assert vocabulary.upcasters == {("x", 1): dict}
    assert EncounterEnded in vocabulary
