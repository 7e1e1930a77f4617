"""``affray battle``: a scenario fought many times, or at each point of a sweep, with a report."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import click
import msgspec

from affray import files, rulesets, stops, stores
from affray.batch.keep import Keeper, Kept
from affray.batch.plots import PLOT_NAMES, PlotData, draw_plots
from affray.batch.report import Report, Tally, tell_report
from affray.batch.runner import BatchSpec, load, run_batch
from affray.batch.store import ResultsFile, check_results
from affray.batch.sweep import Point, draw_sweep, grid, parse_vary, sweep_report, tell_sweep
from affray.cli.command import SEED, Interrupted, refuse_overwriting, whole_verified
from affray.cli.group import cli, short_help_of
from affray.cli.progress import Progress
from affray.cli.run import record
from affray.cli.terminal import one_line
from affray.errors import AffrayError, ScenarioError, excerpt
from affray.events.codec import ENCODER
from affray.replays.continuation import check_prefix, continued_scenario, split_at
from affray.rulesets.controllers import played_from_outside

MAX_RUNS = 10_000_000
MAX_POINTS = 1000
KEPT = "kept.txt"
"""The file in ``--logs DIR`` that says why each log was kept."""


@cli.command(short_help=short_help_of("battle"))
@click.argument("scenario", type=click.Path(path_type=Path))
@click.option(
    "--runs", type=click.IntRange(min=1, max=MAX_RUNS), required=True, help="Fights (at each point)."
)
@click.option("--seed", type=SEED, help="The batch's seed (the scenario's by default).")
@click.option(
    "--jobs", type=click.IntRange(min=1, max=256), default=1, show_default=True, help="Worker processes."
)
@click.option(
    "--vary",
    "varied",
    multiple=True,
    metavar="PATH=LIST",
    help="Sweep a value: combatants.gorm.skill=50,60,70 (JSON array if values have commas); repeat: a grid.",
)
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), help="Results, a row per run: .csv or .parquet."
)
@click.option(
    "--plots", type=click.Path(path_type=Path, file_okay=False), help="Folder for the report's PNGs."
)
@click.option(
    "--scheduler",
    metavar="tcp://HOST:PORT",
    help="Send the runs to this Dask scheduler's cluster instead of local processes (docs/batch.md).",
)
@click.option(
    "--keep-logs",
    type=click.IntRange(min=1, max=1000),
    help="Keep the logs of 2K runs: the K soonest- and latest-ending, and K more sampled (fought again).",
)
@click.option("--logs", type=click.Path(path_type=Path, file_okay=False), help="Folder for --keep-logs.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--force", is_flag=True, help="Replace OUTPUT, the plots and the kept logs if they exist.")
def battle(
    scenario: Path,
    runs: int,
    seed: int | None,
    jobs: int,
    varied: tuple[str, ...],
    output: Path | None,
    plots: Path | None,
    scheduler: str | None,
    keep_logs: int | None,
    logs: Path | None,
    as_json: bool,
    force: bool,
) -> None:
    """Fight SCENARIO RUNS times and report how it went: each side's win rate with its 95 % interval,
    time to resolution, and each combatant's damage, survival and time out. With --vary, at each point of
    the grid, the same seeds at every point.

    Run i is fought with a seed derived from the batch's seed and i (docs/batch.md), so any run can be
    fought again alone with `affray run SCENARIO --seed X`, X its seed in the results.

    SCENARIO may be a log and an event's seq, LOG@N: the recorded fight fought on after event N, every
    roll up to it as recorded and every later one the run's own.
    """
    spec, source, after = _spec(scenario, varied)
    _, loaded = load(spec)
    name = (loaded.name or source.stem) + ("" if after is None else f", fought on after seq {after}")
    base = loaded.seed if seed is None else seed
    points = _points(spec, varied)
    _check_output(output, source, force)
    keeper = _keeper(keep_logs, logs, base, swept=bool(varied), force=force)
    drawn = _plots_to_draw(plots, points, force)
    data = PlotData() if drawn and not points[0] else None
    varied_paths = [path for path, _ in points[0]]
    results = ResultsFile(output, force=force, varied=varied_paths) if output is not None else None
    how = Fighting(runs, base, jobs, scheduler)
    fought = _fight(spec, points, how, results, data, keeper, last=plots is None and keeper is None)
    if fought.stopped is not None:
        _tell(points[: len(fought.reports)], fought.reports, name, as_json)
        raise fought.stopped
    reports = fought.reports
    if plots is not None:
        _plot(plots, points, reports, data, name, force)
    if keeper is not None and logs is not None:
        _keep(spec, keeper.kept(), logs, force)
    _tell(points, reports, name, as_json)
    if output is not None and not as_json:
        click.echo(f"results: {output}")


def _check_output(output: Path | None, source: Path, force: bool) -> None:
    """``-o`` is not what is fought, and is refused before any fight when it exists (unless --force)."""
    if output is not None:
        refuse_overwriting(output, {source: "the scenario or log it fights"})
        check_results(output, force)


def _spec(argument: Path, varied: tuple[str, ...]) -> tuple[BatchSpec, Path, int | None]:
    """What is fought: a scenario file; or ``LOG@N``, a recorded fight fought on after its event N, every
    roll up to it as recorded (affray.replays.continuation); with the file it comes from, and N."""
    text, after = split_at(str(argument))
    if after is None:
        return BatchSpec(argument.resolve()), argument, None
    if varied:
        raise AffrayError(f"--vary sweeps a scenario's values, not a recorded fight fought on ({argument})")
    log = stores.place(text)
    recorded, _ = whole_verified(log, "a fight is fought on from")
    scenario = continued_scenario(recorded, after, str(log))
    outside = played_from_outside(scenario)
    if outside:
        who, controller = sorted(outside.items())[0]
        raise AffrayError(
            f"{log}: {who} is played by {controller!r}, code from outside affray, which every later "
            "decision would need; only a fight affray plays whole is fought on"
        )
    spec = BatchSpec(Path(str(log)), mapping=ENCODER.encode(scenario))
    ruleset, loaded = load(spec)
    check_prefix(ruleset, loaded, recorded, after, str(log))
    return spec, log.file, after


def _points(spec: BatchSpec, varied: tuple[str, ...]) -> list[Point]:
    """The grid of ``--vary`` (one point without), each point's scenario loaded, or the error naming it,
    before a fight."""
    points: list[Point] = grid([parse_vary(text) for text in varied]) if varied else [()]
    if len(points) > MAX_POINTS:
        raise AffrayError(f"--vary: {len(points)} points; a sweep has at most {MAX_POINTS}")
    for point in points:
        _load_point(spec, point)
    return points


def _keeper(
    keep_logs: int | None, logs: Path | None, base: int, *, swept: bool, force: bool
) -> Keeper | None:
    """What keeps the logs of ``--keep-logs K`` in ``--logs DIR`` (checked before a fight), if asked."""
    if (keep_logs is None) != (logs is None):
        raise AffrayError("--keep-logs K and --logs DIR go together")
    if keep_logs is None or logs is None:
        return None
    if swept:
        raise AffrayError("--keep-logs keeps the logs of one batch, not of a sweep's points")
    _logs_to_keep(logs, force)
    return Keeper(keep_logs, base)


@dataclass(frozen=True)
class Fighting:
    """How many runs at each point, from which seed, on what."""

    runs: int
    base: int
    jobs: int
    scheduler: str | None


@dataclass
class Fought:
    """What a batch fought: a report per point (the last of a stopped batch for the runs it fought), and
    the stop, raised once they are told."""

    reports: list[Report] = field(default_factory=list)
    stopped: Interrupted | None = None


def _fight(
    spec: BatchSpec,
    points: Sequence[Point],
    how: Fighting,
    results: ResultsFile | None,
    data: PlotData | None,
    keeper: Keeper | None = None,
    *,
    last: bool = False,
) -> Fought:
    """Each point's batch fought and reported; the results written and the plots' data kept as they come.
    A stop (Ctrl-C, a kill, a closed terminal) ends the workers at once: the runs fought so far are
    reported, marked interrupted, and their results kept beside OUTPUT as OUTPUT.partial."""
    progress = Progress(how.runs * len(points), sys.stderr)
    fought = Fought()
    counted = Tally(how.base)
    try:
        for point in points:
            counted = Tally(how.base)
            values = [value for _, value in point]
            at = dataclasses.replace(spec, changes=point)
            batch = run_batch(at, how.runs, how.base, how.jobs, progress.advance, how.scheduler)
            with contextlib.closing(batch):
                for outcome in batch:
                    with stops.held():
                        counted.add(outcome)
                        if results is not None:
                            results.add(outcome, values)
                        if data is not None:
                            data.add(outcome)
                        if keeper is not None:
                            keeper.add(outcome)
            fought.reports.append(counted.report())
    except KeyboardInterrupt:
        fought.stopped = _stopped(fought, counted, results)
    except BaseException:
        if results is not None:
            results.abandon()
        raise
    finally:
        progress.close()
    if results is not None and fought.stopped is None:
        if last:  # nothing is written after the results: a stop from here on cuts nothing short
            stops.finishing()
        results.finish()
    return fought


def _load_point(spec: BatchSpec, point: Point) -> None:
    """The scenario with ``point``'s values loads; a ScenarioError names the --vary values it has."""
    try:
        load(dataclasses.replace(spec, changes=point))
    except ScenarioError as exc:
        varied = ", ".join(f"{dotted}={json.dumps(value)}" for dotted, value in point)
        raise ScenarioError(f"--vary {excerpt(varied, 200)}: {exc}") from None


