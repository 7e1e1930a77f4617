"""Campaigns: many encounters' logs in one SQLite file, written whole or not at all, chained as the files."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from affray.errors import LogError
from affray.events.codec import MAX_LINE_BYTES, encode_end, line_hash
from affray.stores import chain, connection
from affray.stores.sqlite import APPLICATION_ID, Campaign, Stored, is_campaign_path
from tests.strategies import BLOCK, chain_hash, rechain

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
DUEL = (GOLDEN / "duel.jsonl").read_bytes()
BRAWL = (GOLDEN / "brawl.jsonl").read_bytes()
ARCHERS = (GOLDEN / "archers.jsonl").read_bytes()
FORMAT_1 = ROOT / "tests" / "corpus" / "format-1-last"
DUEL_1 = (FORMAT_1 / "duel.jsonl").read_bytes()
BRAWL_1 = (FORMAT_1 / "brawl.jsonl").read_bytes()
"""The duel and the brawl in format 1, which chains every line."""


def lines(data: bytes) -> list[bytes]:
    return data.splitlines()


def write(campaign: Campaign, name: str, data: bytes, *, replace: bool = False) -> None:
    output = campaign.writer(name, replace=replace)
    for line in data.splitlines(keepends=True):
        output.write(line)
    output.commit()


def read(campaign: Campaign, name: str) -> bytes:
    with campaign.read(name) as stream:
        return stream.read()


def synthetic(events: int, pad: int = 0) -> bytes:
    """A log that chains, of ``events`` made-up event lines padded with ``pad`` bytes each."""
    made = [b'{"format":"affray-log","format_version":1}']
    for seq in range(1, events + 1):
        made.append(
            b'{"kind":"waited","seq":%d,"pad":"%s","prev":"%s"}'
            % (seq, b"x" * pad, line_hash(made[-1]).encode())
        )
    made.append(encode_end(events, line_hash(made[-1])))
    return b"\n".join(made) + b"\n"


def synthetic_2(events: int, pad: int = 0) -> bytes:
    """A log of format 2 that chains, of ``events`` made-up event lines padded with ``pad`` bytes each."""
    made = [b'{"format":"affray-log","format_version":2}']
    made += [b'{"kind":"waited","seq":%d,"pad":"%s"}' % (seq, b"x" * pad) for seq in range(1, events + 1)]
    return rechain(made)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "campaign.sqlite"


@pytest.fixture
def campaign(path: Path) -> Iterator[Campaign]:
    with Campaign.open(path, create=True) as opened:
        yield opened


def test_a_whole_log_reads_back_byte_for_byte(campaign: Campaign) -> None:
    write(campaign, "duel", DUEL)
    assert read(campaign, "duel") == DUEL


def test_readline_stops_at_its_limit_and_read_takes_a_count(campaign: Campaign) -> None:
    write(campaign, "duel", DUEL)
    first, second = DUEL.splitlines(keepends=True)[:2]
    with campaign.read("duel") as stream:
        assert stream.readline(10) == first[:10]
        assert stream.readline() == first[10:]
        assert stream.read(5) == second[:5]
        assert stream.readline() == second[5:]
        assert stream.read() == DUEL[len(first) + len(second) :]
        assert stream.read(1) == b""


def test_a_log_is_read_a_line_at_a_time(campaign: Campaign) -> None:
    data = synthetic(3000, pad=1000)
    write(campaign, "long", data)
    tracemalloc.start()
    try:
        with campaign.read("long") as stream:
            count = sum(1 for _ in iter(lambda: stream.readline(MAX_LINE_BYTES + 1), b""))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 3002
    assert peak < len(data) // 10


def test_many_encounters_are_listed_by_name(campaign: Campaign) -> None:
    write(campaign, "duel", DUEL)
    write(campaign, "brawl", BRAWL)
    output = campaign.writer("archers")
    for line in ARCHERS.splitlines(keepends=True)[:4]:
        output.write(line)
    output.keep_partial()
    assert campaign.stored() == [
        Stored("archers.partial", 3, False),
        Stored("brawl", len(lines(BRAWL)) - 2, True),
        Stored("duel", len(lines(DUEL)) - 2, True),
    ]
    assert (read(campaign, "brawl"), read(campaign, "duel")) == (BRAWL, DUEL)


def test_the_schema_refuses_a_second_line_at_a_seq(campaign: Campaign, path: Path) -> None:
    write(campaign, "duel", DUEL)
    raw = sqlite3.connect(path)
    try:
        (encounter,) = raw.execute("SELECT id FROM encounters WHERE name = 'duel'").fetchone()
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute("INSERT INTO events (encounter, seq, line) VALUES (?, 1, x'7b7d')", (encounter,))
    finally:
        raw.close()


def test_appending_a_held_line_again_changes_nothing(campaign: Campaign) -> None:
    header, first, second = lines(DUEL)[:3]
    assert campaign.append("duel", 0, header)
    assert campaign.append("duel", 1, first)
    assert not campaign.append("duel", 0, header)
    assert not campaign.append("duel", 1, first)
    assert campaign.append("duel", 2, second)
    assert campaign.stored() == [Stored("duel", 2, False)]
    assert read(campaign, "duel") == b"".join(line + b"\n" for line in (header, first, second))


def test_appending_the_whole_log_line_by_line_stores_it_whole(campaign: Campaign) -> None:
    for seq, line in enumerate(lines(DUEL)):
        assert campaign.append("duel", seq, line)
    assert campaign.stored() == [Stored("duel", len(lines(DUEL)) - 2, True)]
    assert read(campaign, "duel") == DUEL
    assert not campaign.append("duel", len(lines(DUEL)) - 1, lines(DUEL)[-1])


def test_another_line_at_a_held_seq_is_refused(campaign: Campaign) -> None:
    for seq, line in enumerate(lines(DUEL)[:8]):
        campaign.append("duel", seq, line)
    with pytest.raises(LogError, match=r"campaign\.sqlite#duel: seq 7 already holds another line"):
        campaign.append("duel", 7, lines(BRAWL)[7])


def test_another_header_is_refused(campaign: Campaign) -> None:
    campaign.append("duel", 0, lines(DUEL)[0])
    with pytest.raises(LogError, match="seq 0 already holds another line"):
        campaign.append("duel", 0, lines(BRAWL)[0])


def test_a_gap_is_refused(campaign: Campaign) -> None:
    for seq, line in enumerate(lines(DUEL)[:3]):
        campaign.append("duel", seq, line)
    with pytest.raises(LogError, match="seq 4 would leave a gap: it holds lines up to seq 2"):
        campaign.append("duel", 4, lines(DUEL)[4])


def test_an_event_before_its_header_is_refused(campaign: Campaign) -> None:
    with pytest.raises(LogError, match=r"#duel: no such encounter; its header \(seq 0\) comes before seq 1"):
        campaign.append("duel", 1, lines(DUEL)[1])


def test_a_line_that_does_not_chain_is_refused(campaign: Campaign) -> None:
    # format 1: every line's prev is the hash of the line before
    for seq, line in enumerate(lines(DUEL_1)[:3]):
        campaign.append("duel", seq, line)
    with pytest.raises(
        LogError, match=r"seq 3 does not chain: its prev must be [0-9a-f]{32}, the hash of seq 2"
    ):
        campaign.append("duel", 3, lines(BRAWL_1)[3])
    assert campaign.stored() == [Stored("duel", 2, False)]


def test_an_end_line_that_miscounts_is_refused(campaign: Campaign) -> None:
    # format 1: the end line's prev is the hash of the last event line
    for seq, line in enumerate(lines(DUEL_1)[:3]):
        campaign.append("duel", seq, line)
    with pytest.raises(LogError, match=r"the end line \(seq 3\) must count the 2 events held"):
        campaign.append("duel", 3, encode_end(5, line_hash(lines(DUEL_1)[2])))
    assert campaign.stored() == [Stored("duel", 2, False)]


def test_an_end_line_of_format_2_that_miscounts_is_refused(campaign: Campaign) -> None:
    # format 2: the end line's prev is the hash of the last block, seqs 1 and 2 here
    for seq, line in enumerate(lines(DUEL)[:3]):
        campaign.append("duel", seq, line)
    block = b"".join(line + b"\n" for line in lines(DUEL)[1:3])
    with pytest.raises(LogError, match=r"the end line \(seq 3\) must count the 2 events held"):
        campaign.append("duel", 3, encode_end(5, chain_hash(block)))
    assert campaign.stored() == [Stored("duel", 2, False)]
    assert campaign.append("duel", 3, encode_end(2, chain_hash(block)))
    assert campaign.stored() == [Stored("duel", 2, True)]


# -- format 2: blocks of 256 lines, chained at their first line and the end line --------------------------


def test_a_first_line_that_does_not_chain_to_the_header_is_refused(campaign: Campaign) -> None:
    campaign.append("duel", 0, lines(DUEL)[0])
    with pytest.raises(
        LogError, match=r"seq 1 does not chain: its prev must be [0-9a-f]{32}, the hash of the header"
    ):
        campaign.append("duel", 1, lines(BRAWL)[1])
    assert campaign.stored() == [Stored("duel", 0, False)]


def test_a_blocks_first_line_that_does_not_chain_to_the_block_before_is_refused(campaign: Campaign) -> None:
    ours, theirs = lines(synthetic_2(BLOCK + 3, pad=1)), lines(synthetic_2(BLOCK + 3, pad=2))
    for seq, line in enumerate(ours[: BLOCK + 1]):
        assert campaign.append("long", seq, line)
    block = b"".join(line + b"\n" for line in ours[1 : BLOCK + 1])
    assert b',"prev":"' in theirs[BLOCK + 1]  # another log's line at that seq, chained to its own block
    with pytest.raises(
        LogError,
        match=f"seq {BLOCK + 1} does not chain: its prev must be {chain_hash(block)}, the hash of the block "
        f"of seqs 1 to {BLOCK}",
    ):
        campaign.append("long", BLOCK + 1, theirs[BLOCK + 1])
    assert campaign.stored() == [Stored("long", BLOCK, False)]
    assert campaign.append("long", BLOCK + 1, ours[BLOCK + 1])


def test_a_line_inside_a_block_is_taken_without_a_prev(campaign: Campaign) -> None:
    # not chain-checked on its own: its block is, at the next block's first line or the end line
    for seq, line in enumerate(lines(DUEL)[:3]):
        assert campaign.append("duel", seq, line)
    assert b'"prev"' not in lines(BRAWL)[3]
    assert campaign.append("duel", 3, lines(BRAWL)[3])
    assert campaign.stored() == [Stored("duel", 3, False)]


def test_an_end_line_chained_to_another_block_is_refused(campaign: Campaign) -> None:
    duel = lines(DUEL)
    changed = duel[10].replace(b'"seq":10,', b'"seq":10, ', 1)
    assert changed != duel[10]
    for seq, line in enumerate([*duel[:10], changed, *duel[11:-1]]):
        assert campaign.append("duel", seq, line)
    events = len(duel) - 2
    block = b"".join(line + b"\n" for line in [*duel[1:10], changed, *duel[11:-1]])
    with pytest.raises(
        LogError,
        match=f"seq {events + 1} does not chain: its prev must be {chain_hash(block)}, the hash of the block "
        f"of seqs 1 to {events}",
    ):
        campaign.append("duel", events + 1, duel[-1])
    assert campaign.stored() == [Stored("duel", events, False)]


def test_a_line_that_would_pass_the_block_bound_is_refused(
    campaign: Campaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    bound = 1000
    monkeypatch.setattr(chain, "MAX_BLOCK_BYTES", bound)
    duel = lines(DUEL)
    held, seq = 0, 1
    while held + len(duel[seq]) + 1 <= bound:
        held += len(duel[seq]) + 1
        seq += 1
    for at, line in enumerate(duel[:seq]):
        assert campaign.append("duel", at, line)
    with pytest.raises(
        LogError, match=f"seq {seq} would bring its block of lines past the 1,000 bytes a block may hold"
    ):
        campaign.append("duel", seq, duel[seq])
    assert campaign.stored() == [Stored("duel", seq - 1, False)]


def test_a_format_1_log_is_appended_line_by_line_each_line_checked(campaign: Campaign) -> None:
    # where format 2 takes a line inside a block unchecked, format 1 checks every line's prev
    for seq, line in enumerate(lines(DUEL_1)[:3]):
        assert campaign.append("duel", seq, line)
    with pytest.raises(LogError, match=r"seq 3 does not chain: .*, the hash of seq 2"):
        campaign.append("duel", 3, lines(BRAWL_1)[3])
    for seq, line in enumerate(lines(DUEL_1)[3:], 3):
        assert campaign.append("duel", seq, line)
    assert campaign.stored() == [Stored("duel", len(lines(DUEL_1)) - 2, True)]
    assert read(campaign, "duel") == DUEL_1


def test_nothing_follows_the_end_line(campaign: Campaign) -> None:
    write(campaign, "duel", DUEL)
    after = len(lines(DUEL))
    with pytest.raises(LogError, match=f"seq {after} would follow the end line"):
        campaign.append("duel", after, lines(DUEL)[1])
    with pytest.raises(LogError, match=f"seq {after - 1} already holds another line"):
        campaign.append("duel", after - 1, lines(DUEL)[-2])


def test_a_line_longer_than_a_log_line_may_be_is_refused(campaign: Campaign) -> None:
    with pytest.raises(LogError, match="longer than the 4,194,304 a log line may hold"):
        campaign.append("duel", 0, b"{" * (MAX_LINE_BYTES + 1))
    assert campaign.stored() == []


def test_a_write_must_be_one_whole_line(campaign: Campaign) -> None:
    output = campaign.writer("duel")
    with pytest.raises(LogError, match="one whole line ending in a newline"):
        output.write(lines(DUEL)[0])
    with pytest.raises(LogError, match="one whole line ending in a newline"):
        output.write(b"\n".join(lines(DUEL)[:2]) + b"\n")
    output.discard()


def test_nothing_can_be_written_after_commit(campaign: Campaign) -> None:
    output = campaign.writer("duel")
    for line in DUEL.splitlines(keepends=True):
        output.write(line)
    output.commit()
    with pytest.raises(LogError, match=r"#duel: its write has ended \(committed\)"):
        output.write(b"{}\n")


def test_nothing_takes_the_name_before_commit(campaign: Campaign) -> None:
    output = campaign.writer("duel")
    for line in DUEL.splitlines(keepends=True):
        output.write(line)
    assert not campaign.exists("duel")
    assert output.writing.endswith(f"campaign.sqlite#.duel.{os.getpid()}.tmp")
    output.commit()
    assert [s.name for s in campaign.stored()] == ["duel"]


def test_a_second_writer_in_the_same_process_is_refused(campaign: Campaign, path: Path) -> None:
    first = campaign.writer("duel")
    with pytest.raises(
        LogError,
        match=r"campaign\.sqlite: another affray is writing to it \(this process\); wait for it to finish$",
    ):
        Campaign.open(path)
    with pytest.raises(LogError, match="another affray is writing to it"):
        campaign.writer("brawl")
    first.discard()
    write(campaign, "brawl", BRAWL)


def test_the_writer_s_campaign_may_append_to_another_encounter_while_it_writes(campaign: Campaign) -> None:
    output = campaign.writer("duel")
    output.write(DUEL.splitlines(keepends=True)[0])
    assert campaign.append("brawl", 0, lines(BRAWL)[0])
    output.discard()


WRITE_BRAWL = """
import sys
from pathlib import Path
from affray.errors import LogError
from affray.stores.sqlite import Campaign

