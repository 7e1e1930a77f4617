"""`affray heal LOG --days N -o OUT [--force]`: the aftermath of a whole, re-simulating log (S7, S8)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from affray.events.special_damage.kinds import AftermathEnded, AftermathStarted
from tests.cli.conftest import EXAMPLES, Affray, assert_user_error
from tests.strategies import read_path

ROBOTS = EXAMPLES / "robots.toml"


@pytest.fixture
def robots_log(affray: Affray, tmp_path: Path) -> Path:
    out = tmp_path / "robots.jsonl"
    assert affray("run", ROBOTS, "-o", out).code == 0
    return out


def test_heal_writes_a_healed_log_and_a_summary_line(
    affray: Affray, robots_log: Path, tmp_path: Path
) -> None:
    # S7, S8 (rulings 21, 24): kessa, dorn and vix live, their damage points restored; kessa's broken leg,
    # dorn's broken arm and vix's head wound heal; sentry-1's arm damage waits for a Robotics skill its side
    # lacks: 3 of 4, as the replay tells
    out = tmp_path / "healed.jsonl"
    result = affray("heal", robots_log, "--days", "30", "-o", out)
    assert result.code == 0, result
    events = read_path(out).events
    assert result.out.strip() == (
        f"{robots_log}: 30 days later, damage points of 3 survivors restored, 3 of 4 injuries healed or "
        f"repaired (1 not: no one of its side has Robotics skill); {len(events)} events -> {out}"
    )
    told = affray("replay", out).out
    assert told.count(" heals as ") + told.count(" does not heal: ") == 4
    assert [type(e) for e in events if isinstance(e, AftermathStarted | AftermathEnded)] == [
        AftermathStarted,
        AftermathEnded,
    ]


def test_the_healed_log_verifies(affray: Affray, robots_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "healed.jsonl"
    assert affray("heal", robots_log, "--days", "30", "-o", out).code == 0
    result = affray("verify", out)
    assert result.code == 0, result


def test_the_healed_log_keeps_the_fight_unchanged(affray: Affray, robots_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "healed.jsonl"
    assert affray("heal", robots_log, "--days", "30", "-o", out).code == 0
    fight = read_path(robots_log).events
    assert read_path(out).events[: len(fight)] == fight


def test_heal_refuses_a_cut_log(affray: Affray, robots_log: Path, tmp_path: Path) -> None:
    data = robots_log.read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(data[: data.rindex(b"\n", 0, len(data) - 1) + 1])
    result = affray("heal", cut, "--days", "3", "-o", tmp_path / "out.jsonl")
    assert_user_error(result, str(cut), "cut short")
    assert result.err_lines[0].endswith("heal needs a whole log (affray verify tells more)")
    assert not (tmp_path / "out.jsonl").exists()


def test_heal_refuses_an_already_healed_log(affray: Affray, robots_log: Path, tmp_path: Path) -> None:
    once = tmp_path / "once.jsonl"
    assert affray("heal", robots_log, "--days", "3", "-o", once).code == 0
    result = affray("heal", once, "--days", "3", "-o", tmp_path / "twice.jsonl")
    assert_user_error(result, "already holds an aftermath")


def test_heal_refuses_a_log_without_the_module(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    result = affray("heal", duel_log, "--days", "3", "-o", tmp_path / "out.jsonl")
    assert_user_error(result, "special_damage")


def test_heal_refuses_to_replace_an_existing_output(affray: Affray, robots_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("keep me\n")
    result = affray("heal", robots_log, "--days", "3", "-o", out)
    assert result.code == 2
    assert re.match(r"error: .*out\.jsonl", result.err_lines[0]), result.err
    assert out.read_text() == "keep me\n"


def test_heal_refuses_to_write_over_the_log_it_heals(affray: Affray, robots_log: Path) -> None:
    kept = robots_log.read_bytes()
    result = affray("heal", robots_log, "--days", "3", "-o", robots_log, "--force")
    assert_user_error(result, f"-o {robots_log}: that is the log to heal")
    assert robots_log.read_bytes() == kept


def test_heal_replaces_an_existing_output_with_force(
    affray: Affray, robots_log: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("old\n")
    assert affray("heal", robots_log, "--days", "3", "-o", out, "--force").code == 0
    assert affray("verify", out).code == 0


def test_heal_needs_at_least_one_day(affray: Affray, robots_log: Path, tmp_path: Path) -> None:
    assert affray("heal", robots_log, "--days", "0", "-o", tmp_path / "out.jsonl").code == 2


def test_state_reaches_any_time_of_the_aftermath(affray: Affray, robots_log: Path, tmp_path: Path) -> None:
    # the long clock: 30 days after a 47 s fight end at 2,592,047 s; --at takes days
    out = tmp_path / "healed.jsonl"
    assert affray("heal", robots_log, "--days", "30", "-o", out).code == 0
    result = affray("state", out, "--at", "25d")
    assert result.code == 0, result
    assert result.out.startswith("at 25 d 0 h 00 min 00 s (the last event before it: seq 100 at 19 d 0 h")
    vix = next(line for line in result.out.splitlines() if line.split()[:1] == ["vix"])
    assert "26/26" in vix  # ruling 21: the living survivor's damage points healed


def test_state_refuses_a_time_past_the_logs_end(affray: Affray, robots_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "healed.jsonl"
    assert affray("heal", robots_log, "--days", "30", "-o", out).code == 0
    assert_user_error(affray("state", out, "--at", "31d"), "--at '31d': the log ends at 30 d 0 h 00 min 47 s")


def test_replay_tells_the_long_clock_in_days(affray: Affray, robots_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "healed.jsonl"
    assert affray("heal", robots_log, "--days", "30", "-o", out).code == 0
    last = affray("replay", out).out.splitlines()[-1]
    assert last == "30 d 0 h 00 min 47 s  #101  30 days have passed"
