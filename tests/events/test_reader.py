"""Reading logs (docs/log-format.md): every problem named at its line and seq, cuts, streaming line by
line within the line-length limit, headers."""

from __future__ import annotations

import io
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.errors import LogError
from affray.events.codec import FORMAT_VERSION, MAX_LINE_BYTES, LogHeader, encode_log, line_hash
from affray.events.reader import (
    NOT_CANONICAL,
    TOO_LONG,
    LogReader,
    Position,
    UnreadableHeader,
    open_log,
    read_bytes,
)
from affray.events.shared import kind_of
from affray.kernel.fold import digest, fold
from affray.rulesets import vocabulary_for
from tests.strategies import (
    BLOCK,
    chain_hash,
    example,
    example_log,
    header_for,
    join_lines,
    log_lines,
    read,
    read_path,
    rechain,
)

DUEL = example_log("duel")
DUEL_EVENTS = read(DUEL).events
N = len(DUEL_EVENTS)
HEADER = header_for(example("duel"))
DUEL_1 = encode_log(msgspec.structs.replace(HEADER, format_version=1), DUEL_EVENTS)
"""The duel as affray wrote it before format 2: every event line chained to the line before."""


def complete_events(data: bytes, cut: int) -> int:
    """How many event lines, newline included, lie wholly before byte ``cut``."""
    return max(data[:cut].count(b"\n") - 1, 0)


def stream_from(data: io.BytesIO, source: str = "<log>") -> LogReader:
    return LogReader(data, vocabulary_for, source)


def stream(data: bytes, source: str = "<log>") -> LogReader:
    return stream_from(io.BytesIO(data), source)


def open_path(path: Path) -> LogReader:
    return open_log(path, vocabulary_for)


# -- problems ----------------------------------------------------------------------------------------


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


def changed_byte(data: st.DataObject, log: bytes) -> tuple[bytes, int]:
    """``log`` with one byte after its header changed, and the seq of the line it is in (the end line's:
    N + 1)."""
    header_end = log.index(b"\n")
    position = data.draw(st.integers(min_value=header_end + 1, max_value=len(log) - 1), label="position")
    value = data.draw(st.integers(min_value=0, max_value=255).filter(lambda v: v != log[position]))
    return log[:position] + bytes([value]) + log[position + 1 :], log[:position].count(b"\n")


@given(st.data())
def test_a_single_byte_change_is_named_at_its_line_or_a_neighbour(data: st.DataObject) -> None:
    changed, line_seq = changed_byte(data, DUEL_1)  # format 1: every line chained to the one before
    problem = read(changed).problem
    assert problem is not None
    # the changed line itself, or a neighbour when the change is in a hash the chain compares
    assert abs(problem.seq - line_seq) <= 1


@given(st.data())
def test_a_single_byte_change_is_named_at_its_line_a_neighbour_or_its_blocks_first_line(
    data: st.DataObject,
) -> None:
    changed, line_seq = changed_byte(data, DUEL)
    problem = read(changed).problem
    assert problem is not None
    # the changed line, a neighbour, or (a change the line still reads with) the first line of its block
    first = (min(line_seq, N) - 1) // BLOCK * BLOCK + 1
    assert abs(problem.seq - line_seq) <= 1 or problem.seq == first


def test_an_end_line_that_miscounts_is_a_problem() -> None:
    lines = log_lines(DUEL)
    lines[-1] = lines[-1].replace(b'{"end":%d,' % N, b'{"end":%d,' % (N - 1))
    problem = read(join_lines(lines)).problem
    assert problem is not None
    assert (problem.seq, f"counts {N - 1} events" in problem.message) == (N + 1, True)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(b'"end":', b'"end": ', id="whitespace"),
        pytest.param(b'{"end":', b'{"end":0,"end":', id="key-repeated"),
        pytest.param(b'"}', b'","note":"x"}', id="member-added"),
    ],
)
def test_an_end_line_not_written_as_affray_writes_it_is_a_problem_when_held_to_its_form(
    old: bytes, new: bytes
) -> None:
    lines = log_lines(DUEL)
    lines[-1] = lines[-1].replace(old, new, 1)
    assert read(join_lines(lines)).problem is None
    problem = read_bytes(join_lines(lines), vocabulary_for, canonical=True).problem
    assert problem is not None
    assert (problem.line, problem.seq) == (N + 2, N + 1)
    assert problem.message == f"the end line {NOT_CANONICAL}"


