"""``affray odds LOG``: each side's chance before and after every roll, the luck of each roll, the pivotal
rolls and the split into luck and the rest, as a user meets them: the report, --json, -o, --plot, the
workers, and one error line for what cannot be done (issue 25, items 2 and 3)."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import DUEL, Affray, Result, assert_user_error, call_main
from tests.cli.test_signals import OLD, stopped_once, temporary_files
from tests.strategies import chain_hash

ROOT = Path(__file__).resolve().parents[2]
QUICK = ("--within", "10", "--samples", "200")
"""Few samples: what these tests check holds at any precision."""


def once(*args: str | Path) -> Result:
    """``affray *args`` in-process, for a fixture shared by the module."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = call_main(args)
    return Result(code, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def duel_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("odds") / "duel.jsonl"
    assert once("run", DUEL, "-o", log).code == 0
    return log


@pytest.fixture(scope="module")
def report(duel_log: Path) -> dict[str, Any]:
    result = once("odds", duel_log, *QUICK, "--json")
    assert result.code == 0, result
    return dict(json.loads(result.out))


def test_the_report_leads_with_one_sentence_naming_the_pivotal_roll(affray: Affray, duel_log: Path) -> None:
    result = affray("odds", duel_log, *QUICK)
    assert result.code == 0, result
    lines = result.out.splitlines()
    assert lines[0].startswith("Duel at the ford: odds at each of 21 rolls")
    assert " moved ford's chance from " in lines[1]
    assert "; luck accounts for " in lines[1]
    assert lines[1].endswith(", the rest for 0.")


def test_the_report_shows_every_roll_with_each_sides_chance_before_and_after(
    affray: Affray, duel_log: Path
) -> None:
    out = affray("odds", duel_log, *QUICK).out
    for roll in ("brenna/hit#1 = 64", "gorm/hit#1 = 46", "brenna/parry#1 = 2"):
        assert roll in out
    assert "luck and the rest, by side (percentage points):" in out
    assert "  ford: 98 % at the start, won: +2 = luck +2 + the rest 0" in out


def test_every_roll_is_a_point_in_the_order_made(report: dict[str, Any]) -> None:
    keys = [made["roll"]["key"] for made in report["rolls"]]
    assert keys[:3] == ["brenna/perception#1", "gorm/perception#1", "brenna/hit#1"]
    assert len(keys) == 21


def test_each_point_s_chances_add_up_to_one(report: dict[str, Any]) -> None:
    for point in [report["opening"], *(made["after"] for made in report["rolls"])]:
        total = sum(c["chance"] for c in point["sides"].values()) + point["no_winner"]["chance"]
        assert total == pytest.approx(1.0)


def test_a_roll_s_chance_before_is_the_chance_after_the_roll_before_it(report: dict[str, Any]) -> None:
    rolls = report["rolls"]
    assert rolls[0]["before"] == report["opening"]
    assert all(later["before"] == earlier["after"] for earlier, later in itertools.pairwise(rolls))


def test_the_end_of_a_decided_fight_is_certain(report: dict[str, Any]) -> None:
    last = report["rolls"][-1]["after"]
    assert (report["winner"], last["sides"]["ford"], last["sides"]["raiders"]["chance"]) == (
        "ford",
        {"chance": 1.0, "low": 1.0, "high": 1.0},
        0.0,
    )


def test_luck_and_the_rest_add_up_to_the_result_less_the_opening_chance(report: dict[str, Any]) -> None:
    for side in report["split"]:
        luck = sum(made["luck"][side["side"]]["chance"] for made in report["rolls"])
        assert side["luck"] == pytest.approx(luck)
        assert side["luck"] + side["rest"] == pytest.approx(side["final"] - side["opening"])


def test_the_opening_chance_is_what_battle_gives_with_the_same_seeds(
    affray: Affray, duel_log: Path, report: dict[str, Any]
) -> None:
    # point 0 fixes no roll: its sample i is the batch's run i, fought with the same seed
    samples = report["opening"]["samples"]
    battle = json.loads(affray("battle", DUEL, "--runs", str(samples), "--seed", "1130", "--json").out)
    wins = {side["side"]: side["wins"]["count"] for side in battle["sides"]}
    assert {side: round(c["chance"] * samples) for side, c in report["opening"]["sides"].items()} == wins


def test_two_workers_give_the_same_report_as_one(
    affray: Affray, duel_log: Path, report: dict[str, Any]
) -> None:
    result = affray("odds", duel_log, *QUICK, "--json", "--jobs", "2")
    assert result.code == 0, result
    assert json.loads(result.out) == report


def test_another_seed_gives_other_samples(affray: Affray, duel_log: Path, report: dict[str, Any]) -> None:
    other = json.loads(affray("odds", duel_log, *QUICK, "--json", "--seed", "7").out)
    assert other["seed"] == 7
    assert other["rolls"] != report["rolls"]


def test_output_writes_the_json_report_and_refuses_to_replace_a_file(
    affray: Affray, duel_log: Path, report: dict[str, Any], tmp_path: Path
) -> None:
    output = tmp_path / "odds.json"
    assert affray("odds", duel_log, *QUICK, "-o", output).code == 0
    assert json.loads(output.read_text()) == report
    assert_user_error(affray("odds", duel_log, *QUICK, "-o", output), str(output), "--force")
    assert affray("odds", duel_log, *QUICK, "-o", output, "--force").code == 0


def test_plot_draws_the_chances_as_a_png(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    picture = tmp_path / "odds.png"
    assert affray("odds", duel_log, *QUICK, "--plot", picture).code == 0
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_output_may_not_be_the_log_itself(affray: Affray, duel_log: Path) -> None:
    assert_user_error(
        affray("odds", duel_log, *QUICK, "-o", duel_log, "--force"), "the log whose odds they are"
    )


@pytest.mark.parametrize(
    ("flag", "value", "said"),
    [("--samples", "5", "--samples"), ("--samples", "2000000", "--samples"), ("--within", "0", "--within")],
)
def test_a_number_out_of_range_is_one_error_line(
    affray: Affray, duel_log: Path, flag: str, value: str, said: str
) -> None:
    assert_user_error(affray("odds", duel_log, flag, value), said)


def test_a_damaged_log_is_one_error_line(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    lines = duel_log.read_bytes().splitlines(keepends=True)
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"".join([*lines[:5], lines[5].replace(b'"t":', b'"t": ', 1), *lines[6:]]))
    assert_user_error(affray("odds", damaged, *QUICK), "odds are worked out for a whole log")


def test_a_log_cut_short_is_one_error_line(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(duel_log.read_bytes().splitlines(keepends=True)[:8]))
    assert_user_error(affray("odds", cut, *QUICK), "no end line")


AMBUSH = ROOT / "tests" / "golden" / "ambush.jsonl"
"""A fight whose outlaws are played by examples/bots/utility.py (``bots.utility:utility``)."""


def test_a_fight_played_by_code_from_outside_is_one_error_line_without_its_folder(affray: Affray) -> None:
    result = affray("odds", AMBUSH, *QUICK)
    assert_user_error(
        result, "code from outside affray", "give the folder it is imported from with --controllers"
    )
    assert "bots" not in sys.modules


@pytest.mark.thorough  # a long test: .ci/run runs it after the quick suite
def test_with_the_controllers_folder_a_fight_played_by_its_code_gets_its_odds(affray: Affray) -> None:
    result = affray("odds", AMBUSH, *QUICK, "--controllers", ROOT / "examples", "--json")
    assert result.code == 0, result
    report = json.loads(result.out)
    assert report["winner"] == "outlaws"
    assert len(report["rolls"]) == 17
    assert sys.modules["bots.utility"].__file__ == str(ROOT / "examples" / "bots" / "utility.py")


def test_controllers_that_do_not_play_the_fight_as_recorded_are_one_error_line(
    affray: Affray, tmp_path: Path
) -> None:
    # a bot of the same name that always waits: the fight it plays is not the one the log records
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "__init__.py").write_text("")
    (tmp_path / "bots" / "utility.py").write_text(
        "from affray.npc.energion.intents import Wait\n\n\n"
        "class Waiting:\n"
        "    def decide(self, view, legal):\n"
        "        return Wait(seconds=1, reason='waits')\n\n\n"
        "def utility(seat):\n"
        "    return Waiting()\n"
    )
    result = affray("odds", AMBUSH, *QUICK, "--controllers", tmp_path)
    assert_user_error(result, "does not replay as recorded")


def test_controllers_on_a_dask_cluster_are_one_error_line(affray: Affray) -> None:
    result = affray(
        "odds", AMBUSH, *QUICK, "--controllers", ROOT / "examples", "--scheduler", "tcp://127.0.0.1:1"
    )
    assert_user_error(result, "--controllers", "not on a Dask cluster")


def test_odds_on_a_dask_cluster_are_what_local_workers_give(
    affray: Affray, duel_log: Path, report: dict[str, Any], scheduler: str
) -> None:
    # each point's scenario travels to the workers with its tasks (BatchSpec.mapping)
    result = affray("odds", duel_log, *QUICK, "--json", "--scheduler", scheduler)
    assert result.code == 0, result
    assert json.loads(result.out) == report


def test_the_report_names_its_log_by_the_hash_of_the_logs_end_line(
    duel_log: Path, report: dict[str, Any]
) -> None:
    # BLAKE2b-128 of the end line, the same hash a what-if names its parent by (docs/log-format.md)
    assert report["log_end"] == chain_hash(duel_log.read_bytes().splitlines()[-1])


@pytest.mark.parametrize(
    ("stop", "group"), [(signal.SIGINT, True), (signal.SIGTERM, False)], ids=["ctrl-c-to-the-job", "kill"]
)
def test_a_stop_ends_the_samples_at_once_and_keeps_the_old_report(
    duel_log: Path, tmp_path: Path, stop: signal.Signals, group: bool
) -> None:
    output = tmp_path / "odds.json"
    output.write_bytes(OLD)
    args = [
        "odds",
        duel_log,
        "--within",
        "0.3",
        "--samples",
        "100000",
        "--jobs",
        "2",
        "-o",
        output,
        "--force",
    ]
    started = time.monotonic()
    result = stopped_once(args, lambda: time.monotonic() - started > 2, stop, tmp_path, group=group)
    assert time.monotonic() - started < 60, "the samples were fought on after the stop"
    assert result.code == 128 + stop, result
    *progress, last = result.err_lines
    assert all(re.fullmatch(r"\d+/\d+ samples, \d+/s, about \d+ s left", line) for line in progress), (
        result.err
    )
    assert last == ("interrupted" if stop == signal.SIGINT else f"interrupted by {stop.name}")
    assert output.read_bytes() == OLD
    assert temporary_files(tmp_path) == []