def _stopped(fought: Fought, counted: Tally, results: ResultsFile | None) -> Interrupted:
    """A batch stopped: the runs of the point it was at reported as interrupted (if any was fought), the
    results so far kept; what to say of them."""
    if counted.runs:
        fought.reports.append(msgspec.structs.replace(counted.report(), interrupted=True))
    runs = sum(report.runs for report in fought.reports)
    said = f"{runs} runs fought; the report above is of them"
    if results is not None:
        kept = results.keep_partial()
        said += f"; their results are kept in {kept}" if kept else "; no results were kept"
    return Interrupted(said)


def _logs_to_keep(folder: Path, force: bool) -> None:
    """``--logs DIR`` made if missing; refused before any fight, unless ``force``, when it holds what a
    batch keeps (kept.txt, run-NNNNNNN.jsonl: which runs are kept is known only once they are fought)."""
    files.make_folder(folder, "--logs")
    files.check_target(folder / KEPT, force=force, flag="--logs")
    earlier = sorted(folder.glob("run-*.jsonl"))
    if earlier and not force:
        raise AffrayError(
            f"--logs {folder}: holds the logs of an earlier batch ({earlier[0].name}); --force replaces them"
        )


def _plots_to_draw(folder: Path | None, points: Sequence[Point], force: bool) -> list[Path]:
    """The pictures ``--plots`` will write: refused before any fight when one exists and not ``force``."""
    if folder is None:
        return []
    files.make_folder(folder, "--plots")
    drawn = [folder / "sweep.png"] if points[0] else [folder / name for name in PLOT_NAMES]
    for path in drawn:
        files.check_target(path, force=force, flag="--plots")
    return drawn


