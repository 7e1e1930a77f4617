"""``affray diff A B``: exit 0 for the same logs, 1 naming where they part and how the outcome differs,
2 for logs it cannot compare."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.conftest import DUEL, EXAMPLES, Affray, assert_user_error, rechain


@pytest.fixture
def reseeded(affray: Affray, tmp_path: Path) -> Path:
    """The duel fought again under seed 1131."""
    scenario = tmp_path / "duel-1131.toml"
    scenario.write_text(DUEL.read_text().replace("seed = 1130", "seed = 1131"))
    out = tmp_path / "duel-1131.jsonl"
    assert affray("run", scenario, "-o", out).code == 0
    return out


def test_a_log_and_a_copy_of_it_are_the_same(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(duel_log.read_bytes())
    result = affray("diff", duel_log, copy)
    assert result.code == 0, result
    assert result.out.splitlines()[-1] == "A and B hold the same header and the same 31 events"


def test_two_seeds_differ_in_the_header_then_part_at_the_first_roll(
    affray: Affray, duel_log: Path, reseeded: Path
) -> None:
    result = affray("diff", duel_log, reseeded)
    assert result.code == 1, result
    lines = result.out.splitlines()
    assert lines[:2] == [
        f"A: {duel_log} (ruleset energion v7, seed 1130)",
        f"B: {reseeded} (ruleset energion v7, seed 1131)",
    ]
    assert "the headers differ:" in lines
    assert "the logs part at seq 1 (0.000 s, combatant_joined in both):" in lines
    assert any(line.split()[:3] == ["perception_roll.total", "7", "4"] for line in lines)


def test_the_outcome_rows_name_what_changed_for_each_combatant(
    affray: Affray, duel_log: Path, reseeded: Path
) -> None:
    lines = affray("diff", duel_log, reseeded).out.splitlines()
    outcome = lines[lines.index("the outcome differs:") + 2 :]
    assert [line.split()[0] for line in outcome] == ["ends", "events", "brenna", "gorm"]


def test_json_names_the_parting_seq_and_both_outcomes(affray: Affray, duel_log: Path, reseeded: Path) -> None:
    result = affray("diff", duel_log, reseeded, "--json")
    assert result.code == 1
    found = json.loads(result.out)
    assert (found["same"], found["parting"]["seq"]) == (False, 1)
    assert found["parting"]["fields"][-1] == {"path": "perception_roll.total", "a": 7, "b": 4}
    assert (found["outcome"]["a"]["t"], found["outcome"]["b"]["events"]) == (54996, 26)


def test_a_cut_log_is_compared_up_to_its_cut_with_a_warning(
    affray: Affray, duel_log: Path, tmp_path: Path
) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(duel_log.read_bytes().split(b"\n")[:11]) + b"\n")
    result = affray("diff", duel_log, cut)
    assert result.code == 1
    assert "B ends at seq 10; A goes on with" in result.out
    [warning] = result.err_lines
    assert warning.startswith(f"warning: {cut}: the log is cut short: no end line after seq 10; compared")


def test_logs_of_two_rulesets_are_refused(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    other = tmp_path / "firefight.jsonl"
    assert affray("run", EXAMPLES / "firefight.toml", "-o", other).code == 0
    assert_user_error(affray("diff", duel_log, other), "diff compares logs of one ruleset")


def test_a_file_that_is_not_a_log_is_one_error_line(affray: Affray, duel_log: Path) -> None:
    assert_user_error(affray("diff", duel_log, DUEL), str(DUEL), "not an affray log")


@pytest.mark.parametrize("depth", [600, 5000])
def test_a_header_nested_hundreds_deep_is_one_error_line(
    affray: Affray, duel_log: Path, tmp_path: Path, depth: int
) -> None:
    # a forger's re-chained header: comparing it leaf by leaf ran out of Python's stack (exit 1, "differ")
    header, *events = duel_log.read_bytes().splitlines()[:-1]
    logs = []
    for leaf in (b"1", b"2"):
        nested = b"[" * depth + leaf + b"]" * depth
        deep = header.replace(b'"name":"Duel at the ford"', b'"name":' + nested)
        logs.append(tmp_path / f"deep{leaf.decode()}.jsonl")
        logs[-1].write_bytes(rechain([deep, *events], format_version=2))
    assert_user_error(affray("diff", *logs), "deep1.jsonl: line 1")
