"""The format 2 hash chain (docs/log-format.md, "The hash chain" and "What a reader checks"): blocks of
event lines, each block's first line holding the hash of the block before, and a change named at the
first line of its block.

Most tests make blocks of 4 lines (``BLOCK_LINES`` patched where the codec and the reader hold it), so
that the duel's 31 events make 8 blocks: seqs 1-4, 5-8, ..., 25-28 and 29-31. Hashes are computed here
by hand (``chain_hash`` of the bytes of a block's lines, newlines included)."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import msgspec
import pytest

from affray.errors import LogError
from affray.events import codec, reader
from affray.events.base import Event
from affray.events.codec import LogWriter, encode_log, rechained
from affray.events.reader import NOT_CANONICAL, LogReader, Position, open_log, read_bytes
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
    rechain,
)

DUEL_EVENTS = read(example_log("duel")).events
N = len(DUEL_EVENTS)
HEADER = header_for(example("duel"))
FORMAT_1_DUEL = Path(__file__).resolve().parents[1] / "corpus" / "format-1-last" / "duel.jsonl"
SMALL = 4
"""Event lines per block in most tests here."""


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of ``SMALL`` lines, for the writer and the reader alike."""
    monkeypatch.setattr(codec, "BLOCK_LINES", SMALL)
    monkeypatch.setattr(reader, "BLOCK_LINES", SMALL)


