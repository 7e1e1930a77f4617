"""What every store of logs promises, run against each: a folder of JSON Lines files and a SQLite campaign.

A log is written through the same writer ``affray run`` uses (``stores.log_writer``), read through the
same reader every command uses (``LogStore.open``), and must come back byte for byte; it takes its name
only when whole; a second writer is refused; a failed write keeps what it wrote; and a writer killed with
SIGKILL mid-run leaves every complete event, chained, with nothing half-written read as an event. Each
store answers every question of the ``LogStore`` protocol the commands ask (how a log is named, which file
holds it) alike.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from affray import rulesets, stores
from affray.errors import LogError
from affray.events.base import Event
from affray.events.codec import encode_log
from affray.events.reader import LogFile
from affray.kernel.fold import digest, fold
from affray.stores import JsonLinesLog, LogStore, StoredLog
from affray.stores.sqlite import Campaign
from tests.cli.test_memory import siege
from tests.killed import killed_once_written
from tests.strategies import read_path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
DUEL = read_path(GOLDEN / "duel.jsonl")
SKIRMISH = read_path(GOLDEN / "skirmish.jsonl")


@dataclass(frozen=True)
class Store:
    """One kind of store, laid out in a test's folder: where a log of a name is, where a writer of a
    process leaves its lines until the log is whole, and where a failed write's lines are kept."""

    kind: str
    place: Callable[[str], LogStore]
    writing: Callable[[str, int], LogStore]
    partial: Callable[[str], LogStore]


def _files(folder: Path) -> Store:
    return Store(
        "jsonl",
        place=lambda name: JsonLinesLog(folder / f"{name}.jsonl"),
        writing=lambda name, pid: JsonLinesLog(
            next(folder.glob(f".{name}.jsonl.*.tmp"), folder / f".{name}.jsonl.tmp")
        ),
        partial=lambda name: JsonLinesLog(folder / f"{name}.jsonl.partial"),
    )


def _campaign(folder: Path) -> Store:
    campaign = folder / "campaign.sqlite"
    return Store(
        "sqlite",
        place=lambda name: StoredLog(campaign, name),
        writing=lambda name, pid: StoredLog(campaign, f".{name}.{pid}.tmp"),
        partial=lambda name: StoredLog(campaign, f"{name}.partial"),
    )


LAYOUTS = {"jsonl": _files, "sqlite": _campaign}


