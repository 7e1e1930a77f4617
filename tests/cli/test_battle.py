"""``affray battle SCENARIO --runs N``: a scenario fought many times, with its report and results."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.cli.conftest import Affray, assert_user_error
from tests.strategies import read_path

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples" / "duel.toml"


def test_the_report_tells_each_sides_wins_with_its_interval(affray: Affray) -> None:
    result = affray("battle", DUEL, "--runs", "40")
    assert result.code == 0, result
    lines = result.out.splitlines()
    assert lines[0] == "Duel at the ford: 40 runs from seed 1130"
    assert any(line.split()[:2] == ["side", "ford"] and "%" in line for line in lines)


def test_each_run_is_the_fight_affray_run_makes_with_its_seed(affray: Affray, tmp_path: Path) -> None:
    results = tmp_path / "r.csv"
    assert affray("battle", DUEL, "--runs", "5", "-o", results).code == 0
    with results.open() as file:
        rows = list(csv.DictReader(file))
    for row in rows:
        log = tmp_path / f"run{row['run']}.jsonl"
        assert affray("run", DUEL, "--seed", row["seed"], "-o", log).code == 0
        events = read_path(log).events
        assert (len(events), events[-1].t / 1000, getattr(events[-1], "winner", None)) == (
            int(row["events"]),
            float(row["end_s"]),
            row["winner"] or None,
        )


def test_two_jobs_report_what_one_does(affray: Affray) -> None:
    one = json.loads(affray("battle", DUEL, "--runs", "130", "--json").out)
    two = json.loads(affray("battle", DUEL, "--runs", "130", "--json", "--jobs", "2").out)
    assert one == two
    assert one["runs"] == 130


def test_progress_in_a_pipe_is_plain_lines(affray: Affray) -> None:
    err = affray("battle", DUEL, "--runs", "100").err
    assert "\x1b" not in err
    assert err.splitlines()[-1].startswith("100/100 runs")


def test_a_sweep_reports_each_point_and_the_nearest_to_even(affray: Affray, tmp_path: Path) -> None:
    result = affray(
        "battle", DUEL, "--runs", "30", "--vary", "combatants.gorm.skill=70,110", "--plots", tmp_path
    )
    assert result.code == 0, result
    assert "  combatants.gorm.skill=110" in result.out.splitlines()
    assert result.out.splitlines()[-1].startswith("nearest to an even fight: combatants.gorm.skill=")
    assert (tmp_path / "sweep.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (("--vary", "combatants.nobody.skill=1,2"), "no entry 'nobody'"),
        (("--vary", "combatants.gorm.skill=999"), "skill"),
        (("--vary", "skill"), "expected PATH=LIST"),
        (("-o", "r.xlsx"), "results end in .csv or .parquet"),
        (("--runs", "0"), "--runs"),
    ],
)
def test_a_bad_batch_is_one_error_line_and_writes_nothing(
    affray: Affray, tmp_path: Path, arguments: tuple[str, ...], said: str
) -> None:
    runs = () if "--runs" in arguments else ("--runs", "3")
    moved = [str(tmp_path / a) if a.startswith("r.") else a for a in arguments]
    assert_user_error(affray("battle", DUEL, *runs, *moved), said)
    assert list(tmp_path.iterdir()) == []


def test_existing_results_are_kept_without_force(affray: Affray, tmp_path: Path) -> None:
    results = tmp_path / "r.csv"
    results.write_text("mine")
    assert_user_error(affray("battle", DUEL, "--runs", "2", "-o", results), "the file exists")
    assert results.read_text() == "mine"


def test_run_with_a_seed_names_it_in_the_log(affray: Affray, tmp_path: Path) -> None:
    log = tmp_path / "d.jsonl"
    assert affray("run", DUEL, "--seed", "42", "-o", log).code == 0
    assert read_path(log).header.seed == 42
    assert affray("verify", log).code == 0


def test_plots_of_a_batch_are_its_wins_times_and_damage(affray: Affray, tmp_path: Path) -> None:
    result = affray("battle", DUEL, "--runs", "30", "--plots", tmp_path)
    assert result.code == 0, result
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damage.png", "time.png", "wins.png"]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in tmp_path.iterdir())


def test_an_existing_plot_is_refused_before_any_fight(affray: Affray, tmp_path: Path) -> None:
    (tmp_path / "wins.png").write_bytes(b"mine")
    result = affray("battle", DUEL, "--runs", "30", "--plots", tmp_path)
    assert_user_error(result, "wins.png: the file exists; --force replaces it")
    assert "runs" not in result.out
    assert (tmp_path / "wins.png").read_bytes() == b"mine"


def test_kept_logs_are_the_runs_fought_again_and_verify(affray: Affray, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    result = affray("battle", DUEL, "--runs", "40", "--keep-logs", "2", "--logs", logs)
    assert result.code == 0, result
    kept = sorted(logs.glob("run-*.jsonl"))
    assert 2 <= len(kept) <= 4
    assert all(affray("verify", log).code == 0 for log in kept)
    assert len((logs / "kept.txt").read_text().splitlines()) == len(kept)


def test_keep_logs_needs_its_folder(affray: Affray) -> None:
    assert_user_error(
        affray("battle", DUEL, "--runs", "4", "--keep-logs", "2"), "--keep-logs K and --logs DIR"
    )


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (("--scheduler", "foo"), "expected tcp://HOST:PORT, as in tcp://127.0.0.1:8786"),
        (("-o", "/nonexistent/r.csv"), "-o /nonexistent/r.csv: there is no folder /nonexistent"),
        (("--plots", "/proc/no-such-folder"), "cannot make the folder"),
    ],
)
def test_an_unusable_place_is_one_error_line(affray: Affray, arguments: tuple[str, ...], said: str) -> None:
    assert_user_error(affray("battle", DUEL, "--runs", "2", *arguments), said)


@pytest.mark.parametrize("vary", [(), ("--vary", "combatants.gorm.skill=70,110")], ids=["batch", "sweep"])
def test_a_name_with_dollar_signs_is_drawn_as_written(
    affray: Affray, tmp_path: Path, vary: tuple[str, ...]
) -> None:
    # matplotlib took "$5^$" in the title for math text and stopped with a ValueError (exit 1)
    scenario = tmp_path / "price.toml"
    scenario.write_text(DUEL.read_text().replace('"Duel at the ford"', '"Price $5^$ deal"'))
    result = affray("battle", scenario, "--runs", "10", *vary, "--plots", tmp_path / "plots")
    assert result.code == 0, result
    assert all(png.read_bytes().startswith(b"\x89PNG") for png in (tmp_path / "plots").iterdir())


def test_a_special_damage_ruling_no_run_uses_is_no_warning_of_the_batch(
    affray: Affray, tmp_path: Path
) -> None:
    # S10: a ruling on gorm's third special damage; each run that never gives him one is no warning
    scenario = tmp_path / "ruled.toml"
    scenario.write_text(
        DUEL.read_text().replace("seed = 1130\n", 'seed = 1130\nmodules = ["special_damage"]\n', 1)
        + '\n[[rulings]]\ntarget = "gorm"\nnth = 3\nstamina = 0\nreason = "a glancing blow"\n'
    )
    result = affray("battle", scenario, "--runs", "5")
    assert result.code == 0
    assert "warning" not in result.err