@pytest.mark.parametrize("member", [b'"format":"affray-log",', b'"format_version":%d,' % FORMAT_VERSION])
def test_a_header_missing_a_member_at_its_default_is_a_problem_when_held_to_its_form(member: bytes) -> None:
    lines = log_lines(DUEL)
    lines[0] = lines[0].replace(member, b"", 1)
    assert member not in lines[0]
    # chained again by hand in format 2, the default (tests.strategies.rechain takes a header without
    # format_version as format 1): seq 1's prev hashes the header line and its newline, the end line
    # the one block of seqs 1 to N
    lines[1] = (
        lines[1][: lines[1].rindex(b',"prev":"')] + b',"prev":"%s"}' % chain_hash(lines[0] + b"\n").encode()
    )
    lines[-1] = b'{"end":%d,"prev":"%s"}' % (N, chain_hash(join_lines(lines[1:-1])).encode())
    forged = join_lines(lines)
    assert read(forged).problem is None
    problem = read_bytes(forged, vocabulary_for, canonical=True).problem
    assert problem is not None
    assert (problem.line, problem.seq, problem.message) == (1, 0, f"the header {NOT_CANONICAL}")


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


# -- streaming --------------------------------------------------------------------------------------


def test_a_reader_streams_the_events_read_bytes_reads() -> None:
    reader = stream(DUEL)
    assert (list(reader), reader.count, reader.ended, reader.problem) == (DUEL_EVENTS, N, True, None)


@given(cuts)
def test_a_reader_stops_at_a_cut_naming_it(cut: int) -> None:
    reader = stream(DUEL[:cut])
    assert list(reader) == DUEL_EVENTS[: complete_events(DUEL, cut)]
    assert reader.problem is not None
    assert "cut short" in reader.problem.message


def test_a_reader_yields_only_the_events_before_a_changed_line() -> None:
    lines = log_lines(DUEL_1)  # format 1: every line chained to the one before
    lines[10] = lines[10].replace(b',"t":', b',"t":1', 1)  # seq 10 edited; the chain breaks at seq 11
    reader = stream(join_lines(lines), "edited.jsonl")
    assert list(reader) == DUEL_EVENTS[:9]
    assert reader.problem is not None
    assert reader.problem.where() == "line 11 (seq 10)"


def test_a_reader_yields_none_of_the_events_of_a_changed_block() -> None:
    lines = log_lines(DUEL)  # one block: seqs 1 to N
    # seq 10 edited (its time kept: a later time would run backwards at seq 11, found before the hash)
    lines[10] = lines[10].replace(b'"distance":2.000', b'"distance":9.000', 1)
    assert lines[10] != log_lines(DUEL)[10]
    reader = stream(join_lines(lines), "edited.jsonl")
    assert list(reader) == []
    assert reader.problem is not None
    assert (reader.problem.where(), reader.problem.message) == (
        "line 2 (seq 1)",
        f"lines 2 to {N + 1} (seqs 1 to {N}) were changed: their hash no longer matches the prev that the "
        "end line records",
    )
    assert [event.seq for event in reader.disowned] == list(range(1, N + 1))


def test_a_reader_reads_a_log_file_as_it_was_written(tmp_path: Path) -> None:
    path = tmp_path / "duel.jsonl"
    path.write_bytes(DUEL)
    with open_path(path) as reader:
        assert list(reader) == DUEL_EVENTS


def test_a_readers_events_are_read_once() -> None:
    reader = stream(DUEL)
    list(reader)
    with pytest.raises(RuntimeError, match="read once"):
        iter(reader)