def block_limit(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    """Let a block hold at most ``limit`` bytes, for the writer and the reader alike."""
    monkeypatch.setattr(codec, "MAX_BLOCK_BYTES", limit)
    monkeypatch.setattr(reader, "MAX_BLOCK_BYTES", limit)


def blocks_of(events: list[bytes], size: int = SMALL) -> list[list[bytes]]:
    """Event lines cut into blocks of ``size``, the last one holding what is left."""
    return [events[i : i + size] for i in range(0, len(events), size)]


def written(path: Path, events: list[Event]) -> bytes:
    """The log LogWriter writes of the duel's header and ``events``."""
    writer = LogWriter.create(path, HEADER)
    for event in events:
        writer.write(event)
    writer.close()
    return path.read_bytes()


def stream(data: bytes, *, canonical: bool = False) -> LogReader:
    return LogReader(io.BytesIO(data), vocabulary_for, "<log>", canonical=canonical)


def edited(data: bytes, seq: int, old: bytes, new: bytes) -> bytes:
    """``data`` with the line of ``seq`` edited, nothing re-chained; the edit keeps the line an event of
    the same seq and time."""
    lines = log_lines(data)
    assert old in lines[seq]
    lines[seq] = lines[seq].replace(old, new, 1)
    return join_lines(lines)


def moved(lines: list[bytes], seq: int, to: int) -> list[bytes]:
    """``lines`` with the line of ``seq`` taken out and put back as the line of ``to``."""
    lines = list(lines)
    lines.insert(to, lines.pop(seq))
    return lines


# -- the writer --------------------------------------------------------------------------------------


def test_the_writer_puts_prev_on_the_first_line_of_each_block_and_no_other(
    small_blocks: None, tmp_path: Path
) -> None:
    events = log_lines(written(tmp_path / "duel.jsonl", DUEL_EVENTS))[1:-1]
    assert [seq for seq, line in enumerate(events, 1) if b'"prev":' in line] == [1, 5, 9, 13, 17, 21, 25, 29]


def test_the_writer_puts_prev_on_seqs_1_257_and_513_at_the_real_block_size(tmp_path: Path) -> None:
    many = [msgspec.structs.replace(DUEL_EVENTS[i % N], seq=i + 1, t=i) for i in range(2 * BLOCK + 1)]
    events = log_lines(written(tmp_path / "long.jsonl", many))[1:-1]
    assert [seq for seq, line in enumerate(events, 1) if b'"prev":' in line] == [1, 257, 513]


def test_each_prev_is_the_hash_of_the_bytes_of_the_block_before(small_blocks: None, tmp_path: Path) -> None:
    header, *events, _ = log_lines(written(tmp_path / "duel.jsonl", DUEL_EVENTS))
    blocks = blocks_of(events)
    assert blocks[0][0].endswith(b',"prev":"%s"}' % chain_hash(header + b"\n").encode())
    for before, block in itertools.pairwise(blocks):
        assert block[0].endswith(b',"prev":"%s"}' % chain_hash(join_lines(before)).encode())


@pytest.mark.parametrize(("count", "last"), [(N, 3), (28, 4)], ids=["partial", "full"])
def test_the_end_line_holds_the_hash_of_the_last_block(
    small_blocks: None, tmp_path: Path, count: int, last: int
) -> None:
    *_, end = lines = log_lines(written(tmp_path / "duel.jsonl", DUEL_EVENTS[:count]))
    block = lines[-1 - last : -1]
    assert b'"seq":%d,' % (count - last + 1) in block[0]
    assert end == b'{"end":%d,"prev":"%s"}' % (count, chain_hash(join_lines(block)).encode())


def test_the_writer_refuses_a_line_that_would_bring_its_block_past_its_bound(
    small_blocks: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    plain = log_lines(encode_log(HEADER, DUEL_EVENTS))
    block_limit(monkeypatch, len(join_lines(plain[1:4])))  # seqs 1 to 3: the line of seq 4 passes it
    path = tmp_path / "duel.jsonl"
    writer = LogWriter.create(path, HEADER)
    for event in DUEL_EVENTS[:3]:
        writer.write(event)
    with pytest.raises(LogError, match="the block of lines ending at seq 4 would be"):
        writer.write(DUEL_EVENTS[3])
    kept = writer.abandon()
    assert isinstance(kept, Path)
    assert kept.read_bytes() == join_lines(plain[:4])  # the header and seqs 1 to 3, nothing of seq 4


# -- reading: a changed block ------------------------------------------------------------------------


def test_a_changed_line_inside_a_block_names_the_block_at_its_first_line(small_blocks: None) -> None:
    data = edited(encode_log(HEADER, DUEL_EVENTS), 10, b'"distance":2.000', b'"distance":9.000')
    problem = read(data).problem
    assert problem is not None
    assert (problem.line, problem.seq, problem.message) == (
        10,
        9,
        "lines 10 to 13 (seqs 9 to 12) were changed: their hash no longer matches the prev that line 14 "
        "(seq 13) records",
    )


def test_a_changed_line_of_the_last_block_is_found_by_the_end_line(small_blocks: None) -> None:
    data = edited(encode_log(HEADER, DUEL_EVENTS), 30, b"at -9", b"at -8")
    problem = read(data).problem
    assert problem is not None
    assert (problem.line, problem.seq, problem.message) == (
        30,
        29,
        "lines 30 to 32 (seqs 29 to 31) were changed: their hash no longer matches the prev that the end "
        "line records",
    )


def test_the_events_of_a_changed_block_are_disowned_not_yielded(small_blocks: None) -> None:
    data = edited(encode_log(HEADER, DUEL_EVENTS), 10, b'"distance":2.000', b'"distance":9.000')
    taken = stream(data)
    yielded = [event.seq for event in taken]
    assert not set(yielded) & {9, 10, 11, 12}
    assert [event.seq for event in taken.disowned] == [9, 10, 11, 12]
    assert [event.seq for event in read(data).disowned] == [9, 10, 11, 12]


def test_the_events_of_the_blocks_before_a_changed_block_are_yielded(small_blocks: None) -> None:
    data = edited(encode_log(HEADER, DUEL_EVENTS), 10, b'"distance":2.000', b'"distance":9.000')
    taken = stream(data)
    assert (list(taken), taken.count) == (DUEL_EVENTS[:8], 8)


def test_after_a_changed_block_the_position_is_the_last_event_yielded(small_blocks: None) -> None:
    data = edited(encode_log(HEADER, DUEL_EVENTS), 10, b'"distance":2.000', b'"distance":9.000')
    taken = stream(data)
    list(taken)
    at = taken.position
    assert at is not None
    assert (at.seq, at.t, at.block) == (8, DUEL_EVENTS[7].t, data.index(log_lines(data)[5]))


@pytest.mark.parametrize(
    ("extra", "complete"),
    [(b'{"kind":"combatant_out","se', 10), (b"", 10)],
    ids=["partial-line", "no-end-line"],
)
def test_a_cut_inside_a_block_yields_the_whole_lines_of_that_block(
    small_blocks: None, extra: bytes, complete: int
) -> None:
    data = join_lines(log_lines(encode_log(HEADER, DUEL_EVENTS))[: 1 + complete]) + extra
    taken = stream(data)
    assert list(taken) == DUEL_EVENTS[:complete]  # seqs 9 and 10, of the block of seqs 9 to 12, too
    assert taken.problem is not None
    what = "a partial line" if extra else "no end line"
    assert taken.problem.message == f"the log is cut short: {what} after seq {complete}"


def test_a_block_past_its_bound_is_a_problem_at_the_line_that_passes_it(
    small_blocks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = encode_log(HEADER, DUEL_EVENTS)
    limit = len(join_lines(log_lines(data)[1:4]))  # seqs 1 to 3: the line of seq 4 passes it
    block_limit(monkeypatch, limit)
    problem = read(data).problem
    assert problem is not None
    assert (problem.line, problem.seq, problem.message) == (
        5,
        4,
        f"passes the {limit:,} bytes a block of lines may hold; it is not read",
    )


def test_a_block_of_exactly_its_bound_is_read(small_blocks: None, monkeypatch: pytest.MonkeyPatch) -> None:
    data = encode_log(HEADER, DUEL_EVENTS)
    largest = max(len(join_lines(block)) for block in blocks_of(log_lines(data)[1:-1]))
    block_limit(monkeypatch, largest)
    log = read(data)
    assert (log.problem, log.events) == (None, DUEL_EVENTS)


# -- reading: the lines a block's hash does not check ------------------------------------------------


def test_whitespace_after_a_lines_closing_brace_inside_a_block_is_not_canonical() -> None:
    lines = log_lines(example_log("duel"))  # one block of seqs 1 to 31; seq 10 inside it
    lines[10] += b" "
    forged = rechain(lines)
    assert read(forged).problem is None  # the chain holds: only the canonical form finds it
    problem = read_bytes(forged, vocabulary_for, canonical=True).problem
    assert problem is not None
    assert (problem.line, problem.seq, problem.message) == (11, 10, NOT_CANONICAL)


def test_a_first_line_of_a_block_with_its_prev_not_last_is_named_at_that_line(small_blocks: None) -> None:
    lines = log_lines(encode_log(HEADER, DUEL_EVENTS))
    body, prev = lines[5].split(b',"prev":')  # seq 5, the first line of the second block
    lines[5] = b'%s,"prev":%s,"after_ms":3000}' % (body.removesuffix(b',"after_ms":3000'), prev[:-1])
    assert lines[5].endswith(b',"after_ms":3000}')
    problem = read(join_lines(lines)).problem
    assert problem is not None
    assert (problem.line, problem.seq, problem.message) == (
        6,
        5,
        "does not end with its prev as affray writes it (the prev member last, nothing after)",
    )


HUGE = b"9" * 5000
"""A number JSON allows and no decoder holds."""


def test_a_prev_that_is_a_number_no_decoder_holds_names_the_block_before(small_blocks: None) -> None:
    lines = log_lines(encode_log(HEADER, DUEL_EVENTS))
    body, _ = lines[5].split(b',"prev":')  # seq 5, the first line of the second block
    lines[5] = b'%s,"prev":%s}' % (body, HUGE)
    problem = read(join_lines(lines)).problem
    assert problem is not None
    assert (problem.line, problem.seq) == (2, 1)
    assert problem.message.startswith("lines 2 to 5 (seqs 1 to 4) were changed")


def test_a_member_after_prev_that_no_decoder_holds_names_the_line_itself(small_blocks: None) -> None:
    lines = log_lines(encode_log(HEADER, DUEL_EVENTS))
    lines[5] = b'%s,"x":%s}' % (lines[5][:-1], HUGE)
    problem = read(join_lines(lines)).problem
    assert problem is not None
    assert (problem.line, problem.seq, problem.message) == (
        6,
        5,
        "does not end with its prev as affray writes it (the prev member last, nothing after)",
    )


def test_a_line_inside_a_block_that_is_not_utf8_names_itself(small_blocks: None) -> None:
    lines = log_lines(encode_log(HEADER, DUEL_EVENTS))
    lines[3] = lines[3].replace(b'"seq":', b'"\x80x":1,"seq":', 1)  # a member the decoder skips unread
    problem = read(join_lines(lines)).problem
    assert problem is not None
    assert (problem.line, problem.seq) == (4, 3)
    assert problem.message.startswith("not a valid event (not UTF-8: invalid start byte at byte")


def test_an_end_line_that_is_not_utf8_is_damaged(small_blocks: None) -> None:
    lines = log_lines(encode_log(HEADER, DUEL_EVENTS))
    end = next(k for k, line in enumerate(lines) if line.startswith(b'{"end":'))
    lines[end] = lines[end].replace(b',"prev":', b',"\x80":0,"prev":', 1)
    problem = read(join_lines(lines)).problem
    assert problem is not None
    assert (problem.line, problem.seq) == (end + 1, end)
    assert problem.message.startswith("the end line is damaged (not UTF-8")


# -- resuming from a position ------------------------------------------------------------------------


def positions(path: Path) -> dict[int, Position]:
    """Where each event's line is, as a whole reading of the log at ``path`` gives it."""
    with open_log(path, vocabulary_for) as taken:
        found = {}
        for event in taken:
            at = taken.position
            assert at is not None
            found[event.seq] = at
        return found


@pytest.mark.parametrize("seq", [4, 9, 10, 12, 30, 31])
def test_a_reading_resumed_after_a_position_yields_the_rest(
    small_blocks: None, tmp_path: Path, seq: int
) -> None:
    path = tmp_path / "duel.jsonl"
    path.write_bytes(encode_log(HEADER, DUEL_EVENTS))
    at = positions(path)[seq]
    assert at.block >= 0
    with open_log(path, vocabulary_for) as taken:
        assert taken.resume_after(at)
        assert list(taken) == DUEL_EVENTS[seq:]
        assert (taken.problem, taken.ended, taken.count) == (None, True, N)


def test_a_resumed_reading_finds_a_block_changed_after_the_position(
    small_blocks: None, tmp_path: Path
) -> None:
    path = tmp_path / "duel.jsonl"
    data = encode_log(HEADER, DUEL_EVENTS)
    path.write_bytes(data)
    at = positions(path)[9]
    path.write_bytes(edited(data, 11, b'"attacker":"brenna"', b'"attacker":"brennb"'))  # same length
    with open_log(path, vocabulary_for) as taken:
        assert taken.resume_after(at)
        assert list(taken) == []
        assert taken.problem is not None
        assert (taken.problem.line, taken.problem.seq) == (10, 9)
        assert [event.seq for event in taken.disowned] == [10, 11, 12]


def elsewhere(found: dict[int, Position], change: str) -> Position:
    """The position of seq 11 (in the block of seqs 9 to 12) with one thing in it changed."""
    at = found[11]
    return {
        "offset": msgspec.structs.replace(at, offset=at.offset + 1),
        "hash": msgspec.structs.replace(at, hash="0" * 32),
        "seq": msgspec.structs.replace(at, seq=at.seq + 1),
        "block-a-line-later": msgspec.structs.replace(at, block=found[10].offset),
        "block-of-the-block-before": msgspec.structs.replace(at, block=found[5].block),
        "block-after-the-line": msgspec.structs.replace(at, block=at.offset + 1),
        "block-inside-its-first-line": msgspec.structs.replace(at, block=at.block + 40),
        "format-1": msgspec.structs.replace(at, block=-1),
    }[change]


@pytest.mark.parametrize(
    "change",
    [
        "offset",
        "hash",
        "seq",
        "block-a-line-later",
        "block-of-the-block-before",
        "block-after-the-line",
        "block-inside-its-first-line",
        "format-1",
    ],
)
def test_a_position_whose_line_or_block_no_longer_matches_is_refused(
    small_blocks: None, tmp_path: Path, change: str
) -> None:
    path = tmp_path / "duel.jsonl"
    path.write_bytes(encode_log(HEADER, DUEL_EVENTS))
    at = elsewhere(positions(path), change)
    with open_log(path, vocabulary_for) as taken:
        assert not taken.resume_after(at)
        assert (list(taken), taken.problem, taken.ended) == (DUEL_EVENTS, None, True)


def test_a_position_of_a_log_since_changed_at_its_line_is_refused(small_blocks: None, tmp_path: Path) -> None:
    path = tmp_path / "duel.jsonl"
    data = encode_log(HEADER, DUEL_EVENTS)
    path.write_bytes(data)
    at = positions(path)[10]
    changed = rechain_small(log_lines(edited(data, 10, b'"distance":2.000', b'"distance":9.000')))
    path.write_bytes(changed)
    with open_log(path, vocabulary_for) as taken:
        assert not taken.resume_after(at)
        assert len(list(taken)) == N
        assert (taken.problem, taken.ended) == (None, True)


def rechain_small(lines: list[bytes]) -> bytes:
    """``lines`` chained again in blocks of ``SMALL``, by hand."""
    header, *events = lines[:-1] if lines[-1].startswith(b'{"end":') else lines
    out, before = [header], header + b"\n"
    for seq, line in enumerate(events, 1):
        if b',"prev":"' in line:
            line = line[: line.rindex(b',"prev":"')] + b"}"
        if seq % SMALL == 1:
            line = b'%s,"prev":"%s"}' % (line[:-1], chain_hash(before).encode())
            before = b""
        out.append(line)
        before += line + b"\n"
    out.append(b'{"end":%d,"prev":"%s"}' % (len(events), chain_hash(before).encode()))
    return join_lines(out)


# -- re-chaining -------------------------------------------------------------------------------------

LONG = [msgspec.structs.replace(DUEL_EVENTS[i % N], seq=i + 1, t=i) for i in range(2 * BLOCK + 40)]
"""2,088 events (the duel's, numbered on): three blocks at the real block size."""


@pytest.mark.parametrize("version", [2, 1])
def test_the_codec_and_the_tests_rechain_a_log_with_lines_moved_alike(version: int) -> None:
    header = msgspec.structs.replace(HEADER, format_version=version)
    lines = log_lines(encode_log(header, LONG))
    lines = moved(lines, 1, 3)  # seq 1's line, with its prev, inside the first block
    lines = moved(lines, 262, 252)  # a line of the second block into the first
    del lines[513]  # the first line of the third block gone: the one after starts it
    assert rechained(lines) == rechain(lines)


# -- format 1 ----------------------------------------------------------------------------------------


def test_a_format_1_log_still_names_a_changed_line_at_that_line() -> None:
    data = edited(FORMAT_1_DUEL.read_bytes(), 10, b'"distance":2.000', b'"distance":9.000')
    taken = stream(data)
    assert list(taken) == DUEL_EVENTS[:9]
    assert taken.problem is not None
    assert (taken.problem.line, taken.problem.seq, taken.problem.message) == (
        11,
        10,
        "this line was changed: its hash no longer matches the prev the next line records",
    )
    assert taken.disowned == []
