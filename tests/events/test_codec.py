"""The log codec (docs/log-format.md): round trips, the writer, determinism, the chain, cuts, headers."""

from __future__ import annotations

import hashlib
import io
import itertools
import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.errors import LogError
from affray.events.base import Event
from affray.events.codec import FORMAT_VERSION, LogHeader, LogWriter, encode_log
from affray.events.shared import ActionRefused
from affray.events.special_damage.kinds import ConditionEnded
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import EnergionScenario
from tests.strategies import (
    all_kinds,
    chain_hash,
    condition_scenario,
    events,
    example,
    example_log,
    header_for,
    healed_events,
    join_lines,
    log_bytes,
    log_lines,
    read,
    read_path,
    rechain,
    refusal_scenario,
    scenarios,
    seeds,
    stream_events,
    with_seed,
)

DUEL = example_log("duel")
DUEL_EVENTS = read(DUEL).events
N = len(DUEL_EVENTS)
HEADER = header_for(example("duel"))


def run(name: str) -> tuple[LogHeader, list[Event]]:
    battle = EnergionBattle(example(name))
    return header_for(battle.scenario), battle.run().log


def complete_events(data: bytes, cut: int) -> int:
    """How many event lines, newline included, lie wholly before byte ``cut``."""
    return max(data[:cut].count(b"\n") - 1, 0)


# -- round trips -------------------------------------------------------------------------------------


def test_the_example_runs_cover_every_event_kind() -> None:
    # no example yields action_refused; the refusal scenario (a shot at a man wholly behind cover) does.
    # robots yields the special_damage kinds (S1-S6, S10), its 30-day aftermath the healing ones (S7, S8);
    # no example yields condition_ended: the condition scenario's unconscious man comes round (S4)
    # bar-brawl and firefight yield the fivestep kinds (F3-F12)
    names = ("duel", "skirmish", "archers", "mage-duel", "brawl", "robots")
    kinds = {type(e) for name in names for e in run(name)[1]}
    kinds |= {type(e) for name in ("bar-brawl", "firefight") for e in read(example_log(name)).events}
    kinds |= {type(e) for e in healed_events(example("robots"), 30)}
    woken = {type(e) for e in healed_events(condition_scenario(), 1)}
    refused = EnergionBattle(refusal_scenario()).run().log
    assert kinds | woken | {ActionRefused} == all_kinds()
    assert ActionRefused in {type(e) for e in refused}
    assert ConditionEnded in woken


@pytest.mark.parametrize("name", ["duel", "skirmish", "archers", "mage-duel", "brawl"])
def test_every_event_of_a_real_run_decodes_to_the_event_encoded(name: str) -> None:
    header, log = run(name)
    assert read(encode_log(header, log)).events == log


@pytest.mark.parametrize("name", ["duel", "skirmish", "archers", "mage-duel", "brawl"])
def test_every_event_of_a_real_run_re_encodes_to_the_same_bytes(name: str) -> None:
    header, log = run(name)
    data = encode_log(header, log)
    assert encode_log(header, read(data).events) == data


@given(events)
def test_an_event_of_any_kind_and_values_round_trips(event: Event) -> None:
    event = msgspec.structs.replace(event, seq=1)
    data = encode_log(HEADER, [event])
    log = read(data)
    assert log.problem is None
    assert log.events == [event]
    assert encode_log(HEADER, log.events) == data


def test_a_fresh_log_reads_back_whole_with_no_problem() -> None:
    log = read(DUEL)
    assert (log.problem, log.ended, len(log.events)) == (None, True, N)


def test_the_header_reads_back_as_written() -> None:
    assert read(DUEL).header == HEADER


# -- the writer --------------------------------------------------------------------------------------


def test_encode_log_gives_the_bytes_log_writer_writes(tmp_path: Path) -> None:
    battle = EnergionBattle(example("skirmish"))
    writer = LogWriter.create(tmp_path / "skirmish.jsonl", header_for(battle.scenario))
    encounter = battle.run(sinks=[writer.write])
    writer.close()
    assert (tmp_path / "skirmish.jsonl").read_bytes() == encode_log(
        header_for(battle.scenario), encounter.log
    )