def test_a_reader_closes_its_stream_on_leaving_a_with_block() -> None:
    data = io.BytesIO(DUEL)
    with stream_from(data):
        pass
    assert data.closed


# -- the line-length limit ---------------------------------------------------------------------------


class CountingStream(io.BytesIO):
    """A stream that says how many bytes were taken from it."""

    taken = 0

    def readline(self, size: int | None = -1) -> bytes:
        line = super().readline(size)
        self.taken += len(line)
        return line

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.taken += len(data)
        return data


def test_a_line_over_the_limit_is_a_problem_at_its_seq_and_is_not_read_on() -> None:
    lines = log_lines(DUEL)
    junk = CountingStream(join_lines(lines[:6]) + b"x" * (3 * MAX_LINE_BYTES) + b"\n")
    reader = stream_from(junk)
    assert list(reader) == DUEL_EVENTS[:5]
    assert reader.problem is not None
    assert (reader.problem.line, reader.problem.seq) == (7, 6)
    assert reader.problem.message == f"line 7 {TOO_LONG}"
    assert junk.taken <= len(join_lines(lines[:6])) + MAX_LINE_BYTES + 1


def test_a_line_of_exactly_the_limit_is_read() -> None:
    lines = log_lines(DUEL)
    long = lines[1].replace(b'"name":"', b'"name":"' + b"n" * (MAX_LINE_BYTES - len(lines[1])), 1)
    assert len(long) == MAX_LINE_BYTES
    reader = stream(rechain([lines[0], long, *lines[2:]]))
    list(reader)
    assert reader.problem is None


def test_a_header_over_the_limit_is_not_a_log_header() -> None:
    with pytest.raises(UnreadableHeader, match="longer than"):
        stream(b"{" + b" " * MAX_LINE_BYTES + b"}\n")


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


def test_an_unknown_kind_is_quoted_in_at_most_a_few_dozen_characters() -> None:
    lines = log_lines(DUEL)
    lines[4] = lines[4].replace(b'"kind":"reacted"', b'"kind":"%s"' % (b"x" * 5000))
    problem = read(rechain(lines)).problem
    assert problem is not None
    assert f"unknown event kind '{'x' * 37}...'" in problem.message
    assert "x" * 41 not in problem.message


def test_a_header_that_does_not_decode_is_refused_quoting_a_few_dozen_characters_of_it() -> None:
    lines = log_lines(DUEL)
    lines[0] = lines[0].replace(b'"format":"affray-log"', b'"format":"%s"' % (b"x" * 5000), 1)
    with pytest.raises(UnreadableHeader, match="line 1 is not an affray log header") as caught:
        read(join_lines(lines))
    assert "x" * 41 not in str(caught.value)


def test_a_header_with_a_newer_kind_version_is_refused() -> None:
    data = with_header(msgspec.structs.replace(HEADER, event_versions={**HEADER.event_versions, "moved": 2}))
    with pytest.raises(LogError, match="line 1: moved version 2 is newer than this affray"):
        read(data)


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


def test_a_whole_logs_end_hash_is_the_hash_of_its_end_line() -> None:
    reader = stream(DUEL)
    list(reader)
    assert reader.end_hash == line_hash(log_lines(DUEL)[-1])


def test_a_cut_log_has_no_end_hash() -> None:
    reader = stream(DUEL[:-1])
    list(reader)
    assert reader.end_hash is None


def test_each_event_read_says_where_its_line_is() -> None:
    data = example_log("duel")
    lines = data.splitlines(keepends=True)
    reader = LogReader(io.BytesIO(data), vocabulary_for)
    for event in reader:
        at = reader.position
        assert at is not None
        start = sum(map(len, lines[: event.seq]))
        assert (at.seq, at.offset, at.t) == (event.seq, start, event.t)
        assert at.hash == line_hash(lines[event.seq][:-1])


def test_a_reader_goes_on_from_a_line_it_is_shown() -> None:
    data = example_log("duel")
    whole = LogReader(io.BytesIO(data), vocabulary_for)
    positions = {event.seq: whole.position for event in whole}
    reader = LogReader(io.BytesIO(data), vocabulary_for)
    at = positions[10]
    assert at is not None
    assert reader.resume_after(at)
    assert [event.seq for event in reader][:2] == [11, 12]
    assert reader.ended


