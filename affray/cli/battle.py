"""``affray battle``: a scenario fought many times, with a report of how it went."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import msgspec

from affray.batch.report import Tally, tell_report
from affray.batch.runner import BatchSpec, load, run_batch
from affray.batch.store import ResultsFile
from affray.cli.command import cli, refuse_overwriting
from affray.cli.progress import Progress

MAX_RUNS = 10_000_000


@cli.command()
@click.argument("scenario", type=click.Path(path_type=Path))
@click.option("--runs", type=click.IntRange(min=1, max=MAX_RUNS), required=True, help="How many fights.")
@click.option(
    "--seed", type=click.IntRange(min=0, max=2**63 - 1), help="The batch's seed (the scenario's by default)."
)
@click.option(
    "--jobs", type=click.IntRange(min=1, max=256), default=1, show_default=True, help="Worker processes."
)
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), help="Results, a row per run: .csv or .parquet."
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
def battle(
    scenario: Path, runs: int, seed: int | None, jobs: int, output: Path | None, as_json: bool, force: bool
) -> None:
    """Fight SCENARIO RUNS times and report how it went: each side's win rate with its 95 % interval,
    time to resolution, and each combatant's damage, survival and time out.

    Run i is fought with a seed derived from the batch's seed and i (docs/batch.md), so any run can be
    fought again alone with `affray run SCENARIO --seed X`, X its seed in the results.
    """
    spec = BatchSpec(scenario.resolve())
    _, loaded = load(spec)
    base = loaded.seed if seed is None else seed
    results = None
    if output is not None:
        refuse_overwriting(output, {scenario: "the scenario"})
        results = ResultsFile(output, force=force)
    counted = Tally(base)
    progress = Progress(runs, sys.stderr)
    try:
        for outcome in run_batch(spec, runs, base, jobs, progress.advance):
            counted.add(outcome)
            if results is not None:
                results.add(outcome)
    except BaseException:
        if results is not None:
            results.abandon()
        raise
    finally:
        progress.close()
    if results is not None:
        results.finish()
    report = counted.report()
    if as_json:
        click.echo(msgspec.json.encode(report).decode())
        return
    for line in tell_report(report, loaded.name or scenario.stem):
        click.echo(line)
    if output is not None:
        click.echo(f"results: {output}")