@pytest.fixture(params=sorted(LAYOUTS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    return LAYOUTS[request.param](tmp_path)


def write(where: LogStore, log: LogFile, *, replace: bool = False) -> None:
    writer = stores.log_writer(where, log.header, replace=replace)
    for event in log.events:
        writer.write(event)
    writer.close()


def stored_bytes(where: LogStore) -> bytes:
    with where.open_bytes() as stream:
        return stream.read()


def read_back(where: LogStore) -> LogFile:
    return stores.read_place(where, rulesets.vocabulary_for)


def test_a_log_written_reads_back_byte_for_byte(store: Store) -> None:
    write(store.place("duel"), DUEL)
    assert stored_bytes(store.place("duel")) == (GOLDEN / "duel.jsonl").read_bytes()


def test_a_log_written_reads_back_whole_through_the_reader(store: Store) -> None:
    write(store.place("duel"), DUEL)
    log = read_back(store.place("duel"))
    assert (log.problem, log.ended, log.events) == (None, True, DUEL.events)


def test_many_logs_are_kept_side_by_side(store: Store) -> None:
    write(store.place("duel"), DUEL)
    write(store.place("skirmish"), SKIRMISH)
    assert read_back(store.place("duel")).events == DUEL.events
    assert read_back(store.place("skirmish")).events == SKIRMISH.events


def test_a_log_takes_its_name_only_when_whole(store: Store) -> None:
    writer = stores.log_writer(store.place("duel"), DUEL.header)
    writer.write(DUEL.events[0])
    assert not store.place("duel").exists()
    writer.abandon()


def test_a_second_writer_is_refused_while_the_first_writes(store: Store) -> None:
    writer = stores.log_writer(store.place("duel"), DUEL.header)
    with pytest.raises(LogError, match="another affray is writing"):
        stores.log_writer(store.place("duel"), DUEL.header)
    writer.abandon()


def test_a_second_writer_may_write_once_the_first_is_done(store: Store) -> None:
    write(store.place("duel"), DUEL)
    write(store.place("duel"), DUEL, replace=True)
    assert read_back(store.place("duel")).ended


def test_an_existing_log_is_not_replaced_unless_asked(store: Store) -> None:
    write(store.place("duel"), DUEL)
    with pytest.raises(LogError, match="already exists"):
        stores.log_writer(store.place("duel"), SKIRMISH.header)
    assert stored_bytes(store.place("duel")) == (GOLDEN / "duel.jsonl").read_bytes()


def test_a_replaced_log_stays_readable_until_the_new_one_is_whole(store: Store) -> None:
    write(store.place("fight"), DUEL)
    writer = stores.log_writer(store.place("fight"), SKIRMISH.header, replace=True)
    for event in SKIRMISH.events[:10]:
        writer.write(event)
    assert read_back(store.place("fight")).events == DUEL.events
    for event in SKIRMISH.events[10:]:
        writer.write(event)
    writer.close()
    assert read_back(store.place("fight")).events == SKIRMISH.events


def test_a_failed_write_keeps_its_events_as_a_partial_log(store: Store) -> None:
    writer = stores.log_writer(store.place("duel"), DUEL.header)
    for event in DUEL.events[:5]:
        writer.write(event)
    writer.abandon()
    kept = read_back(store.partial("duel"))
    assert kept.events == DUEL.events[:5]
    assert kept.problem is not None
    assert kept.problem.message == "the log is cut short: no end line after seq 5"
    assert not store.place("duel").exists()


def test_a_write_holding_no_event_keeps_nothing(store: Store) -> None:
    stores.log_writer(store.place("duel"), DUEL.header).abandon()
    assert not store.partial("duel").exists()
    assert not store.place("duel").exists()


def test_a_whole_log_copied_in_keeps_every_byte(store: Store) -> None:
    with (GOLDEN / "skirmish.jsonl").open("rb") as lines:
        stores.write_whole(store.place("skirmish"), lines)
    assert stored_bytes(store.place("skirmish")) == (GOLDEN / "skirmish.jsonl").read_bytes()


# -- what every store answers about a log (affray.stores.LogStore) -----------------------------------------


def test_a_log_is_named_as_the_command_line_names_it(store: Store) -> None:
    where = store.place("duel")
    assert stores.place(str(where)) == where
    assert (where.stem, str(where).endswith(where.name), where.name.startswith(where.stem)) == (
        "duel",
        True,
        True,
    )


def test_a_log_is_named_from_another_folder_as_that_folder_reads_it_back(
    store: Store, tmp_path: Path
) -> None:
    where = store.place("duel")
    beside = tmp_path / "what-ifs"
    recorded = where.named_from(beside)
    assert recorded.startswith("..")
    assert stores.place(str(beside / recorded)).resolved() == where.resolved()


def test_two_names_of_one_log_resolve_alike(store: Store, tmp_path: Path) -> None:
    (tmp_path / "link").symlink_to(tmp_path, target_is_directory=True)
    through_link = LAYOUTS[store.kind](tmp_path / "link")
    assert through_link.place("duel") != store.place("duel")
    assert through_link.place("duel").resolved() == store.place("duel").resolved()
    assert through_link.place("skirmish").resolved() != store.place("duel").resolved()


def test_the_file_that_holds_a_log_is_the_one_written(store: Store) -> None:
    where = store.place("duel")
    assert not where.file.exists()
    write(where, DUEL)
    assert where.file.is_file()
    assert where.own_file in (where.file, None)  # a file of its own, or a campaign that holds others too
    if where.own_file is not None:
        assert where.own_file.read_bytes() == stored_bytes(where)


def test_a_log_written_line_by_line_through_its_output_takes_its_name_when_committed(store: Store) -> None:
    where = store.place("skirmish")
    output = where.output()
    for line in (GOLDEN / "skirmish.jsonl").read_bytes().splitlines(keepends=True):
        output.write(line)
    assert not where.exists()
    output.commit()
    assert where.exists()
    assert stored_bytes(where) == (GOLDEN / "skirmish.jsonl").read_bytes()
    with pytest.raises(LogError, match="already exists"):
        where.output()
    where.output(replace=True).discard()
    assert stored_bytes(where) == (GOLDEN / "skirmish.jsonl").read_bytes()


def test_a_log_is_opened_for_reading_through_its_store(store: Store) -> None:
    where = store.place("duel")
    with pytest.raises(LogError):
        where.open(rulesets.vocabulary_for)
    with pytest.raises(LogError):
        stores.check_there(where)
    write(where, DUEL)
    stores.check_there(where)
    with where.open(rulesets.vocabulary_for, canonical=True) as reader:
        assert (reader.header, list(reader), reader.ended) == (DUEL.header, DUEL.events, True)


def test_a_log_is_opened_through_its_store_for_a_reading_that_only_folds(store: Store) -> None:
    where = store.place("duel")
    write(where, DUEL)
    with where.open(rulesets.vocabulary_for, folding=True) as reader:
        state = fold(reader, reader.vocabulary)
    assert digest(state) == digest(fold(DUEL.events, DUEL.vocabulary))


# -- a writer killed mid-run ------------------------------------------------------------------------------

KILL_AFTER = 400
"""How many events the killed run has written, at least, when it is killed."""


def _events_written(where: LogStore) -> int:
    """How many event lines the writer has put down so far (0 until it has begun)."""
    if where.own_file is not None:
        try:
            return max(where.own_file.read_bytes().count(b"\n") - 1, 0)
        except FileNotFoundError:
            return 0
    if not where.file.exists():
        return 0
    with Campaign.open(where.file, read_only=True) as campaign:
        return next((s.events for s in campaign.stored() if s.name == where.name), 0)


def _killed_mid_run(store: Store, scenario: Path) -> LogStore:
    """Start ``affray run`` on a day-long fight, SIGKILL it once it has written ``KILL_AFTER`` events,
    and return where its lines are."""
    arguments: list[str | Path] = ["run", scenario, "-o", str(store.place("siege"))]
    pid = killed_once_written(arguments, lambda pid: _events_written(store.writing("siege", pid)), KILL_AFTER)
    return store.writing("siege", pid)


class _Enough(Exception):
    """The fresh run has made as many events as the killed one wrote."""


def _fresh_run_begins_with(events: list[Event], log: LogFile) -> bool:
    made: list[Event] = []

    def keep(event: Event) -> None:
        made.append(event)
        if len(made) == len(events):
            raise _Enough

    battle = rulesets.recorded(log.header, "the killed run's log").battle()
    with pytest.raises(_Enough):
        battle.run(sinks=[keep], keep_log=False)
    return made == events


@pytest.fixture(scope="module", params=sorted(LAYOUTS))
def killed(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Store, LogStore]:
    """A store holding a whole duel, and the lines of a run killed while writing a siege beside it (one
    kill per kind of store, shared by the tests that look at what it left)."""
    folder = tmp_path_factory.mktemp(f"killed-{request.param}")
    store = LAYOUTS[request.param](folder)
    write(store.place("duel"), DUEL)
    scenario = folder / "siege.toml"
    scenario.write_text(siege(4))
    return store, _killed_mid_run(store, scenario)


def test_a_killed_writer_leaves_every_complete_event_chained(killed: tuple[Store, LogStore]) -> None:
    _, writing = killed
    log = read_back(writing)
    assert log.problem is not None
    assert "the log is cut short" in log.problem.message
    assert len(log.events) >= KILL_AFTER
    assert [e.seq for e in log.events] == list(range(1, len(log.events) + 1))


def test_a_killed_writer_left_the_events_of_a_fresh_run(killed: tuple[Store, LogStore]) -> None:
    _, writing = killed
    log = read_back(writing)
    assert _fresh_run_begins_with(log.events, log)


def test_a_killed_writer_leaves_no_log_under_its_name(killed: tuple[Store, LogStore]) -> None:
    store, _ = killed
    assert not store.place("siege").exists()


def test_a_killed_writer_leaves_the_other_logs_whole(killed: tuple[Store, LogStore]) -> None:
    store, _ = killed
    assert stored_bytes(store.place("duel")) == (GOLDEN / "duel.jsonl").read_bytes()
    if store.kind == "sqlite":
        campaign = store.place("duel").file
        with sqlite3.connect(campaign) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        connection.close()


def test_a_killed_writer_does_not_keep_the_store_locked(killed: tuple[Store, LogStore]) -> None:
    store, _ = killed
    write(store.place("after"), DUEL)
    assert read_back(store.place("after")).ended


def test_a_killed_writer_left_its_lines_exactly_as_a_whole_run_writes_them(
    killed: tuple[Store, LogStore],
) -> None:
    _, writing = killed
    log = read_back(writing)
    kept = stored_bytes(writing)
    complete = kept[: kept.rfind(b"\n") + 1]  # a file may end in part of a line; a campaign never does
    whole = encode_log(log.header, log.events)
    assert complete == whole[: whole.rstrip(b"\n").rfind(b"\n") + 1]  # all but the end line
