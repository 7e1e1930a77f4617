"""A ruleset of another package through the ``affray`` command: registered in-process, or installed and
found through its ``affray.rulesets`` entry point, with no edit to affray (the toy of tests/toy)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from affray import rulesets
from tests.cli.conftest import ROOT, Affray, assert_user_error, run_process
from tests.toy import RULESET as TOY

TOY_DUEL = ROOT / "tests" / "toy" / "duel.toml"


@pytest.fixture
def toy() -> Iterator[None]:
    rulesets.register(TOY)
    yield
    rulesets.unregister(TOY.name)


@pytest.mark.usefixtures("toy")
def test_a_registered_ruleset_runs_and_its_log_verifies(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "toy.jsonl"
    result = affray("run", TOY_DUEL, "-o", out)
    assert result.code == 0, result
    assert result.out.startswith("Toy duel: side left wins at ")
    verified = affray("verify", out)
    assert verified.code == 0, verified
    assert verified.out.startswith(f"ok: {out}: 10 events chain, fold and re-simulate identically")


@pytest.mark.usefixtures("toy")
def test_a_registered_rulesets_log_is_told_with_its_own_tellers(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "toy.jsonl"
    assert affray("run", TOY_DUEL, "-o", out).code == 0
    lines = affray("replay", out).out.splitlines()
    assert lines[0] == f"{out}: ruleset toy v1, seed 12"
    assert "ada joins side left: 12 points, skill 12" in lines[1]
    assert any("ada swings at bo: 1d20=" in line for line in lines)
    assert lines[-1].endswith("the encounter ends: side left wins (only side left still stands)")


@pytest.mark.usefixtures("toy")
def test_a_registered_rulesets_state_is_shown_with_its_own_columns(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "toy.jsonl"
    assert affray("run", TOY_DUEL, "-o", out).code == 0
    shown = affray("state", out).out.splitlines()
    assert any(line.split()[:2] == ["ada", "left"] and "swings" in line for line in shown)
    state = json.loads(affray("state", out, "--json").out)
    assert state["winner"] == "left"


@pytest.mark.usefixtures("toy")
def test_heal_says_that_a_ruleset_without_an_aftermath_heals_nothing(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "toy.jsonl"
    assert affray("run", TOY_DUEL, "-o", out).code == 0
    result = affray("heal", out, "--days", "1", "-o", tmp_path / "healed.jsonl")
    assert_user_error(result, "nothing heals: the scenario does not use a module with an aftermath")


def test_a_scenario_of_a_ruleset_not_installed_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "toy.jsonl"
    assert_user_error(
        affray("run", TOY_DUEL, "-o", out),
        f"{TOY_DUEL}: $.ruleset: no ruleset 'toy' (installed: {', '.join(rulesets.ruleset_names())})",
    )
    assert not out.exists()


@pytest.mark.usefixtures("toy")
def test_a_log_of_a_ruleset_no_longer_installed_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "toy.jsonl"
    assert affray("run", TOY_DUEL, "-o", out).code == 0
    rulesets.unregister(TOY.name)
    assert_user_error(affray("replay", out), f"{out}: line 1 (header): no ruleset 'toy'")


def test_an_installed_package_adds_its_ruleset_through_an_entry_point(tmp_path: Path) -> None:
    # what pip leaves in site-packages for a package declaring [project.entry-points."affray.rulesets"]
    info = tmp_path / "site" / "affray_toy-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: affray-toy\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[affray.rulesets]\ntoy = tests.toy:RULESET\n")
    env = {"PYTHONPATH": f"{tmp_path / 'site'}:{ROOT}"}
    out = tmp_path / "toy.jsonl"
    ran = run_process("run", TOY_DUEL, "-o", out, env=env, cwd=ROOT)
    assert ran.code == 0, ran
    verified = run_process("verify", out, env=env, cwd=ROOT)
    assert (verified.code, verified.out.split(":")[0]) == (0, "ok")
