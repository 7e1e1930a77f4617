"""``affray replay LOG``: one line per event, game time in seconds, the numbers behind each outcome."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from affray.events.energion.kinds import AttackResolved
from affray.events.reader import LogFile
from affray.kernel.clock import seconds
from tests.cli.conftest import Affray
from tests.strategies import rechain

EVENT_LINE = re.compile(r"^\s*(\d+\.\d{3}) s  #(\d+)\s+\S")
CUT_AFTER = 14


def _num(value: Decimal) -> str:
    """A decimal as replay prints it: no exponent, no trailing zeros."""
    text = f"{value.normalize():f}"
    return text if text != "-0" else "0"


def _event_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if EVENT_LINE.match(line)]


def _time_and_seq(line: str) -> tuple[str, int]:
    match = EVENT_LINE.match(line)
    assert match is not None, line
    return match[1], int(match[2])


def test_replay_prints_a_heading_then_one_line_per_event(
    affray: Affray, duel_log: Path, duel_read: LogFile
) -> None:
    result = affray("replay", duel_log)
    assert result.code == 0, result
    heading, *rest = result.out.splitlines()
    assert heading.startswith(f"{duel_log}: ruleset energion")
    assert heading == f"{duel_log}: ruleset energion v7, seed {duel_read.header.seed}"
    assert rest == _event_lines(result.out)
    seqs = [_time_and_seq(line)[1] for line in rest]
    assert seqs == [e.seq for e in duel_read.events]


def test_replay_shows_game_time_in_seconds(affray: Affray, duel_log: Path, duel_read: LogFile) -> None:
    lines = _event_lines(affray("replay", duel_log).out)
    shown = [_time_and_seq(line)[0] for line in lines]
    assert shown == [seconds(e.t) for e in duel_read.events]


def test_replay_shows_roll_chance_armor_quality_and_damage_of_each_hit(
    affray: Affray, duel_log: Path, duel_read: LogFile
) -> None:
    lines = _event_lines(affray("replay", duel_log).out)
    hits = [(e, lines[e.seq - 1]) for e in duel_read.events if isinstance(e, AttackResolved) and e.damage]
    assert hits, "the duel has hits"
    for event, line in hits:
        h, d = event.hit, event.damage
        assert d is not None
        assert f"{_num(h.hit_chance)}%" in line
        assert f"armor {h.armor_value + h.shield_bonus}" in line
        assert f"roll {h.roll.total}" in line
        assert f"quality {_num(h.quality)}" in line
        assert f"x{_num(d.multiplier)} of {_num(d.potential)}" in line
        assert f"= {_num(d.damage)} damage" in line


def test_replay_shows_roll_and_quality_of_each_miss(
    affray: Affray, duel_log: Path, duel_read: LogFile
) -> None:
    lines = _event_lines(affray("replay", duel_log).out)
    misses = [
        (e, lines[e.seq - 1]) for e in duel_read.events if isinstance(e, AttackResolved) and not e.damage
    ]
    assert misses, "the duel has misses"
    for event, line in misses:
        roll = event.hit.roll
        assert f"roll {roll.total} @{roll.stream}#{roll.draw} = quality {_num(event.hit.quality)}" in line
        assert line.endswith(("-> miss", "-> no damage"))


@pytest.mark.parametrize(
    ("cut", "partial"),
    [
        pytest.param("mid_line", b'{"kind":"attack_res', id="mid-line"),
        pytest.param("line_boundary", b"", id="at-a-line-boundary"),
    ],
)
def test_replay_of_a_log_cut_short_tells_every_complete_event_and_warns(
    affray: Affray, tmp_path: Path, duel_bytes: bytes, cut: str, partial: bytes
) -> None:
    lines = duel_bytes.split(b"\n")
    log = tmp_path / f"cut_{cut}.jsonl"
    log.write_bytes(b"\n".join(lines[: CUT_AFTER + 1]) + b"\n" + partial)
    result = affray("replay", log)
    assert result.code == 0, result
    assert len(_event_lines(result.out)) == CUT_AFTER
    assert len(result.err_lines) == 1
    assert result.err_lines[0].startswith(f"warning: {log}: ")
    assert f"after seq {CUT_AFTER}" in result.err
    assert "Traceback" not in result.err


def test_replay_into_a_closed_pipe_exits_0_quietly(duel_log: Path) -> None:
    read_end, write_end = os.pipe()
    process = subprocess.Popen(
        [sys.executable, "-m", "affray", "replay", str(duel_log)], stdout=write_end, stderr=subprocess.PIPE
    )
    os.close(read_end)
    os.close(write_end)
    _, err = process.communicate(timeout=60)
    assert err == b""
    assert process.returncode == 0


def test_replay_tells_a_log_whose_scenario_todays_rules_would_refuse(affray: Affray, duel_log: Path) -> None:
    # telling needs the ruleset and the modules only: a recorded scenario a later affray refuses (here, a
    # field it does not know) is still told, and verify names the header
    lines = duel_log.read_bytes().split(b"\n")
    lines[0] = lines[0].replace(b'"scenario":{', b'"scenario":{"tactics":"old",', 1)
    duel_log.write_bytes(rechain(lines[:-2]))
    told = affray("replay", duel_log)
    assert told.code == 0, told
    assert len(told.out.splitlines()) == 32
    checked = affray("verify", duel_log)
    assert checked.code == 1
    assert "line 1 (header) scenario: $: object contains unknown field `tactics`" in checked.out
