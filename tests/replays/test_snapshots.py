"""Snapshots of a long log's state in the user's cache (replays/snapshots.py), and ``state``, ``explain``
and ``view`` answering from them exactly as from the start. The skirmish's log stands in for a long one: a
snapshot every 16 events, kept for logs of 32 or more."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

import affray
from affray import rulesets
from affray.cli.tell import _rebuilt
from affray.events.reader import LogReader, Position, open_log
from affray.kernel.fold import digest
from affray.replays import page, snapshots
from affray.replays.explain import explain
from affray.replays.rebuild import fold_until
from affray.stores import JsonLinesLog
from tests.strategies import example_log, read


@pytest.fixture
def often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "EVERY", 16)
    monkeypatch.setattr(snapshots, "WORTH_IT", 32)


@pytest.fixture
def skirmish(tmp_path: Path, often: None) -> Path:
    log = tmp_path / "skirmish.jsonl"
    log.write_bytes(example_log("skirmish"))
    return log


def state_digest(log: Path, seq: int) -> str:
    """``affray state --seq`` as it rebuilds it, from a snapshot if one is kept."""
    with open_log(log, rulesets.vocabulary_for) as reader:
        return digest(_rebuilt(JsonLinesLog(log), reader, seq, None).state)


def from_the_start(seq: int) -> str:
    events = read(example_log("skirmish"))
    return digest(fold_until(events.events, events.vocabulary, seq=seq).state)


HEADER = example_log("skirmish").split(b"\n", 1)[0]
READING = rulesets.reading(read(example_log("skirmish")).header, "skirmish")


def kept(log: Path) -> list[snapshots.Snapshot]:
    found = snapshots.nearest(log, HEADER, READING, seq=None, t_ms=None)
    if found is None:
        return []
    index = msgspec.json.decode(found[1].read_bytes().split(b"\n", 1)[0], type=snapshots.Index)
    return index.snapshots


def test_a_long_log_read_far_has_its_snapshots_kept(skirmish: Path) -> None:
    assert kept(skirmish) == []
    state_digest(skirmish, 100)
    assert [s.at.seq for s in kept(skirmish)] == list(range(16, 103, 16))  # of 103 events


@pytest.mark.parametrize("seq", [0, 15, 16, 17, 63, 64, 100, 103])
def test_the_state_from_a_snapshot_is_the_state_from_the_start(skirmish: Path, seq: int) -> None:
    snapshots.keep(skirmish, rulesets.reading)
    assert state_digest(skirmish, seq) == from_the_start(seq)


def test_a_snapshot_whose_line_is_not_where_it_says_is_passed_by(skirmish: Path) -> None:
    snapshots.keep(skirmish, rulesets.reading)
    found = snapshots.nearest(skirmish, HEADER, READING, seq=100, t_ms=None)
    assert found is not None
    moved = msgspec.structs.replace(found[0].at, offset=found[0].at.offset + 1)
    with open_log(skirmish, rulesets.vocabulary_for) as reader:
        assert not reader.resume_after(moved)
        assert digest(_rebuilt(JsonLinesLog(skirmish), reader, 100, None).state) == from_the_start(100)


def test_a_log_changed_since_is_read_from_the_start(skirmish: Path) -> None:
    snapshots.keep(skirmish, rulesets.reading)
    before = os.stat(skirmish)
    os.utime(skirmish, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    assert kept(skirmish) == []


def test_a_short_log_keeps_none(tmp_path: Path) -> None:
    log = tmp_path / "skirmish.jsonl"
    log.write_bytes(example_log("skirmish"))
    snapshots.keep(log, rulesets.reading)  # 103 events: fewer than the 8,192 worth it
    assert kept(log) == []


def test_a_log_cut_short_keeps_none(tmp_path: Path, often: None) -> None:
    log = tmp_path / "cut.jsonl"
    log.write_bytes(b"".join(example_log("skirmish").splitlines(keepends=True)[:-2]))
    snapshots.keep(log, rulesets.reading)
    assert kept(log) == []


def test_a_long_log_cut_short_is_read_through_once_until_it_changes(
    tmp_path: Path, often: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "cut.jsonl"
    log.write_bytes(b"".join(example_log("skirmish").splitlines(keepends=True)[:-2]))
    snapshots.keep(log, rulesets.reading)
    read_through: list[int] = []
    monkeypatch.setattr(snapshots.Keeper, "note", lambda self, seq, at: read_through.append(seq))
    snapshots.keep(log, rulesets.reading)
    snapshots.keep(log, rulesets.reading, histories=True)
    assert read_through == []
    before = os.stat(log)
    os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    snapshots.keep(log, rulesets.reading)
    assert len(read_through) == 102  # every event but the last, cut short


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    base = tmp_path / "elsewhere"
    base.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(base))
    return base / "affray" / "snapshots"


def test_the_cache_is_a_folder_only_its_user_may_enter(cache: Path) -> None:
    assert snapshots.cache_folder() == cache
    assert cache.stat().st_mode & 0o777 == 0o700


def test_a_cache_others_may_write_in_is_not_used(cache: Path) -> None:
    cache.mkdir(parents=True)
    cache.chmod(0o777)
    assert snapshots.cache_folder() is None


def test_a_link_where_the_cache_should_be_is_not_followed(cache: Path, tmp_path: Path) -> None:
    cache.parent.mkdir(parents=True)
    (tmp_path / "victim").mkdir(mode=0o700)
    cache.symlink_to(tmp_path / "victim")
    assert snapshots.cache_folder() is None


def test_no_absolute_cache_folder_means_no_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/folder")
    assert snapshots.cache_folder() is None


def test_state_reads_on_from_the_last_snapshot_before_the_moment(
    skirmish: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshots.keep(skirmish, rulesets.reading)
    resumed: list[int] = []
    resume = LogReader.resume_after

    def spied(reader: LogReader, at: Position) -> bool:
        done = resume(reader, at)
        resumed.append(at.seq if done else -1)
        return done

    monkeypatch.setattr(LogReader, "resume_after", spied)
    assert state_digest(skirmish, 100) == from_the_start(100)
    assert resumed == [96]


def explained_digest(log: Path, seq: int) -> str:
    """Event ``seq`` explained as ``affray explain`` explains it: from a snapshot with a history, if one
    is kept."""
    with open_log(log, rulesets.vocabulary_for) as reader:
        explaining = snapshots.explaining(log, reader, READING, seq=seq - 1, t_ms=None)
        explained = explain(reader, seq, READING, explaining)
    return msgspec.json.encode(explained).decode()


def explained_from_the_start(seq: int) -> str:
    return msgspec.json.encode(explain(read(example_log("skirmish")).events, seq, READING)).decode()


@pytest.mark.parametrize("seq", [1, 16, 17, 40, 64, 65, 100, 103])
def test_an_event_explained_from_a_snapshot_is_explained_as_from_the_start(skirmish: Path, seq: int) -> None:
    snapshots.keep(skirmish, rulesets.reading, histories=True)
    assert explained_digest(skirmish, seq) == explained_from_the_start(seq)


def test_an_explanation_reads_on_from_the_last_snapshot_before_the_event(skirmish: Path) -> None:
    snapshots.keep(skirmish, rulesets.reading, histories=True)
    with open_log(skirmish, rulesets.vocabulary_for) as reader:
        explaining = snapshots.explaining(skirmish, reader, READING, seq=99, t_ms=None)
        assert explaining is not None
        assert explaining.state.seq == 96


def test_snapshots_without_histories_serve_states_not_explanations(skirmish: Path) -> None:
    snapshots.keep(skirmish, rulesets.reading)
    with open_log(skirmish, rulesets.vocabulary_for) as reader:
        assert snapshots.explaining(skirmish, reader, READING, seq=99, t_ms=None) is None
        assert snapshots.resume(skirmish, reader, READING, seq=99, t_ms=None) is not None


def test_snapshots_with_histories_serve_states_too(skirmish: Path) -> None:
    snapshots.keep(skirmish, rulesets.reading, histories=True)
    assert state_digest(skirmish, 100) == from_the_start(100)


def rewrite_history(log: Path, change: Callable[[bytes], bytes]) -> None:
    """Keep ``log``'s snapshots with histories, then put ``change`` of the history of the one before seq
    100 in its place (the same length, so nothing else moves)."""
    snapshots.keep(log, rulesets.reading, histories=True)
    found = snapshots.nearest(log, HEADER, READING, seq=100, t_ms=None, histories=True)
    assert found is not None
    snapshot, path = found
    data = path.read_bytes()
    start, end = snapshot.start + snapshot.length, snapshot.start + snapshot.length + snapshot.history
    changed = change(data[start:end])
    assert len(changed) == snapshot.history
    path.write_bytes(data[:start] + changed + data[end:])


def test_a_history_whose_line_no_longer_hashes_as_kept_is_passed_by(skirmish: Path) -> None:
    def unhashed(history: bytes) -> bytes:
        told = msgspec.json.decode(history, type=list[snapshots.Told])
        first = told[0].at
        moved = msgspec.structs.replace(
            told[0], at=msgspec.structs.replace(first, hash="0" * len(first.hash))
        )
        return msgspec.json.encode([moved, *told[1:]])

    rewrite_history(skirmish, unhashed)
    with open_log(skirmish, rulesets.vocabulary_for) as reader:
        assert snapshots.explaining(skirmish, reader, READING, seq=100, t_ms=None) is None
    assert explained_digest(skirmish, 101) == explained_from_the_start(101)


def test_snapshots_made_by_other_code_are_passed_by(skirmish: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snapshots.keep(skirmish, rulesets.reading, histories=True)
    assert kept(skirmish)
    monkeypatch.setattr(affray, "__version__", "0.0.0-another")
    assert kept(skirmish) == []


def test_what_made_snapshots_changes_with_a_file_of_the_fold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = sys.modules[type(READING.vocabulary().new_state()).__module__]
    copy = tmp_path / "state.py"
    copy.write_bytes(Path(module.__file__ or "").read_bytes())
    monkeypatch.setattr(module, "__file__", str(copy))
    before = snapshots.made_by(READING)
    status = copy.stat()
    os.utime(copy, ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000_000))
    assert snapshots.made_by(READING) != before


def page_data(log: Path, start: int) -> bytes:
    """The view's page data of the stretch from ``start`` ms, from a snapshot with a history if one is
    kept before it."""
    with open_log(log, rulesets.vocabulary_for) as reader:
        explaining = snapshots.explaining(log, reader, READING, seq=None, t_ms=start - 1)
        return msgspec.json.encode(page.fight(reader.header, reader, READING, "s", start, None, explaining))


@pytest.mark.parametrize("start", [1, 20_000, 38_000])
def test_a_stretch_of_the_page_from_a_snapshot_is_the_stretch_from_the_start(
    skirmish: Path, start: int
) -> None:
    from_the_start = page_data(skirmish, start)
    snapshots.keep(skirmish, rulesets.reading, histories=True)
    with open_log(skirmish, rulesets.vocabulary_for) as reader:
        resumed = snapshots.explaining(skirmish, reader, READING, seq=None, t_ms=start - 1)
        assert (resumed is not None) == (start > 1)
    assert page_data(skirmish, start) == from_the_start


@pytest.mark.parametrize("length", [-1, snapshots.STATE_LIMIT + 1])
def test_a_part_of_a_length_no_snapshot_has_is_not_read(tmp_path: Path, length: int) -> None:
    kept = tmp_path / "kept.snapshots"
    kept.write_bytes(b"{}" * 100)
    assert snapshots._read(kept, 0, length) is None
    assert snapshots._read(kept, 0, 4) == b"{}{}"


def test_a_history_that_is_no_json_is_passed_by(skirmish: Path) -> None:
    rewrite_history(skirmish, lambda history: b"x" * len(history))
    with open_log(skirmish, rulesets.vocabulary_for) as reader:
        assert snapshots.explaining(skirmish, reader, READING, seq=100, t_ms=None) is None
