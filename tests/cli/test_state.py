"""``affray state LOG [--at SECONDS | --seq N] [--json]``: every combatant at a moment of the fight."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import msgspec
import pytest

from affray.errors import excerpt
from affray.events.base import Event
from affray.events.energion.state import EnergionState, vocabulary
from affray.events.reader import LogFile
from affray.kernel.clock import seconds
from affray.replays.rebuild import fold_until
from tests.cli.conftest import EXAMPLES, Affray, assert_user_error, run_process
from tests.strategies import CONDITION_TOML

ENERGION = vocabulary()

AT_SECONDS = "9"
AT_MS = 9000
AT_SEQ = 5


def _rows(out: str) -> dict[str, str]:
    """The combatant rows of the text table, by id (the first two lines are the heading)."""
    return {line.split()[0]: line for line in out.splitlines()[2:]}


def test_state_at_seconds_shows_every_combatant(affray: Affray, duel_log: Path, duel_read: LogFile) -> None:
    result = affray("state", duel_log, "--at", AT_SECONDS)
    assert result.code == 0, result
    expected = fold_until(duel_read.events, ENERGION, t_ms=AT_MS).state
    assert result.out.startswith(
        f"at {seconds(AT_MS)} s (the last event before it: seq {expected.seq} at {seconds(expected.t)} s)"
    )
    assert set(_rows(result.out)) == set(expected.combatants)


def test_state_at_seq_shows_every_combatant(affray: Affray, duel_log: Path, duel_read: LogFile) -> None:
    result = affray("state", duel_log, "--seq", str(AT_SEQ))
    assert result.code == 0, result
    expected = fold_until(duel_read.events, ENERGION, seq=AT_SEQ).state
    assert result.out.startswith(f"after seq {AT_SEQ}, at {seconds(expected.t)} s")
    assert set(_rows(result.out)) == set(expected.combatants)


def test_state_without_a_moment_shows_the_end(affray: Affray, duel_log: Path, duel_read: LogFile) -> None:
    result = affray("state", duel_log)
    assert result.code == 0, result
    last = len(duel_read.events)
    assert result.out.startswith(f"after seq {last}, at {seconds(duel_read.events[-1].t)} s; ended: ")


def test_state_seq_zero_is_before_any_event(affray: Affray, duel_log: Path) -> None:
    result = affray("state", duel_log, "--seq", "0")
    assert result.code == 0, result
    assert result.out.startswith("after seq 0, at 0.000 s")
    assert _rows(result.out) == {}


@pytest.mark.parametrize(
    "moment",
    [pytest.param(["--at", AT_SECONDS], id="at"), pytest.param(["--seq", str(AT_SEQ)], id="seq")],
)
def test_state_json_is_valid_json(affray: Affray, duel_log: Path, moment: list[str]) -> None:
    result = affray("state", duel_log, *moment, "--json")
    assert result.code == 0, result
    decoded = json.loads(result.out)
    assert set(decoded) >= {"seq", "t", "combatants"}


def _expected(events: list[Event], moment: list[str]) -> EnergionState:
    """The state a moment given on the command line names, folded directly from the events."""
    if moment[:1] == ["--at"]:
        return fold_until(events, ENERGION, t_ms=AT_MS).state
    if moment[:1] == ["--seq"]:
        return fold_until(events, ENERGION, seq=AT_SEQ).state
    return fold_until(events, ENERGION, seq=len(events)).state


@pytest.mark.parametrize(
    "moment",
    [
        pytest.param(["--at", AT_SECONDS], id="at"),
        pytest.param(["--seq", str(AT_SEQ)], id="seq"),
        pytest.param([], id="end"),
    ],
)
def test_state_json_decodes_to_the_folded_state(
    affray: Affray, duel_log: Path, duel_read: LogFile, moment: list[str]
) -> None:
    result = affray("state", duel_log, *moment, "--json")
    assert result.code == 0, result
    assert msgspec.json.decode(result.out, type=EnergionState) == _expected(duel_read.events, moment)


def test_state_json_and_text_agree_on_damage_left(affray: Affray, duel_log: Path) -> None:
    text = _rows(affray("state", duel_log).out)
    state = msgspec.json.decode(affray("state", duel_log, "--json").out, type=EnergionState)
    for cid, c in state.combatants.items():
        left = c.damage_points - c.damage_taken
        shown_left, shown_points = text[cid].split()[2].split("/")
        assert Decimal(shown_points) == c.damage_points
        assert abs(Decimal(shown_left) - left) <= Decimal("0.005")


def test_state_at_and_seq_together_is_an_error(affray: Affray, duel_log: Path) -> None:
    result = affray("state", duel_log, "--at", "1", "--seq", "2")
    assert_user_error(result, "--at", "--seq")
    assert result.out == ""


def test_state_seq_past_the_end_is_an_error(affray: Affray, duel_log: Path, duel_read: LogFile) -> None:
    past = len(duel_read.events) + 1
    result = affray("state", duel_log, "--seq", str(past))
    assert_user_error(result, f"--seq {past}", str(duel_log), f"0 to {len(duel_read.events)}")


def test_state_seq_at_the_last_event_is_allowed(affray: Affray, duel_log: Path, duel_read: LogFile) -> None:
    result = affray("state", duel_log, "--seq", str(len(duel_read.events)))
    assert result.code == 0, result


@pytest.mark.parametrize("value", ["abc", "", "-1", "nan", "inf", "-inf", "0x10", "1 fortnight", "1e3"])
def test_state_bad_at_value_is_an_error(affray: Affray, duel_log: Path, value: str) -> None:
    assert_user_error(affray("state", duel_log, "--at", value), "--at", repr(value))


@pytest.mark.parametrize("value", ["-1", "x"])
def test_state_bad_seq_value_is_an_error(affray: Affray, duel_log: Path, value: str) -> None:
    assert_user_error(affray("state", duel_log, "--seq", value), "--seq")


@pytest.mark.parametrize("value", ["9" * 5000, "x" * 5000, "9" * 60 + "d"])
def test_state_quotes_at_most_a_few_dozen_characters_of_an_at_value(
    affray: Affray, duel_log: Path, value: str
) -> None:
    result = affray("state", duel_log, "--at", value)
    assert_user_error(result, "--at", repr(excerpt(value)))
    assert value not in result.err


def test_state_quotes_at_most_a_few_dozen_digits_of_a_seq_past_the_end(
    affray: Affray, duel_log: Path
) -> None:
    result = affray("state", duel_log, "--seq", "9" * 60)
    assert_user_error(result, "--seq", excerpt("9" * 60))
    assert "9" * 60 not in result.err


def test_state_huge_at_value_is_an_error_not_a_traceback(duel_log: Path) -> None:
    result = run_process("state", duel_log, "--at", "1e999999")
    assert "Traceback" not in result.err
    assert_user_error(result, "--at")


def test_state_shows_injuries_lost_equipment_and_programs(affray: Affray, tmp_path: Path) -> None:
    # rules S3, S4, S6: special damage's effects are state, and `affray state` shows them
    log = tmp_path / "robots.jsonl"
    assert affray("run", EXAMPLES / "robots.toml", "-o", log).code == 0
    out = affray("state", log).out
    assert "injury: Leg broken (at most 0.333 m/s)" in out
    assert "lost: 1 code breaker" in out
    assert "programs lost: Information Storage, Analysis, Robot Management, Computer Security" in out


def test_state_shows_a_timed_condition_while_it_lasts(affray: Affray, tmp_path: Path) -> None:
    # rule S4: a head wound knocks b out for a minute (tests/strategies.py CONDITION_TOML)
    scenario = tmp_path / "condition.toml"
    scenario.write_text(CONDITION_TOML)
    log = tmp_path / "condition.jsonl"
    assert affray("run", scenario, "-o", log).code == 0
    assert "unconscious until 60.000 s" in affray("state", log).out


def test_state_says_what_each_combatant_has_left_to_use(affray: Affray, tmp_path: Path) -> None:
    # archers.toml: osric's light crossbow has 12 bolts, less those he shot by 30 s
    log = tmp_path / "archers.jsonl"
    assert affray("run", EXAMPLES / "archers.toml", "-o", log).code == 0
    events = msgspec.json.Decoder().decode_lines(log.read_bytes())[1:]
    shot = sum(1 for e in events if e.get("attacker") == "osric" and e["t"] <= 30_000)
    lines = affray("state", log, "--at", "30").out.splitlines()
    osric = next(i for i, line in enumerate(lines) if line.split()[:1] == ["osric"])
    assert shot > 0
    assert lines[osric + 1].split() == ["supplies:", "Crossbow,", "Light", f"{12 - shot}/12", "shots"]
