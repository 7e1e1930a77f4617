"""``affray run SCENARIO -o LOG [--force]``: simulate, write the log, tell who won."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from affray.events.energion.state import vocabulary
from affray.kernel.clock import seconds
from affray.kernel.fold import fold
from affray.replays.telling import number
from tests.cli.conftest import DUEL, EXAMPLES, Affray, assert_user_error
from tests.strategies import read_path

ENERGION = vocabulary()

MINUTE_MS = 60_000


def test_run_writes_a_complete_log(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "duel.jsonl"
    result = affray("run", DUEL, "-o", out)
    assert result.code == 0, result
    log = read_path(out)
    assert log.problem is None
    assert log.ended
    assert log.header.ruleset == "energion"
    assert len(log.events) > 0


def test_run_prints_the_winner_and_when(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "duel.jsonl"
    result = affray("run", DUEL, "-o", out)
    events = read_path(out).events
    final = fold(events, ENERGION)
    assert final.winner is not None
    first = result.out.splitlines()[0]
    assert f"side {final.winner} wins at {seconds(final.t)} s" in first
    assert f"{len(events)} events -> {out}" in first


def test_run_prints_the_damage_each_combatant_dealt(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "duel.jsonl"
    result = affray("run", DUEL, "-o", out)
    events = read_path(out).events
    final = fold(events, ENERGION)
    rows = {line.split()[0]: re.sub(r"\s+", " ", line) for line in result.out.splitlines()[1:]}
    assert set(rows) == set(final.combatants)
    for cid, c in final.combatants.items():
        assert f"dealt {number(c.damage_dealt)} in {c.hits}/{c.attacks} hits" in rows[cid]
        assert f"took {number(c.damage_taken)} of {number(c.damage_points)} DP" in rows[cid]


def test_run_refuses_to_overwrite_an_existing_file(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "precious.jsonl"
    out.write_bytes(b"not to be lost\n")
    result = affray("run", DUEL, "-o", out)
    assert_user_error(result, str(out), "--force")
    assert result.out == ""
    assert out.read_bytes() == b"not to be lost\n"


def test_run_refuses_to_write_over_its_scenario_even_with_force(affray: Affray, tmp_path: Path) -> None:
    scenario = tmp_path / "duel.toml"
    scenario.write_bytes(DUEL.read_bytes())
    aliased = tmp_path / "." / "duel.toml"
    assert_user_error(
        affray("run", scenario, "-o", aliased, "--force"), f"-o {aliased}: that is the scenario"
    )
    assert scenario.read_bytes() == DUEL.read_bytes()


def test_run_refuses_to_write_over_a_table_its_scenario_names(affray: Affray, tmp_path: Path) -> None:
    shutil.copytree(EXAMPLES / "tables", tmp_path / "tables")
    shutil.copy(EXAMPLES / "bar-brawl.toml", tmp_path)
    table = tmp_path / "tables" / "fivestep" / "3-6.toml"
    kept = table.read_bytes()
    result = affray("run", tmp_path / "bar-brawl.toml", "-o", table, "--force")
    assert_user_error(result, "that is tables/fivestep/3-6.toml, a file the scenario names")
    assert table.read_bytes() == kept


def test_run_with_force_replaces_an_existing_file(affray: Affray, tmp_path: Path, duel_bytes: bytes) -> None:
    out = tmp_path / "old.jsonl"
    out.write_bytes(b"an old log that is much longer than nothing\n" * 1000)
    result = affray("run", DUEL, "-o", out, "--force")
    assert result.code == 0, result
    assert out.read_bytes() == duel_bytes


def test_two_runs_write_byte_identical_logs(affray: Affray, tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert affray("run", DUEL, "-o", first).code == 0
    assert affray("run", DUEL, "-o", second).code == 0
    assert first.read_bytes() == second.read_bytes()


def test_duel_ends_with_a_winner_in_under_a_minute_of_game_time(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "duel.jsonl"
    assert affray("run", DUEL, "-o", out).code == 0
    events = read_path(out).events
    final = fold(events, ENERGION)
    assert final.ended
    assert final.winner is not None
    assert final.t < MINUTE_MS


def test_run_prints_no_winner_when_the_time_limit_is_reached(affray: Affray, tmp_path: Path) -> None:
    scenario = tmp_path / "short.toml"
    scenario.write_text(DUEL.read_text().replace("max_seconds = 120", "max_seconds = 5", 1))
    result = affray("run", scenario, "-o", tmp_path / "short.jsonl")
    assert result.code == 0, result
    assert "no winner at 5.000 s (time limit of 5 s reached)" in result.out


def test_normal_run_prints_nothing_on_stderr(affray: Affray, tmp_path: Path) -> None:
    result = affray("run", DUEL, "-o", tmp_path / "duel.jsonl")
    assert result.code == 0
    assert result.err == ""


def test_a_run_whose_special_damage_ruling_is_used_warns_of_nothing(affray: Affray, tmp_path: Path) -> None:
    # S10: the robots' ruling alters sentry-1's first special damage
    result = affray("run", EXAMPLES / "robots.toml", "-o", tmp_path / "robots.jsonl")
    assert result.code == 0
    assert '"kind":"referee_ruling"' in (tmp_path / "robots.jsonl").read_text()
    assert result.err == ""


def test_a_special_damage_ruling_never_used_is_one_warning_line(affray: Affray, tmp_path: Path) -> None:
    # S10: in the duel with the module gorm takes no special damage; the run goes on and its log is whole
    scenario = tmp_path / "ruled.toml"
    scenario.write_text(
        DUEL.read_text().replace("seed = 1130\n", 'seed = 1130\nmodules = ["special_damage"]\n', 1)
        + '\n[[rulings]]\ntarget = "gorm"\nreplace_with = "Leg wound"\nreason = "a glancing blow"\n'
    )
    out = tmp_path / "ruled.jsonl"
    result = affray("run", scenario, "-o", out)
    assert result.code == 0
    assert result.err_lines == [
        f"warning: {scenario}: 1 of the rulings on special damage (S10) was never used: "
        "$.rulings[0] (gorm never took special damage)"
    ]
    assert read_path(out).ended


def test_a_forced_run_that_fails_keeps_the_old_log(affray: Affray, tmp_path: Path, duel_bytes: bytes) -> None:
    # --force replaces the old log only when the new one is whole: here the manual dice run out
    out = tmp_path / "duel.jsonl"
    out.write_bytes(duel_bytes)
    scenario = tmp_path / "short.toml"
    scenario.write_text(DUEL.read_text().replace("seed = 1130", 'seed = 1130\ndice = { source = "manual" }'))
    result = affray("run", scenario, "-o", out, "--force")
    assert_user_error(result, "brenna/perception#1", "was not entered")
    assert out.read_bytes() == duel_bytes


def test_a_run_that_fails_before_any_event_keeps_no_partial_log(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "duel.jsonl"
    scenario = tmp_path / "short.toml"
    scenario.write_text(DUEL.read_text().replace("seed = 1130", 'seed = 1130\ndice = { source = "manual" }'))
    result = affray("run", scenario, "-o", out)
    assert "kept" not in result.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["short.toml"]


def test_a_full_disk_is_one_error_line(affray: Affray) -> None:
    assert_user_error(
        affray("run", DUEL, "-o", "/dev/full", "--force"), "/dev/full: cannot write: No space left"
    )


def test_ctrl_c_stops_a_run_with_one_line_and_keeps_what_was_written(
    tmp_path: Path, duel_bytes: bytes
) -> None:
    # forty fighters who never hurt each other, for a day of game time: a run of several seconds
    fighters = "".join(
        f'\n[[combatants]]\nid = "f{n}"\nname = "F{n}"\nside = "s{n % 2}"\ndamage_points = 10\nskill = 0\n'
        f'position = [{n}, 0]\nweapons = [{{ name = "Sword, Long" }}]\n'
        for n in range(40)
    )
    scenario = tmp_path / "long.toml"
    scenario.write_text(f'ruleset = "energion"\nseed = 3\nmax_seconds = 86400\n{fighters}')
    out = tmp_path / "long.jsonl"
    out.write_bytes(duel_bytes)
    process = subprocess.Popen(
        [sys.executable, "-m", "affray", "run", str(scenario), "-o", str(out), "--force"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            writing = next(tmp_path.glob(".long.jsonl.*.tmp"), None)  # its name is random
            if writing is not None and writing.stat().st_size > 10_000:
                break
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130
    assert err.splitlines() == [f"interrupted; the log so far is kept in {out}.partial"]
    assert out.read_bytes() == duel_bytes
    assert read_path(Path(f"{out}.partial")).events