def test_log_writer_leaves_whole_lines_after_every_event(tmp_path: Path) -> None:
    path = tmp_path / "duel.jsonl"
    writer = LogWriter.create(path, HEADER)
    assert writer.writing is not None
    for count, event in enumerate(DUEL_EVENTS[:5], start=1):
        writer.write(event)
        log = read(writer.writing.read_bytes())
        assert log.events == DUEL_EVENTS[:count]
        assert log.problem is not None
        assert log.problem.message.endswith(f"cut short: no end line after seq {count}")
    writer.close()


def test_log_writer_refuses_to_replace_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "taken.jsonl"
    path.write_bytes(b"keep me\n")
    with pytest.raises(LogError, match="already exists"):
        LogWriter.create(path, HEADER)
    assert path.read_bytes() == b"keep me\n"


def test_log_writer_replaces_an_existing_file_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "taken.jsonl"
    path.write_bytes(b"old\n" * 2000)
    writer = LogWriter.create(path, HEADER, replace=True)
    writer.close()
    assert path.read_bytes() == encode_log(HEADER, [])


# -- determinism -------------------------------------------------------------------------------------


@given(seeds)
def test_the_same_scenario_and_seed_give_byte_identical_logs(seed: int) -> None:
    scenario = with_seed(example("skirmish"), seed)
    assert log_bytes(scenario) == log_bytes(scenario)


@given(scenarios())
def test_a_generated_scenario_gives_byte_identical_logs(scenario: EnergionScenario) -> None:
    assert log_bytes(scenario) == log_bytes(scenario)


def test_the_log_does_not_depend_on_pythons_hash_seed() -> None:
    script = (
        "import hashlib, sys\n"
        "from pathlib import Path\n"
        "from affray import rulesets\n"
        "from affray.events.codec import encode_log\n"
        "r, s = rulesets.load_scenario(Path('examples/skirmish.toml'))\n"
        "sys.stdout.write(hashlib.sha256(encode_log(r.header(s), r.battle(s).run().log)).hexdigest())\n"
    )
    root = Path(__file__).resolve().parents[2]
    digests = {
        subprocess.run(
            [sys.executable, "-W", "error", "-c", script],
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            check=True,
            text=True,
        ).stdout
        for hash_seed in ("0", "4242")
    }
    assert digests == {hashlib.sha256(example_log("skirmish")).hexdigest()}


# -- the chain ---------------------------------------------------------------------------------------


def test_each_event_line_ends_with_the_blake2b_128_of_the_line_before() -> None:
    lines = log_lines(DUEL)
    for before, line in itertools.pairwise(lines[:-1]):
        assert line.endswith(b',"prev":"%s"}' % chain_hash(before).encode())


def test_the_end_line_counts_the_events_and_chains_to_the_last() -> None:
    lines = log_lines(DUEL)
    assert lines[-1] == b'{"end":%d,"prev":"%s"}' % (N, chain_hash(lines[-2]).encode())


def test_an_empty_log_is_a_header_and_an_end_line_chained_to_it() -> None:
    header = log_lines(DUEL)[0]
    assert encode_log(HEADER, []) == join_lines(
        [header, b'{"end":0,"prev":"%s"}' % chain_hash(header).encode()]
    )


@given(st.data())
def test_any_single_byte_change_is_found(data: st.DataObject) -> None:
    position = data.draw(st.integers(min_value=0, max_value=len(DUEL) - 1), label="position")
    value = data.draw(st.integers(min_value=0, max_value=255).filter(lambda v: v != DUEL[position]))
    changed = DUEL[:position] + bytes([value]) + DUEL[position + 1 :]
    try:
        log = read(changed)
    except LogError:
        return
    assert log.problem is not None


