"""``affray odds``: each side's chance to win before and after every roll of a recorded fight, the luck of
each roll, the pivotal rolls, and how much of the result was luck (affray.batch.odds, docs/odds.md)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

import click
import msgspec

from affray import files, rulesets
from affray.batch.odds import (
    Chance,
    Grow,
    OddsReport,
    RollLabel,
    RollOdds,
    Sampling,
    odds_report,
    percent,
    points,
    sample_points,
)
from affray.batch.runner import BatchSpec, Done, load
from affray.cli.command import LOG, SEED, refuse_overwriting, whole_verified
from affray.cli.group import cli, short_help_of
from affray.cli.progress import Progress
from affray.cli.terminal import echo_lines
from affray.errors import AffrayError, excerpt, printable, read_user_file
from affray.events.reader import LogFile
from affray.kernel.fold import fold
from affray.replays.continuation import RollMade, replayed_otherwise, rolls_made, scenario_with_rolls
from affray.rulesets.controllers import EXTERNAL, import_factories, played_from_outside
from affray.stores import LogStore

MAX_SAMPLES = 1_000_000
MIN_SAMPLES = 10
SAMPLES = 1500
"""The most samples a point is given by default: enough for a chance near 50 % within 3 points (1,068)."""
WITHIN = 3.0
"""How closely each chance is to be known by default, in percentage points either way, at 95 %."""
MAX_ROLLS = 5000
"""The most rolls a fight may have for its odds: each is a point fought many times (a day's work)."""


def fight_odds(
    log: LogFile,
    end: str,
    where: str,
    how: Sampling,
    done: Done | None = None,
    grow: Grow | None = None,
    *,
    controllers: Path | None = None,
) -> OddsReport:
    """The odds of the recorded fight ``log`` (read whole and verified; ``end``, the hash of its end line),
    named ``where`` in errors; the samples at each roll fought as ``how`` says, ``done`` and ``grow`` told
    of the samples fought and found to fight. Combatants played by code from outside affray are played by
    that code in every sample, imported from ``controllers`` and nowhere else."""
    made = rolls_made(log)
    if len(made) > MAX_ROLLS:
        raise AffrayError(
            f"{where}: {len(made):,} rolls; odds are worked out for fights of at most {MAX_ROLLS:,}"
        )
    recorded = rulesets.recorded(log.header, where)
    _import_controllers(log, where, how, controllers)
    # the rolls in the order made (an encoder that sorts keys would lose it): point i enters the first i
    every = msgspec.json.encode(scenario_with_rolls(log, {roll.key: list(roll.roll.faces) for roll in made}))
    specs = [BatchSpec(Path(where), mapping=every, entered=count) for count in range(len(made) + 1)]
    last = log.events[-1].seq if log.events else 0
    differs = replayed_otherwise(*load(specs[-1]), log, last)  # every roll as recorded: the recorded fight
    if differs:
        played = f" with the controllers of --controllers {controllers}" if controllers is not None else ""
        raise AffrayError(f"{where}: fought again{played}, {differs}; its odds would be another fight's")
    state = fold(log.events, rulesets.reading(log.header, where).vocabulary())
    sides = list(dict.fromkeys(c.side for c in state.combatants.values()))
    sampled = sample_points(specs[:-1], sides, how, done, grow)
    labels = [_label(roll, state.combatants) for roll in made]
    name = str(recorded.scenario.name) or Path(where).stem
    return odds_report(name, end, how, labels, sampled, sides, state.winner)


def _import_controllers(log: LogFile, where: str, how: Sampling, controllers: Path | None) -> None:
    """The code of the combatants played from outside affray, imported from ``controllers`` (every sample
    decides for them anew), or why their odds cannot be worked out."""
    played = played_from_outside(msgspec.json.decode(log.header.scenario))
    if not played:
        return
    who, controller = sorted(played.items())[0]
    if controllers is None:
        raise AffrayError(
            f"{where}: {who} is played by {controller!r}, code from outside affray, which every sample "
            "would need; give the folder it is imported from with --controllers DIR"
        )
    stepped = sorted(c for c, name in played.items() if name == EXTERNAL)
    if stepped:
        raise AffrayError(
            f"{where}: {stepped[0]} is played step by step from outside (external), which no sample can ask"
        )
    if how.scheduler is not None:
        raise AffrayError(
            "--controllers: the samples of a fight played by code of your own are fought on --jobs, not on "
            "a Dask cluster"
        )
    import_factories(played.values(), controllers, "--controllers")


def _label(made: RollMade, combatants: dict[str, object]) -> RollLabel:
    roller = combatants.get(made.roll.roller)
    return RollLabel(
        key=made.key,
        expr=made.roll.expr,
        faces=list(made.roll.faces),
        total=made.roll.total,
        roller=made.roll.roller,
        side=getattr(roller, "side", None),
        seq=made.seq,
        t=made.t,
        kind=made.kind,
    )


@cli.command(short_help=short_help_of("odds"))
@click.argument("log", type=LOG)
@click.option(
    "--within",
    type=click.FloatRange(min=0.1, max=50),
    default=WITHIN,
    show_default=True,
    help="Know each chance within this many percentage points either way (95 %).",
)
@click.option(
    "--samples",
    type=click.IntRange(min=MIN_SAMPLES, max=MAX_SAMPLES),
    default=SAMPLES,
    show_default=True,
    help="The most fights at each roll (the same seeds at every roll).",
)
@click.option("--seed", type=SEED, help="The samples' seed (the scenario's by default).")
@click.option(
    "--jobs", type=click.IntRange(min=1, max=256), default=1, show_default=True, help="Worker processes."
)
@click.option(
    "--scheduler", metavar="tcp://HOST:PORT", help="Fight the samples on this Dask scheduler's cluster."
)
@click.option(
    "--controllers",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    metavar="DIR",
    help="Import the code LOG's scenario names as controllers (package.module:factory) from DIR, and only "
    "from there, to play them in every sample. Without it a fight played by such code is refused.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), help="Write the report as JSON to this file."
)
@click.option("--plot", type=click.Path(path_type=Path), help="Draw each side's chance over the rolls (PNG).")
@click.option("--force", is_flag=True, help="Replace OUTPUT and PLOT if they exist.")
def odds(
    log: LogStore,
    within: float,
    samples: int,
    seed: int | None,
    jobs: int,
    scheduler: str | None,
    controllers: Path | None,
    as_json: bool,
    output: Path | None,
    plot: Path | None,
    force: bool,
) -> None:
    """Each side's chance to win just before and just after every roll of the fight in LOG, with its 95 %
    interval; the luck of each roll (the jump of a side's chance across it), the pivotal rolls, and each
    side's change from its opening chance split into luck and the rest (docs/odds.md).

    At each roll the fight is fought on SAMPLES times from just after it, every roll up to it as
    recorded and every later one a sample's own, the same sample seeds at every roll.
    """
    for path, flag in ((output, "-o"), (plot, "--plot")):
        if path is not None:
            refuse_overwriting(path, {log.file: "the log whose odds they are"}, flag)
            files.check_target(path, force=force, flag=flag)
    recorded, end = whole_verified(log, "odds are worked out for")
    base = rulesets.recorded(recorded.header, str(log)).scenario.seed if seed is None else seed
    how = Sampling(within / 100, samples, base, jobs, scheduler)
    report = _shown_fighting(recorded, end, log, how, controllers)
    if plot is not None:
        from affray.batch.odds_plot import draw_odds

        draw_odds(report, plot, force=force, last=output is None)
    if output is not None:
        files.write_new(
            output,
            lambda file: file.write(msgspec.json.encode(report) + b"\n"),
            force=force,
            flag="-o",
            last=True,
        )
    if as_json:
        click.echo(msgspec.json.encode(report).decode())
    else:
        echo_lines(tell_odds(report))


SLACK = 1e-9
"""How far a chance read back may stray outside its interval or 0..1 by rounding."""
ODDS_FILE_LIMIT = 64 << 20
"""The largest odds file read: a report of the most rolls a fight may have is a few megabytes."""


def read_odds(path: Path, log_end: str, flag: str = "--odds") -> OddsReport:
    """The odds report in the file at ``path`` (``affray odds -o``), checked to be the odds of the log whose
    end line hashes to ``log_end``; any fault is one AffrayError naming ``flag`` and the file."""
    shown = f"{flag} {printable(str(path))}"
    data = read_user_file(path, AffrayError, "an odds file", named=shown, limit=ODDS_FILE_LIMIT)
    try:
        report = msgspec.json.decode(data, type=OddsReport)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
        raise AffrayError(f"{shown}: not a report of affray odds ({excerpt(str(exc))})") from None
    if report.log_end != log_end:
        raise AffrayError(f"{shown}: the odds of another log (or of another version of this one)")
    points = [report.opening, *(made.after for made in report.rolls)]
    chances = [c for p in points for c in (*p.sides.values(), p.no_winner)]
    if any(set(p.sides) != set(report.sides) for p in points) or not all(
        -SLACK <= c.low <= c.chance + SLACK and c.chance <= c.high + SLACK <= 1 + 2 * SLACK for c in chances
    ):
        raise AffrayError(f"{shown}: its chances are not those of a report of affray odds")
    return report


def _shown_fighting(
    recorded: LogFile, end: str, log: LogStore, how: Sampling, controllers: Path | None = None
) -> OddsReport:
    """``fight_odds`` with its progress on standard error."""
    progress = Progress(0, sys.stderr, label="samples")
    try:
        return fight_odds(
            recorded, end, str(log), how, progress.advance, progress.grow, controllers=controllers
        )
    finally:
        progress.close()


def odds_beside(log: LogStore, given: str, log_end: str | None, sides: Iterable[str]) -> OddsReport:
    """The odds to show beside the log at ``log`` (whose end line hashes to ``log_end``, whose sides are
    ``sides``): read from the file ``given``, checked to be the log's; or, ``given`` empty, worked out now
    with the defaults."""
    if log_end is None:
        raise AffrayError(f"--odds: {log} has no end line, and odds are of whole logs")
    if given:
        report = read_odds(Path(given), log_end)
        if set(report.sides) != set(sides):
            raise AffrayError("--odds: its sides are not the log's")
        return report
    recorded, end = whole_verified(log, "odds are worked out for")
    played = played_from_outside(msgspec.json.decode(recorded.header.scenario))
    if played:
        raise AffrayError(
            f"--odds: {log} is played by code of your own ({sorted(played.values())[0]!r}): make its odds "
            "with `affray odds LOG --controllers DIR -o FILE` and give --odds FILE"
        )
    seed = rulesets.recorded(recorded.header, str(log)).scenario.seed
    return _shown_fighting(recorded, end, log, Sampling(WITHIN / 100, SAMPLES, seed))


def tell_odds(report: OddsReport) -> list[str]:
    """The report for a terminal: the sentence, the opening, every roll with each side's chance before and
    after it, the pivotal rolls, and each side's split."""
    lines = [
        f"{report.name}: odds at each of {len(report.rolls):,} rolls, each chance within "
        f"{100 * report.within:g} points at 95 % (up to {report.most:,} samples a roll, seed {report.seed})",
        report.sentence + ".",
        "",
        "at the start: " + _chances(report.opening.sides, report.opening.no_winner.chance),
        "",
        "each side's chance (%) before -> after each roll, and the roll's luck (points):",
        f"{'seq':>5}  {'time':>10}  {'roll':<32}"
        + "".join(f"  {side[:CELL]:>{CELL}}" for side in report.sides),
    ]
    for made in report.rolls:
        roll = made.roll
        cells = "".join(f"  {_cell(made, side):>{CELL}}" for side in report.sides)
        lines.append(f"{roll.seq:>5}  {roll.t / 1000:>8.3f} s  {roll.key + ' = ' + _faces(made):<32}{cells}")
    lines += ["", "pivotal rolls:" if report.pivotal else "no roll moved the chances"]
    by_key = {made.roll.key: made for made in report.rolls}
    for key in report.pivotal:
        made = by_key[key]
        moved = ", ".join(f"{side} {_cell(made, side)}" for side in report.sides)
        lines.append(f"  {key} = {_faces(made)} (seq {made.roll.seq}, {made.roll.kind}): {moved}")
    lines += ["", "luck and the rest, by side (percentage points):"]
    for side in report.split:
        result = "won" if side.final else "did not win"
        whole = points(side.final - side.opening)
        lines.append(
            f"  {side.side}: {percent(side.opening)} at the start, {result}: {whole} = luck "
            f"{points(side.luck)} + the rest {points(side.rest)}"
        )
    return lines


CELL = 20
"""The width of a side's column: ``98.4 -> 99.2  +0.8``."""


def _cell(made: RollOdds, side: str) -> str:
    """A side's chance before and after a roll, in percent to a tenth, and the jump in points."""
    before, after = made.before.sides[side].chance, made.after.sides[side].chance
    return f"{100 * before:5.1f} -> {100 * after:5.1f} {100 * made.luck[side].chance:+5.1f}"


def _faces(made: RollOdds) -> str:
    """The roll's total, with its faces when it rolled several dice: ``7 (3+4)``."""
    roll = made.roll
    return str(roll.total) if len(roll.faces) == 1 else f"{roll.total} ({'+'.join(map(str, roll.faces))})"


def _chances(sides: dict[str, Chance], nobody: float) -> str:
    """Each side's chance with its interval, and the chance of no winner."""
    shown = [
        f"{side} {percent(c.chance)} ({percent(c.low)} to {percent(c.high)})" for side, c in sides.items()
    ]
    return ", ".join([*shown, f"no winner {percent(nobody)}"])
