"""Upcasters: a line recorded under an older version of its kind is brought up to date as it is read.

No kind has an old version yet, so these tests register upcasters of their own (monkeypatching
``affray.events.upcast.UPCASTERS``) and write logs whose header records an older version of a kind.
"""

from __future__ import annotations

import io
from typing import Any

import msgspec
import pytest

from affray.errors import LogError
from affray.events import codec, upcast
from affray.events.codec import CURRENT_VERSIONS, LogHeader, encode_log, iter_events, read_bytes
from affray.events.kinds import Perceived
from affray.handlers.battle import Battle
from affray.replays.verify import verify
from tests.strategies import example, example_log, log_lines, rechain

HEADER = Battle(example("duel")).header()
EVENTS = read_bytes(example_log("duel")).events
PERCEIVED = [e for e in EVENTS if isinstance(e, Perceived)]


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


def test_an_old_version_line_is_upcast_when_the_log_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(upcast.UPCASTERS, ("perceived", 0), rename_delay)
    log = read_bytes(perceived_v0_log())
    assert log.problem is None
    assert [e for e in log.events if isinstance(e, Perceived)] == PERCEIVED


def test_iter_events_upcasts_old_version_lines_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(upcast.UPCASTERS, ("perceived", 0), rename_delay)
    streamed = list(iter_events(io.BytesIO(perceived_v0_log())))
    assert [e for e in streamed if isinstance(e, Perceived)] == PERCEIVED


def test_a_kind_recorded_at_its_current_version_is_not_upcast(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(record: dict[str, Any]) -> dict[str, Any]:
        raise AssertionError("a current line went through an upcaster")

    monkeypatch.setitem(upcast.UPCASTERS, ("perceived", 0), refuse)
    assert read_bytes(example_log("duel")).events == EVENTS


def test_a_log_written_before_a_version_bump_is_upcast(monkeypatch: pytest.MonkeyPatch) -> None:
    data = example_log("duel")  # written with perceived at version 1
    seen: list[int] = []

    def to_v2(record: dict[str, Any]) -> dict[str, Any]:
        seen.append(record["seq"])
        return record

    monkeypatch.setitem(codec.CURRENT_VERSIONS, "perceived", 2)
    monkeypatch.setitem(upcast.UPCASTERS, ("perceived", 1), to_v2)
    log = read_bytes(data)
    assert log.problem is None
    assert seen == [e.seq for e in PERCEIVED]


def test_a_missing_upcaster_is_a_log_error() -> None:
    assert ("perceived", 0) not in upcast.UPCASTERS
    with pytest.raises(LogError, match="line 1: no upcaster brings perceived from version 0 to 1"):
        read_bytes(perceived_v0_log(), "old.jsonl")


def test_a_missing_step_in_a_chain_of_upcasters_is_a_log_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(codec.CURRENT_VERSIONS, "perceived", 3)
    monkeypatch.setitem(upcast.UPCASTERS, ("perceived", 1), lambda r: r)
    with pytest.raises(LogError, match="no upcaster brings perceived from version 1 to 3"):
        read_bytes(example_log("duel"))


def test_upcast_applies_each_step_in_version_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(upcast.UPCASTERS, ("moved", 1), lambda r: {**r, "steps": [*r["steps"], 1]})
    monkeypatch.setitem(upcast.UPCASTERS, ("moved", 2), lambda r: {**r, "steps": [*r["steps"], 2]})
    monkeypatch.setitem(upcast.UPCASTERS, ("moved", 3), lambda r: {**r, "steps": [*r["steps"], 3]})
    assert upcast.upcast({"kind": "moved", "steps": []}, 1, 4)["steps"] == [1, 2, 3]


def test_upcast_from_the_current_version_changes_nothing() -> None:
    record = {"kind": "moved", "seq": 1}
    assert upcast.upcast(record, 1, 1) == record


def test_missing_steps_names_the_versions_without_an_upcaster(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(upcast.UPCASTERS, ("moved", 2), lambda r: r)
    assert upcast.missing_steps("moved", 1, 4) == [1, 3]


def test_the_upcaster_decorator_registers_the_function(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(upcast, "UPCASTERS", {})

    @upcast.upcaster("reacted", 1)
    def add_prepared(record: dict[str, Any]) -> dict[str, Any]:
        return {**record, "prepared": False}

    assert {("reacted", 1): add_prepared} == upcast.UPCASTERS


def test_every_current_kind_is_recorded_in_a_new_header() -> None:
    assert HEADER.event_versions == CURRENT_VERSIONS


def test_upcasting_one_kind_keeps_every_other_event_exactly_as_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(upcast.UPCASTERS, ("encounter_ended", 0), lambda r: r)
    header = recorded_as("encounter_ended", 0)
    data = encode_log(header, EVENTS)
    log = read_bytes(data)
    assert log.problem is None
    assert encode_log(header, log.events) == data


def test_verify_accepts_an_untouched_log_that_needs_upcasting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(upcast.UPCASTERS, ("encounter_ended", 0), lambda r: r)
    log = read_bytes(encode_log(recorded_as("encounter_ended", 0), EVENTS))
    assert verify(log, "old.jsonl").ok


def test_a_line_with_a_non_string_kind_under_upcasting_is_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(upcast.UPCASTERS, ("encounter_ended", 0), lambda r: r)
    lines = log_lines(encode_log(recorded_as("encounter_ended", 0), EVENTS))
    lines[3] = lines[3].replace(b'"kind":"perceived"', b'"kind":["perceived"]')
    problem = read_bytes(rechain(lines)).problem
    assert problem is not None
    assert problem.seq == 3