def _plot(
    folder: Path,
    points: Sequence[Point],
    reports: Sequence[Report],
    data: PlotData | None,
    name: str,
    force: bool,
) -> None:
    if points[0]:
        drawn = [folder / "sweep.png"]
        files.write_new(
            drawn[0], lambda file: draw_sweep(points, reports, file, name), force=force, flag="--plots"
        )
    else:
        assert data is not None
        drawn = draw_plots(reports[0], data, folder, name, force=force)
    for path in drawn:
        click.echo(f"plot: {path}", err=True)


def _keep(spec: BatchSpec, kept: Sequence[Kept], folder: Path, force: bool) -> None:
    """Fight the kept runs again from their seeds, each into its log, and list why each was kept."""
    ruleset, scenario = load(spec)
    lines = []
    for run in kept:
        seeded = msgspec.structs.replace(scenario, seed=run.seed)
        log = folder / f"run-{run.index:07d}.jsonl"
        encounter = record(
            ruleset.battle(seeded),
            rulesets.header(ruleset, seeded),
            stores.JsonLinesLog(log),
            force=force,
            trace=False,
            what=spec.path,
            last=False,
        )
        ended = encounter.state.t / 1000
        lines.append(f"{log.name}  run {run.index}, seed {run.seed}: {run.why}, ended at {ended:g} s")
    files.write_new(folder / KEPT, ("\n".join(lines) + "\n").encode(), force=force, flag="--logs", last=True)
    click.echo(f"logs: {len(kept)} kept in {folder} (kept.txt says why)", err=True)


def _tell(points: Sequence[Point], reports: Sequence[Report], name: str, as_json: bool) -> None:
    if not points[0]:
        report = reports[0]
        text = (
            msgspec.json.encode(report).decode()
            if as_json
            else "\n".join(map(one_line, tell_report(report, name)))
        )
    else:
        swept = sweep_report(points, reports)
        text = (
            msgspec.json.encode(swept).decode()
            if as_json
            else "\n".join(map(one_line, tell_sweep(points, reports, name)))
        )
    click.echo(text)
