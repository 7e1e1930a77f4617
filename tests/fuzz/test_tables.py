"""Mutated user-supplied tables: each field of each table file under ``examples/tables/`` mutated as
test_scenarios.py mutates a scenario, in a copy of the examples, and the example scenarios that name the
table run from that copy with ``affray run SCENARIO -o OUT``.

A mutant is either refused (exit 2, one ``error:`` line last on stderr, no file at OUT) or run to a log that
``affray verify`` passes and that replays and shows its state with no warning. Every call is bounded by the
harness (30 s of wall clock, 2 GiB of address space more than the test process holds): a hang or a runaway
allocation fails the test. The hypothesis test draws a path, a mutation and a scenario naming the table per
table file (25 mutants each under the quick profile); the sweep makes three mutations (nan, another type,
deletion) at every path of every table, run by the scenario naming it that names the fewest tables. (A huge
integer is left to the hypothesis test here: every number of a table file goes through the one range check
that nan goes through, ``affray.rules.tabledata.decode_table``.)
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

TABLES = sorted((EXAMPLES / "tables").rglob("*.toml"))


@cache
def document(table: Path) -> dict[str, Any]:
    """The table file, parsed."""
    return tomllib.loads(table.read_text(encoding="utf-8"))


@cache
def paths(table: Path) -> list[FieldPath]:
    """Every field path of the table file."""
    return field_paths(document(table))


@cache
def named_tables(scenario: Path) -> tuple[str, ...]:
    """The table files an example scenario names, relative to examples/."""
    tables = tomllib.loads(scenario.read_text(encoding="utf-8")).get("tables", {})
    return tuple(name for name in tables.values() if isinstance(name, str))


def users(table: Path) -> list[Path]:
    """The example scenarios whose ``[tables]`` name ``table``, those naming fewer tables (quicker to load)
    first."""
    name = table.relative_to(EXAMPLES).as_posix()
    naming = [scenario for scenario in sorted(EXAMPLES.glob("*.toml")) if name in named_tables(scenario)]
    return sorted(naming, key=lambda scenario: len(named_tables(scenario)))


def test_every_table_file_is_named_by_an_example() -> None:
    assert TABLES
    assert all(users(table) for table in TABLES)


def run_mutant(directory: Path, table: Path, scenario: Path, mutation: TomlMutation, text: str = "") -> str:
    """Copy ``scenario`` and the tables it names into ``directory`` (a new folder), write the mutant of
    ``table`` (``text``, made here if not given) over its copy and run the scenario from there; a failure
    report, or "" when the contract holds (the folder is then removed)."""
    for name in named_tables(scenario):
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(EXAMPLES / name, directory / name)
    shutil.copyfile(scenario, directory / scenario.name)
    written = directory / table.relative_to(EXAMPLES)
    written.write_text(text or mutation.apply(document(table)), encoding="utf-8")
    origin = table.relative_to(EXAMPLES.parent).as_posix()
    mutant = Mutant(
        origin, shown_path(mutation.path), f"{mutation.describe()}; run by {scenario.name}", written
    )
    found = check_run(mutant, directory / scenario.name, directory / "out.jsonl")
    if not found:
        shutil.rmtree(directory)
    return found


@pytest.mark.parametrize("table", TABLES, ids=lambda path: path.stem)
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_mutated_table_is_refused_in_one_line_or_makes_a_log_that_verifies(
    table: Path, tmp_path: Path, data: st.DataObject
) -> None:
    path = data.draw(st.sampled_from(paths(table)), label="path")
    mutation = data.draw(st.sampled_from(mutations_at(path)), label="mutation")
    scenario = data.draw(st.sampled_from(users(table)), label="scenario")
    found = run_mutant(Path(tempfile.mkdtemp(dir=tmp_path)), table, scenario, mutation)
    assert not found, found


@pytest.mark.parametrize("table", TABLES, ids=lambda path: path.stem)
@pytest.mark.sweep
def test_every_field_of_a_table_survives_the_sweep(table: Path, tmp_path: Path, sweep_share: int) -> None:
    reports: list[str] = []
    seen: set[str] = set()
    scenario = users(table)[0]
    for path in paths(table):
        for mutation in sampled(sweep_mutations(path, huge_integer=False), sweep_share):
            text = mutation.apply(document(table))
            if text in seen:
                continue
            seen.add(text)
            found = run_mutant(tmp_path / f"mutant-{len(seen)}", table, scenario, mutation, text)
            if found:
                reports.append(found)
    fail_all(reports, len(seen))