def test_a_reader_shown_a_line_that_is_not_there_reads_from_the_start() -> None:
    data = example_log("duel")
    whole = LogReader(io.BytesIO(data), vocabulary_for)
    positions = {event.seq: whole.position for event in whole}
    reader = LogReader(io.BytesIO(data), vocabulary_for)
    at = positions[10]
    assert at is not None
    assert not reader.resume_after(msgspec.structs.replace(at, hash="0" * 32))
    assert [event.seq for event in reader][:2] == [1, 2]


def _positions(data: bytes) -> dict[int, Position]:
    """Where each event's line is, as a reader found them."""
    reader = stream_from(io.BytesIO(data))
    found = {}
    for event in reader:
        assert reader.position is not None
        found[event.seq] = reader.position
    return found


def test_an_earlier_event_is_recalled_from_its_line_and_the_reading_goes_on_where_it_was() -> None:
    data = example_log("duel")
    at = _positions(data)[7]
    reader = stream_from(io.BytesIO(data))
    assert reader.resume_after(_positions(data)[5])
    assert reader.recall(at) == read(data).events[6]
    assert next(iter(reader)).seq == 6


def test_a_line_that_no_longer_hashes_as_recorded_is_not_recalled() -> None:
    data = example_log("duel")
    at = _positions(data)[7]
    reader = stream_from(io.BytesIO(data))
    assert reader.recall(msgspec.structs.replace(at, hash="0" * len(at.hash))) is None
    assert reader.recall(msgspec.structs.replace(at, offset=at.offset + 1)) is None


def test_nothing_is_recalled_once_the_events_are_being_read() -> None:
    data = example_log("duel")
    reader = stream_from(io.BytesIO(data))
    next(iter(reader))
    assert reader.recall(_positions(data)[1]) is None


def test_a_place_before_the_start_of_the_file_is_neither_recalled_nor_resumed_from() -> None:
    data = example_log("duel")
    at = msgspec.structs.replace(_positions(data)[7], offset=-1)
    reader = stream_from(io.BytesIO(data))
    assert reader.recall(at) is None
    assert not reader.resume_after(at)
    assert [event.seq for event in reader] == [event.seq for event in read(data).events]


# -- a reading that only folds ----------------------------------------------------------------------------

LOGS = Path(__file__).resolve().parents[1]
FOLDED_LOGS = sorted([*LOGS.glob("golden/*.jsonl"), *LOGS.glob("corpus/*/*.jsonl")])


@pytest.mark.parametrize("log", FOLDED_LOGS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_reading_that_only_folds_gives_the_state_a_whole_reading_gives(log: Path) -> None:
    whole = read_path(log)
    folded = read_bytes(log.read_bytes(), vocabulary_for, folding=True)
    assert [event.seq for event in folded.events] == [event.seq for event in whole.events]
    assert digest(fold(folded.events, folded.vocabulary)) == digest(fold(whole.events, whole.vocabulary))


def test_a_reading_that_only_folds_decodes_an_attack_without_its_rolls() -> None:
    folded = read_bytes(example_log("duel"), vocabulary_for, folding=True)
    attack = next(event for event in folded.events if kind_of(type(event)) == "attack_resolved")
    assert not hasattr(attack.hit, "roll")


def test_a_players_copy_read_to_be_folded_is_read_whole() -> None:
    copy = (LOGS / "corpus" / "format-1-sealed" / "wolves-players.jsonl").read_bytes()
    folded = read_bytes(copy, vocabulary_for, folding=True)
    assert folded.events == read(copy).events


def test_a_reading_cannot_both_only_fold_and_hold_every_line_to_its_form() -> None:
    with pytest.raises(ValueError, match="cannot be one that only folds"):
        LogReader(io.BytesIO(DUEL), vocabulary_for, canonical=True, folding=True)
