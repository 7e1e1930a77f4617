"""Mutated example scenarios: each field of each ``examples/*.toml`` (top-level keys, tables, arrays of
tables, inline tables, array elements, at any depth) replaced by a hostile value, deleted, given an unknown
key beside it or another type, then run with ``affray run MUTANT -o OUT``.

A mutant is either refused (exit 2, one ``error:`` line last on stderr, no file at OUT) or run to a log that
``affray verify`` passes and that replays and shows its state with no warning. Every call is bounded by the
harness (30 s of wall clock, 2 GiB of address space more than the test process holds): a hang or a runaway
allocation fails the test as a traceback does. The hypothesis test draws a path and a mutation per example
(25 mutants each under the quick profile, 1000 under ``--hypothesis-profile=long``); the sweep makes four
mutations (10**30, nan, another type, deletion) at every path of every example on every run.
"""

from __future__ import annotations

import shutil
import tempfile
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.harness import (
    EXAMPLES,
    FieldPath,
    Mutant,
    TomlMutation,
    check_run,
    fail_all,
    field_paths,
    mutations_at,
    sampled,
    shown_path,
    sweep_mutations,
)

SCENARIOS = sorted(EXAMPLES.glob("*.toml"))


@cache
def document(scenario: Path) -> dict[str, Any]:
    """The example scenario, parsed."""
    return tomllib.loads(scenario.read_text(encoding="utf-8"))


@cache
def paths(scenario: Path) -> list[FieldPath]:
    """Every field path of the example scenario."""
    return field_paths(document(scenario))


def run_mutant(directory: Path, scenario: Path, mutation: TomlMutation, text: str = "") -> str:
    """Write the mutant of ``scenario`` (``text``, made here if not given) into ``directory`` (a new folder)
    and run it; a failure report, or "" when the contract holds (the folder is then removed)."""
    directory.mkdir(exist_ok=True)
    written = directory / scenario.name
    written.write_text(text or mutation.apply(document(scenario)), encoding="utf-8")
    mutant = Mutant(f"examples/{scenario.name}", shown_path(mutation.path), mutation.describe(), written)
    found = check_run(mutant, written, directory / "out.jsonl")
    if not found:
        shutil.rmtree(directory)
    return found


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda path: path.stem)
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_mutated_scenario_is_refused_in_one_line_or_makes_a_log_that_verifies(
    scenario: Path, tmp_path: Path, data: st.DataObject
) -> None:
    path = data.draw(st.sampled_from(paths(scenario)), label="path")
    mutation = data.draw(st.sampled_from(mutations_at(path)), label="mutation")
    found = run_mutant(Path(tempfile.mkdtemp(dir=tmp_path)), scenario, mutation)
    assert not found, found


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda path: path.stem)
@pytest.mark.sweep
def test_every_field_of_a_scenario_survives_the_sweep(
    scenario: Path, tmp_path: Path, sweep_share: int
) -> None:
    reports: list[str] = []
    seen: set[str] = set()
    for path in paths(scenario):
        for mutation in sampled(sweep_mutations(path), sweep_share):
            text = mutation.apply(document(scenario))
            if text in seen:
                continue
            seen.add(text)
            found = run_mutant(tmp_path / f"mutant-{len(seen)}", scenario, mutation, text)
            if found:
                reports.append(found)
    fail_all(reports, len(seen))