try:
    campaign = Campaign.open(Path(sys.argv[1]))
except LogError as exc:
    print(exc)
    sys.exit(1)
with campaign:
    output = campaign.writer("brawl")
    for line in Path(sys.argv[2]).read_bytes().splitlines(keepends=True):
        output.write(line)
    output.commit()
"""


def write_in_another_process(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WRITE_BRAWL, str(path), str(GOLDEN / "brawl.jsonl")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_a_writer_in_another_process_is_refused_until_the_first_is_closed(path: Path) -> None:
    with Campaign.open(path, create=True) as campaign:
        output = campaign.writer("duel")
        output.write(DUEL.splitlines(keepends=True)[0])
        refused = write_in_another_process(path)
        assert refused.returncode == 1, refused.stderr
        assert refused.stdout.strip() == (
            f"{path}: another affray is writing to it (process {os.getpid()}); wait for it to finish"
        )
        for line in DUEL.splitlines(keepends=True)[1:]:
            output.write(line)
        output.commit()
    done = write_in_another_process(path)
    assert done.returncode == 0, done.stdout + done.stderr
    with Campaign.open(path, read_only=True) as campaign:
        assert read(campaign, "brawl") == BRAWL


def test_an_existing_name_is_refused_without_replace(campaign: Campaign) -> None:
    write(campaign, "duel", DUEL)
    with pytest.raises(
        LogError, match=r"campaign\.sqlite#duel: already exists; choose another name or pass --force"
    ):
        campaign.writer("duel")


def test_replace_swaps_the_log_only_at_commit(campaign: Campaign, path: Path) -> None:
    write(campaign, "duel", DUEL)
    output = campaign.writer("duel", replace=True)
    for line in BRAWL.splitlines(keepends=True):
        output.write(line)
    assert read(campaign, "duel") == DUEL
    output.commit()
    assert read(campaign, "duel") == BRAWL
    assert [s.name for s in campaign.stored()] == ["duel"]
    raw = sqlite3.connect(path)
    try:
        (held,) = raw.execute("SELECT count(*) FROM events").fetchone()
    finally:
        raw.close()
    assert held == len(lines(BRAWL)) - 2, "the old log's lines went with it"


def test_a_name_made_while_writing_is_kept_and_the_write_kept_as_partial(campaign: Campaign) -> None:
    output = campaign.writer("duel")
    for line in BRAWL.splitlines(keepends=True):
        output.write(line)
    for seq, line in enumerate(lines(DUEL)):
        campaign.append("duel", seq, line)
    with pytest.raises(
        LogError,
        match=r"#duel: was made while affray wrote it; the log is kept in .*campaign\.sqlite#duel\.partial$",
    ):
        output.commit()
    assert (read(campaign, "duel"), read(campaign, "duel.partial")) == (DUEL, BRAWL)
    write(campaign, "brawl", BRAWL)


def test_keep_partial_never_replaces_an_older_partial(campaign: Campaign) -> None:
    kept = []
    for _ in range(2):
        output = campaign.writer("duel")
        for line in DUEL.splitlines(keepends=True)[:3]:
            output.write(line)
        kept.append(output.keep_partial())
    assert [k.rsplit("/", 1)[-1] for k in kept] == [
        "campaign.sqlite#duel.partial",
        "campaign.sqlite#duel.partial-2",
    ]
    assert [s.name for s in campaign.stored()] == ["duel.partial", "duel.partial-2"]
    assert read(campaign, "duel.partial-2") == b"".join(DUEL.splitlines(keepends=True)[:3])


def test_discard_leaves_nothing(campaign: Campaign, path: Path) -> None:
    output = campaign.writer("duel")
    for line in DUEL.splitlines(keepends=True)[:5]:
        output.write(line)
    output.discard()
    assert campaign.stored() == []
    assert not (path.parent / ".campaign.sqlite.lock").exists()
    write(campaign, "duel", DUEL)


def test_closing_the_campaign_keeps_a_write_still_going_as_partial(path: Path) -> None:
    with Campaign.open(path, create=True) as campaign:
        output = campaign.writer("duel")
        output.write(DUEL.splitlines(keepends=True)[0])
    with Campaign.open(path) as campaign:
        assert campaign.stored() == [Stored("duel.partial", 0, False)]
        write(campaign, "duel", DUEL)


def test_a_temporary_encounter_left_by_an_earlier_process_of_this_pid_is_kept_as_partial(
    campaign: Campaign,
) -> None:
    campaign.append(f".duel.{os.getpid()}.tmp", 0, lines(DUEL)[0])
    write(campaign, "duel", DUEL)
    assert campaign.stored() == [Stored("duel", len(lines(DUEL)) - 2, True), Stored("duel.partial", 0, False)]


def test_an_empty_write_is_refused(campaign: Campaign) -> None:
    output = campaign.writer("duel")
    with pytest.raises(LogError, match="one whole line ending in a newline"):
        output.write(b"")
    output.discard()


def test_a_temporary_name_is_refused_for_a_writer(campaign: Campaign) -> None:
    with pytest.raises(LogError, match=r"#\.duel: an encounter's name may not begin with '\.'"):
        campaign.writer(".duel")


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("", "is empty"),
        ("a\nb", "holds a newline"),
        ("x" * 201, "is 201 characters long, longer than the 200"),
    ],
)
def test_a_name_that_no_encounter_may_have_is_refused(campaign: Campaign, name: str, problem: str) -> None:
    with pytest.raises(LogError, match=f"an encounter's name {problem}"):
        campaign.writer(name)


def test_the_file_is_kept_in_wal_mode(campaign: Campaign, path: Path) -> None:
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        raw.close()
    assert campaign._connection.execute("PRAGMA synchronous").fetchone() == (1,)
    assert campaign._connection.execute("PRAGMA foreign_keys").fetchone() == (1,)
    assert campaign._connection.execute("PRAGMA busy_timeout").fetchone() == (5000,)


def test_a_new_campaign_is_marked_as_one(path: Path) -> None:
    Campaign.open(path, create=True).close()
    head = path.read_bytes()[:100]
    assert head[68:72] == b"afry"
    assert (head[18], head[19]) == (2, 2), "write-ahead log"
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
        assert raw.execute("PRAGMA user_version").fetchone() == (2,)
    finally:
        raw.close()
    assert sorted(p.name for p in path.parent.iterdir()) == ["campaign.sqlite"]


def test_a_missing_file_is_refused_without_create(path: Path) -> None:
    with pytest.raises(LogError, match=r"campaign\.sqlite: no such file$"):
        Campaign.open(path)
    assert not path.exists()


def test_a_file_that_is_not_sqlite_is_refused_and_left_as_it_is(path: Path) -> None:
    path.write_bytes(DUEL)
    with pytest.raises(LogError, match=r"campaign\.sqlite: not an affray campaign \(not a SQLite file\)"):
        Campaign.open(path, create=True)
    assert path.read_bytes() == DUEL
    assert sorted(p.name for p in path.parent.iterdir()) == ["campaign.sqlite"]


def test_an_empty_file_is_refused(path: Path) -> None:
    path.write_bytes(b"")
    with pytest.raises(LogError, match=r"not an affray campaign \(an empty file\)"):
        Campaign.open(path, create=True)
    assert path.read_bytes() == b""


def test_another_programs_database_is_refused_and_left_as_it_is(path: Path) -> None:
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE notes (text TEXT)")
    raw.execute("INSERT INTO notes VALUES ('mine')")
    raw.commit()
    raw.close()
    before = path.read_bytes()
    with pytest.raises(
        LogError, match=r"not an affray campaign \(a SQLite database whose application_id is 0x0"
    ):
        Campaign.open(path, create=True)
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["campaign.sqlite"]


def test_a_newer_schema_is_refused(path: Path) -> None:
    Campaign.open(path, create=True).close()
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA user_version = 3")
    raw.close()
    with pytest.raises(LogError, match="schema is version 3, newer than this affray reads"):
        Campaign.open(path)


def test_a_damaged_campaign_is_a_log_error(path: Path) -> None:
    with Campaign.open(path, create=True) as campaign:
        write(campaign, "duel", DUEL)
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)
    path.write_bytes(bytes(data))
    with pytest.raises(
        LogError, match=r"campaign\.sqlite: the file is damaged \(database disk image is malformed\)"
    ):
        Campaign.open(path)


def test_a_full_disk_is_a_log_error(campaign: Campaign) -> None:
    campaign.append("duel", 0, lines(DUEL)[0])
    (pages,) = campaign._connection.execute("PRAGMA page_count").fetchone()
    campaign._connection.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(LogError, match=r"campaign\.sqlite: cannot write: the disk is full"):
        campaign.append("brawl", 0, b"{" + b" " * 100_000 + b"}")
    assert [s.name for s in campaign.stored()] == ["duel"]


def test_a_campaign_locked_by_another_program_is_a_log_error(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Campaign.open(path, create=True).close()
    monkeypatch.setattr(connection, "BUSY_TIMEOUT", 0.05)
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("BEGIN IMMEDIATE")
    try:
        with Campaign.open(path) as other, pytest.raises(LogError, match="another program holds it locked"):
            other.append("duel", 0, lines(DUEL)[0])
    finally:
        raw.execute("ROLLBACK")
        raw.close()


def test_a_missing_encounter_is_refused_naming_those_held(campaign: Campaign, path: Path) -> None:
    with pytest.raises(LogError, match=f"^{re.escape(str(path))}#duel: no such encounter; it holds none$"):
        campaign.read("duel")
    write(campaign, "brawl", BRAWL)
    write(campaign, "archers", ARCHERS)
    with pytest.raises(
        LogError, match=f"^{re.escape(str(path))}#duel: no such encounter; it holds: archers, brawl$"
    ):
        campaign.read("duel")


def test_delete_removes_an_encounter_and_its_lines(campaign: Campaign) -> None:
    write(campaign, "duel", DUEL)
    campaign.delete("duel")
    assert not campaign.exists("duel")
    with pytest.raises(LogError, match="no such encounter; it holds none"):
        campaign.delete("duel")


def test_reading_beside_the_writer_gives_a_snapshot_as_it_was(campaign: Campaign) -> None:
    held = lines(DUEL)
    for seq, line in enumerate(held[:4]):
        campaign.append("duel", seq, line)
    with campaign.read("duel") as stream:
        assert stream.readline() == held[0] + b"\n"
        for seq, line in enumerate(held[4:], start=4):
            assert campaign.append("duel", seq, line)
        assert stream.read() == b"".join(line + b"\n" for line in held[1:4]), "a snapshot as it was"
    assert read(campaign, "duel") == DUEL


def test_a_temporary_encounter_left_by_a_killed_writer_can_be_read(campaign: Campaign) -> None:
    name = ".duel.1.tmp"
    for seq, line in enumerate(lines(DUEL)[:5]):
        campaign.append(name, seq, line)
    assert campaign.stored() == [Stored(name, 4, False)]
    assert read(campaign, name) == b"".join(DUEL.splitlines(keepends=True)[:5])


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("c.sqlite", True),
        ("c.sqlite3", True),
        ("c.db", True),
        ("C.DB", True),
        ("c.jsonl", False),
        ("c", False),
    ],
)
def test_a_campaign_is_known_by_its_suffix(name: str, expected: bool) -> None:
    assert is_campaign_path(Path(name)) is expected


def test_a_transaction_an_interrupt_left_open_does_not_stop_the_next(tmp_path: Path) -> None:
    # Ctrl-C may land between a transaction's BEGIN and the code that would roll it back
    with Campaign.open(tmp_path / "c.sqlite", create=True) as campaign:
        output = campaign.writer("duel")
        for line in DUEL.splitlines(keepends=True)[:5]:
            output.write(line)
        campaign._connection.execute("BEGIN IMMEDIATE")
        assert output.keep_partial() == f"{tmp_path / 'c.sqlite'}#duel.partial"
    with Campaign.open(tmp_path / "c.sqlite") as campaign:
        assert [s.name for s in campaign.stored()] == ["duel.partial"]


def test_reading_leaves_a_campaign_s_file_as_it_was(tmp_path: Path) -> None:
    with Campaign.open(tmp_path / "c.sqlite", create=True) as campaign:
        write(campaign, "duel", DUEL)
    before = (tmp_path / "c.sqlite").read_bytes()
    with Campaign.open(tmp_path / "c.sqlite", read_only=True) as campaign:
        assert read(campaign, "duel") == DUEL
        with pytest.raises(LogError, match="read-only"):
            campaign.append("more", 0, lines(DUEL)[0])
    assert (tmp_path / "c.sqlite").read_bytes() == before
