"""The scripts in benchmarks/ run to their end and print their figures, at sizes small enough to be quick.

Their figures are never checked here (these machines are shared and noisy: benchmarks/README.md); only
that each script still runs against today's affray, which a change of an internal signature once broke
unnoticed (state_at.py). Run with ``--thorough``, as .ci/run does.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from affray import rulesets

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
HELPERS = {"melee.py", "baseline.py"}
"""Modules the scripts import, not scripts."""

SMALL = {
    "attack_rate.py": ["--events", "2000", "--repeat", "1", "--json"],
    "batch_rate.py": ["--baseline", "HEAD", "--runs", "5", "--repeat", "1", "--json"],
    "batch_scaling.py": ["--runs", "8", "--repeat", "1", "--json"],
    "big_battle.py": ["--per-side", "3", "--runs", "1", "--json"],
    "ceilings.py": ["--events", "2000", "--repeat", "1", "--json"],
    "env_steps.py": ["--baseline", "HEAD", "--steps", "200", "--repeat", "1", "--json"],
    "kernel_melee.py": ["--events", "2000", "--repeat", "1", "--json"],
    "long_log.py": ["--events", "20000", "--repeat", "1", "--json"],
    "odds_speed.py": ["--runs", "1", "--json"],
    "page_load.py": ["--per-side", "3", "--runs", "1", "--json"],
    "replay_speed.py": ["--events", "2000", "--repeat", "1", "--json"],
    "startup.py": ["--runs", "1", "--json"],
    "state_at.py": ["--events", "20000", "--repeat", "1", "--json"],
}
"""Each script with arguments that make it quick, and JSON of its figures on its last line."""


def test_every_script_is_run_here() -> None:
    scripts = {p.name for p in BENCHMARKS.glob("*.py")} - HELPERS
    assert scripts == set(SMALL) | {"lines.py"}


@pytest.mark.thorough
@pytest.mark.parametrize("script", sorted(SMALL))
def test_a_benchmark_runs_and_prints_its_figures_as_json(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *SMALL[script]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert isinstance(json.loads(done.stdout.splitlines()[-1]), dict)


def write_lines(folder: Path, *options: str) -> Path:
    """The big-battle fixture written by ``lines.py`` with ``options``, into ``folder``."""
    scenario = folder / "lines.toml"
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "lines.py"), *options, "-o", str(scenario)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return scenario


@pytest.mark.parametrize("ruleset", ["energion", "fivestep"])
def test_the_big_battle_fixture_writes_a_scenario_that_fights(tmp_path: Path, ruleset: str) -> None:
    scenario = write_lines(tmp_path, "--per-side", "2", "--ruleset", ruleset)
    assert scenario.read_text().count("[[combatants]]") == 4
    loaded, spec = rulesets.load_scenario(scenario)
    assert loaded.name == ruleset
    assert loaded.battle(spec).run().state.ended


def test_the_big_battle_fixture_gives_each_fighter_the_damage_points_asked_for(tmp_path: Path) -> None:
    written = tomllib.loads(write_lines(tmp_path, "--per-side", "1", "--damage-points", "800").read_text())
    assert [fighter["damage_points"] for fighter in written["combatants"]] == [800, 800]
    assert written["max_seconds"] == 8000  # 4000 s for every 400 damage points


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--damage-points", "0"], "--damage-points must be at least 1"),
        (["--ruleset", "fivestep", "--damage-points", "800"], "is for Energion's lines, not fivestep's"),
    ],
)
def test_the_big_battle_fixture_refuses_damage_points_it_cannot_give(
    tmp_path: Path, options: list[str], said: str
) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "lines.py"), *options, "-o", str(tmp_path / "lines.toml")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert said in done.stderr
    assert not (tmp_path / "lines.toml").exists()