@given(st.data())
def test_a_single_byte_change_is_named_at_its_line_or_a_neighbour(data: st.DataObject) -> None:
    header_end = DUEL.index(b"\n")
    position = data.draw(st.integers(min_value=header_end + 1, max_value=len(DUEL) - 1), label="position")
    value = data.draw(st.integers(min_value=0, max_value=255).filter(lambda v: v != DUEL[position]))
    changed = DUEL[:position] + bytes([value]) + DUEL[position + 1 :]
    line_seq = DUEL[:position].count(b"\n")  # the seq the changed line holds (the end line: N + 1)
    problem = read(changed).problem
    assert problem is not None
    # the changed line itself, or a neighbour when the change is in a hash the chain compares
    assert abs(problem.seq - line_seq) <= 1


def test_an_end_line_that_miscounts_is_a_problem() -> None:
    lines = log_lines(DUEL)
    lines[-1] = lines[-1].replace(b'{"end":%d,' % N, b'{"end":%d,' % (N - 1))
    problem = read(join_lines(lines)).problem
    assert problem is not None
    assert (problem.seq, f"counts {N - 1} events" in problem.message) == (N + 1, True)


def test_lines_after_the_end_line_are_a_problem() -> None:
    problem = read(DUEL + log_lines(DUEL)[1] + b"\n").problem
    assert problem is not None
    assert problem.message == "lines follow the end line"


def test_a_line_with_a_seq_out_of_order_is_named() -> None:
    lines = log_lines(DUEL)
    lines[5] = lines[5].replace(b'"seq":5,', b'"seq":6,')
    problem = read(rechain(lines)).problem
    assert problem is not None
    assert (problem.seq, problem.message.startswith("holds seq 6")) == (5, True)


def test_time_running_backwards_is_named() -> None:
    lines = log_lines(DUEL)
    t = read(DUEL).events[4].t
    lines[6] = lines[6].replace(b',"t":%d,' % DUEL_EVENTS[5].t, b',"t":%d,' % (t - 1))
    problem = read(rechain(lines)).problem
    assert problem is not None
    assert (problem.seq, problem.message) == (6, f"time runs backwards ({t - 1} ms after {t} ms)")


# -- cuts --------------------------------------------------------------------------------------------

cuts = st.integers(min_value=DUEL.index(b"\n") + 1, max_value=len(DUEL) - 1)


@given(cuts)
def test_a_log_cut_anywhere_after_its_header_keeps_every_complete_event(cut: int) -> None:
    log = read(DUEL[:cut])
    assert log.events == DUEL_EVENTS[: complete_events(DUEL, cut)]


@given(cuts)
def test_a_log_cut_anywhere_after_its_header_says_it_is_cut(cut: int) -> None:
    problem = read(DUEL[:cut]).problem
    assert problem is not None
    assert "cut short" in problem.message
    assert problem.seq == complete_events(DUEL, cut) + 1


def test_a_log_cut_at_each_line_boundary_says_there_is_no_end_line() -> None:
    boundaries = [i + 1 for i, byte in enumerate(DUEL[:-1]) if byte == ord("\n")]
    for count, cut in enumerate(boundaries):
        problem = read(DUEL[:cut]).problem
        assert problem is not None
        assert (problem.seq, problem.message.endswith(f"cut short: no end line after seq {count}")) == (
            count + 1,
            True,
        )


def test_a_log_cut_mid_line_says_the_last_line_is_partial() -> None:
    cut = len(join_lines(log_lines(DUEL)[:10])) + 40  # 40 bytes into the line of seq 10
    problem = read(DUEL[:cut]).problem
    assert problem is not None
    assert (problem.line, problem.seq) == (11, 10)
    assert problem.message.endswith("cut short: a partial line after seq 9")


def test_a_log_missing_only_its_last_newline_is_cut() -> None:
    log = read(DUEL[:-1])
    assert (len(log.events), log.ended) == (N, False)
    assert log.problem is not None
    assert log.problem.message.endswith(f"cut short: a partial line after seq {N}")


@given(st.integers(min_value=0, max_value=DUEL.index(b"\n")))
def test_a_log_cut_inside_its_header_is_not_a_log(cut: int) -> None:
    with pytest.raises(LogError, match="not an affray log"):
        read(DUEL[:cut])


# -- streaming ---------------------------------------------------------------------------------------


def test_iter_events_streams_the_events_read_bytes_reads() -> None:
    assert list(stream_events(io.BytesIO(DUEL))) == DUEL_EVENTS


