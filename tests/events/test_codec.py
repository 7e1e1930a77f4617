"""The log codec (docs/log-format.md): round trips, the writer, determinism, the chain, cuts, headers."""

from __future__ import annotations

import hashlib
import itertools
import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from hypothesis import given

from affray.errors import LogError
from affray.events.base import Event
from affray.events.codec import MAX_LINE_BYTES, LogHeader, LogWriter, encode_header, encode_log
from affray.events.energion.kinds import CombatantJoined
from affray.events.shared import ActionRefused
from affray.events.special_damage.kinds import ConditionEnded
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import EnergionScenario
from tests.strategies import (
    BLOCK,
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
    refusal_scenario,
    ruled_duel,
    scenarios,
    seeds,
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
    # robots yields the special_damage kinds (S1-S6, S10), its 30-day aftermath the healing ones (S7, S8)
    # and condition_ended (vix, knocked out by a head wound, comes round, S4), as the condition scenario's
    # unconscious man does;
    # no example yields ruling_applied: the ruled duel does
    # bar-brawl and firefight yield the fivestep kinds (F3-F12); ambush intent_chosen
    names = ("duel", "skirmish", "archers", "mage-duel", "brawl", "robots", "ambush")
    kinds = {type(e) for name in names for e in run(name)[1]}
    kinds |= {type(e) for name in ("bar-brawl", "firefight") for e in read(example_log(name)).events}
    kinds |= {type(e) for e in healed_events(example("robots"), 30)}
    woken = {type(e) for e in healed_events(condition_scenario(), 1)}
    refused = EnergionBattle(refusal_scenario()).run().log
    ruled = {type(e) for e in EnergionBattle(ruled_duel()).run().log}
    assert kinds | woken | ruled | {ActionRefused} == all_kinds()
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


def test_log_writer_refuses_a_header_over_the_line_limit_before_writing_anything(tmp_path: Path) -> None:
    huge = msgspec.structs.replace(HEADER, scenario=msgspec.Raw(b'"%s"' % (b"x" * MAX_LINE_BYTES)))
    size = len(encode_header(huge))  # the scenario's 4 MiB and 2 quotes, and the rest of the header
    with pytest.raises(LogError, match=f"the header line, which holds the scenario, would be {size:,} bytes"):
        LogWriter.create(tmp_path / "huge.jsonl", huge)
    assert list(tmp_path.iterdir()) == []


def test_log_writer_refuses_an_event_line_over_the_line_limit(tmp_path: Path) -> None:
    writer = LogWriter.create(tmp_path / "duel.jsonl", HEADER)
    joined = DUEL_EVENTS[0]
    assert isinstance(joined, CombatantJoined)
    with pytest.raises(LogError, match="the line of seq 1 would be"):
        writer.write(msgspec.structs.replace(joined, name="n" * MAX_LINE_BYTES))
    assert writer.abandon() is None  # it holds no event: nothing is kept
    assert list(tmp_path.iterdir()) == []


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

FORMAT_1 = msgspec.structs.replace(HEADER, format_version=1)
"""The duel's header as affray wrote it before format 2: every event line chained to the line before."""
DUEL_1 = encode_log(FORMAT_1, DUEL_EVENTS)
CORPUS = Path(__file__).resolve().parents[1] / "corpus"
LONG_EVENTS = [msgspec.structs.replace(DUEL_EVENTS[i % N], seq=i + 1, t=i) for i in range(2 * BLOCK + 52)]
"""2,100 events (the duel's, numbered on): three blocks, the last of 52 lines."""


def test_each_event_line_ends_with_the_blake2b_128_of_the_line_before() -> None:
    # format 1: every line chained to the line before, without its newline
    lines = log_lines(DUEL_1)
    for before, line in itertools.pairwise(lines[:-1]):
        assert line.endswith(b',"prev":"%s"}' % chain_hash(before).encode())


def test_the_end_line_counts_the_events_and_chains_to_the_last() -> None:
    # format 1: the end line holds the hash of the last event line
    lines = log_lines(DUEL_1)
    assert lines[-1] == b'{"end":%d,"prev":"%s"}' % (N, chain_hash(lines[-2]).encode())


def test_an_empty_log_is_a_header_and_an_end_line_chained_to_it() -> None:
    # format 1: the end line holds the hash of the header line, without its newline
    header = log_lines(DUEL_1)[0]
    assert encode_log(FORMAT_1, []) == join_lines(
        [header, b'{"end":0,"prev":"%s"}' % chain_hash(header).encode()]
    )


def test_the_first_line_of_each_block_ends_with_the_blake2b_128_of_the_block_before() -> None:
    header, *events, _ = log_lines(encode_log(HEADER, LONG_EVENTS))
    blocks = [events[i : i + BLOCK] for i in range(0, len(events), BLOCK)]
    assert [len(block) for block in blocks] == [BLOCK, BLOCK, 52]
    assert blocks[0][0].endswith(b',"prev":"%s"}' % chain_hash(header + b"\n").encode())
    for before, block in itertools.pairwise(blocks):
        assert block[0].endswith(b',"prev":"%s"}' % chain_hash(join_lines(before)).encode())


def test_no_other_event_line_holds_a_prev() -> None:
    lines = log_lines(encode_log(HEADER, LONG_EVENTS))[1:-1]
    assert [seq for seq, line in enumerate(lines, 1) if b'"prev":' in line] == [1, BLOCK + 1, 2 * BLOCK + 1]


def test_the_end_line_counts_the_events_and_chains_to_the_last_block() -> None:
    lines = log_lines(DUEL)  # one block, the lines of seqs 1 to N
    assert lines[-1] == b'{"end":%d,"prev":"%s"}' % (N, chain_hash(join_lines(lines[1:-1])).encode())


def test_the_end_line_of_a_log_of_whole_blocks_chains_to_its_last_whole_block() -> None:
    lines = log_lines(encode_log(HEADER, LONG_EVENTS[: 2 * BLOCK]))
    last = join_lines(lines[1 + BLOCK : -1])
    assert lines[-1] == b'{"end":%d,"prev":"%s"}' % (2 * BLOCK, chain_hash(last).encode())


def test_an_empty_log_is_a_header_and_an_end_line_chained_to_the_header_block() -> None:
    header = log_lines(DUEL)[0]
    assert encode_log(HEADER, []) == join_lines(
        [header, b'{"end":0,"prev":"%s"}' % chain_hash(header + b"\n").encode()]
    )


def test_log_writer_writes_format_1_for_a_format_1_header(tmp_path: Path) -> None:
    path = tmp_path / "duel.jsonl"
    writer = LogWriter.create(path, FORMAT_1)
    for event in DUEL_EVENTS:
        writer.write(event)
    writer.close()
    assert path.read_bytes() == (CORPUS / "format-1-last" / "duel.jsonl").read_bytes()