@given(cuts)
def test_iter_events_stops_quietly_at_a_cut(cut: int) -> None:
    assert list(stream_events(io.BytesIO(DUEL[:cut]))) == DUEL_EVENTS[: complete_events(DUEL, cut)]


def test_iter_events_raises_log_error_naming_a_broken_line() -> None:
    lines = log_lines(DUEL)
    lines[8], lines[9] = lines[9], lines[8]
    stream = stream_events(io.BytesIO(join_lines(lines)), "swapped.jsonl")
    with pytest.raises(LogError, match=r"^swapped.jsonl: line 9 \(seq 8\): "):
        list(stream)


def test_iter_events_yields_only_the_events_read_bytes_keeps_before_it_raises() -> None:
    lines = log_lines(DUEL)
    lines[10] = lines[10].replace(b',"t":', b',"t":1', 1)  # seq 10 edited; the chain breaks at seq 11
    data = join_lines(lines)
    streamed: list[Event] = []
    with pytest.raises(LogError, match=r"line 11 \(seq 10\)"):
        streamed.extend(stream_events(io.BytesIO(data)))  # keeps what was yielded before the error
    assert streamed == read(data).events


def test_iter_events_raises_log_error_on_lines_after_the_end() -> None:
    with pytest.raises(LogError, match="lines follow the end line"):
        list(stream_events(io.BytesIO(DUEL + b"{}\n")))


def test_iter_events_reads_a_log_file_as_it_was_written(tmp_path: Path) -> None:
    path = tmp_path / "duel.jsonl"
    path.write_bytes(DUEL)
    with path.open("rb") as stream:
        assert list(stream_events(stream)) == DUEL_EVENTS


# -- headers -----------------------------------------------------------------------------------------


def with_header(header: LogHeader) -> bytes:
    return encode_log(header, DUEL_EVENTS)


def test_a_header_of_a_newer_format_version_is_refused() -> None:
    data = with_header(msgspec.structs.replace(HEADER, format_version=FORMAT_VERSION + 1))
    with pytest.raises(LogError, match=f"log format version {FORMAT_VERSION + 1} is newer"):
        read(data)


def test_a_header_may_name_kinds_its_vocabulary_does_not_hold() -> None:
    # format 1 headers list the kinds of every ruleset; a reader keeps those of the log's vocabulary
    data = with_header(
        msgspec.structs.replace(HEADER, event_versions={**HEADER.event_versions, "teleported": 1})
    )
    log = read(data)
    assert (log.problem, log.events) == (None, DUEL_EVENTS)


def test_an_event_of_a_kind_outside_the_vocabulary_is_a_problem_at_its_seq() -> None:
    lines = log_lines(DUEL)
    lines[4] = lines[4].replace(b'"kind":"reacted"', b'"kind":"teleported"')
    problem = read(rechain(lines)).problem
    assert problem is not None
    assert problem.seq == 4
    assert "unknown event kind 'teleported'" in problem.message


def test_a_header_with_a_newer_kind_version_is_refused() -> None:
    data = with_header(msgspec.structs.replace(HEADER, event_versions={**HEADER.event_versions, "moved": 2}))
    with pytest.raises(LogError, match="line 1: moved version 2 is newer than this affray"):
        read(data)


def test_iter_events_refuses_a_newer_format_version_too() -> None:
    data = with_header(msgspec.structs.replace(HEADER, format_version=FORMAT_VERSION + 1))
    with pytest.raises(LogError, match="is newer"):
        next(stream_events(io.BytesIO(data)))


@pytest.mark.parametrize(
    "data",
    [b"", b"\n", b"hello\n", b"[1,2]\n", b'{"format":"other-log"}\n', b'{"end":0,"prev":"x"}\n'],
)
def test_a_file_that_is_not_an_affray_log_is_refused(data: bytes) -> None:
    with pytest.raises(LogError, match=r"^x\.jsonl: .*not an affray log"):
        read(data, "x.jsonl")


def test_read_log_names_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LogError, match="no such file"):
        read_path(tmp_path / "missing.jsonl")
