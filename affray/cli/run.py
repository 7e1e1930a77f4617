"""``affray run`` and ``affray heal``: simulate, and write a log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import msgspec

from affray import rulesets, stops, stores
from affray.cli.command import (
    LOG,
    SEED,
    Interrupted,
    a_log_file,
    encounter_place,
    refuse_overwriting,
    tell_notes,
)
from affray.cli.group import cli, short_help_of
from affray.cli.terminal import one_line
from affray.errors import AffrayError
from affray.events.codec import LogHeader, LogWriter
from affray.kernel import fairseed
from affray.kernel.encounter import Encounter
from affray.kernel.ruleset import Battle, Ruleset
from affray.replays.export import outcome, tallies
from affray.stores import LogStore


def record(
    battle: Battle,
    header: LogHeader,
    output: LogStore,
    *,
    force: bool,
    trace: bool,
    what: object,
    last: bool = True,
) -> Encounter[Any]:
    """Simulate ``battle`` into a log at ``output`` (a file or a campaign's encounter) with ``header``,
    keeping no log in memory. A run that fails or is interrupted keeps what it wrote beside ``output`` and
    says where (errors name ``what``). ``last``: the log is the command's last output, so once the fight
    is over a stop no longer cuts the command short (affray.stops.finishing)."""
    writer: LogWriter | None = None
    try:
        with stops.held():  # a stop while the log is begun comes once it is, and is kept
            writer = stores.log_writer(output, header, replace=force)
        tell_notes(writer.notices())
        encounter = battle.run(sinks=[writer.write], trace=trace, keep_log=False)
    except AffrayError as exc:
        if writer is None:
            raise
        kept = _kept(writer)
        raise AffrayError(f"{what}: {exc}" + (f" ({kept})" if kept else "")) from None
    except KeyboardInterrupt:
        if writer is None:
            raise
        raise Interrupted(_kept(writer, stopped=True)) from None
    except BaseException:
        if writer is not None:
            writer.abandon()
        raise
    if last:
        stops.finishing()
    writer.close()
    tell_notes(writer.notices())
    return encounter


def _kept(writer: LogWriter, *, stopped: bool = False) -> str:
    """Where the log of a failed or ``stopped`` run is kept, in words ("" when a failed run held no
    event, and is not kept; a stopped run keeps its header at least)."""
    kept = writer.abandon(keep_empty=stopped)
    return f"the log so far is kept in {kept}" if kept is not None else ""


@cli.command(short_help=short_help_of("run"))
@click.argument("scenario", type=click.Path(path_type=Path, dir_okay=True))
@click.option(
    "-o", "--output", type=LOG, required=True, help="Log file to write, or a campaign (campaign.sqlite)."
)
@click.option(
    "--encounter",
    help="The encounter's name in a campaign OUTPUT (default: the scenario file's name without .toml).",
)
@click.option("--force", is_flag=True, help="Replace OUTPUT (or the campaign's encounter) if it exists.")
@click.option(
    "--seed",
    type=SEED,
    help="Fight with this seed instead of the scenario's (a run of `affray battle`, say).",
)
@click.pass_context
def run(
    ctx: click.Context, scenario: Path, output: LogStore, encounter: str | None, force: bool, seed: int | None
) -> None:
    """Simulate SCENARIO (a TOML file) and write its event log to OUTPUT: a log file, or an encounter of a
    campaign (``-o campaign.sqlite --encounter NAME``, or ``-o campaign.sqlite#NAME``).

    A scenario is code you run: controllers of your own it names (package.module:factory) are imported
    from SCENARIO's folder, and only from there (docs/controllers.md)."""
    output = encounter_place(output, encounter, scenario.stem)
    ruleset, spec = rulesets.load_scenario(scenario)
    if seed is not None:
        if getattr(spec, "fair_seed", msgspec.UNSET) is not msgspec.UNSET:
            raise AffrayError(
                f"--seed: {scenario}'s seed comes from its [fair_seed]; no one party may choose it"
            )
        spec = msgspec.structs.replace(spec, seed=seed)
    if fairseed.unbound(spec):
        click.echo(f"warning: {scenario}: {fairseed.UNBOUND}", err=True)
    named = {scenario.parent / name: f"{name}, a file the scenario names" for name in ruleset.files(spec)}
    refuse_overwriting(output.file, {scenario: "the scenario", **named})
    try:
        battle = ruleset.battle(spec)
    except AffrayError as exc:
        raise AffrayError(f"{scenario}: {exc}") from None
    fought = record(
        battle, rulesets.header(ruleset, spec), output, force=force, trace=ctx.obj["verbose"], what=scenario
    )
    source = fought.dice.source
    for notice in battle.notices():
        click.echo(f"note: {scenario}: {notice}", err=True)
    unused = source.unused()
    if unused:
        click.echo(f"warning: {scenario}: {unused}", err=True)
    tell_warnings(scenario, fought)
    summarize(ruleset, fought, spec.name or scenario.stem, output)


def tell_warnings(scenario: Path, encounter: Encounter[Any]) -> None:
    """What the run of ``scenario`` has to tell once it is over (``Encounter.warnings``: a ruling on
    special damage never used, S10), a line each on stderr."""
    for warning in encounter.warnings:
        click.echo(f"warning: {scenario}: {warning}", err=True)


def summarize(ruleset: Ruleset[Any, Any], encounter: Encounter[Any], name: str, output: LogStore) -> None:
    """Who won, when and why, and what each combatant dealt and took."""
    state = encounter.state
    click.echo(one_line(f"{name}: {outcome(state)}; {encounter.count} events -> {output}"))
    for tally in tallies(state, ruleset.display):
        click.echo(one_line(tally.line()))


@cli.command(short_help=short_help_of("heal"))
@click.argument("log", type=LOG)
@click.option(
    "--days", type=click.IntRange(min=1, max=3650), required=True, help="Days of healing and repair."
)
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Healed log to write.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@click.pass_context
def heal(ctx: click.Context, log: LogStore, days: int, output: Path, force: bool) -> None:
    """Continue LOG's clock past the fight for DAYS: special damage heals, robots are repaired (S7, S8).

    The fight must re-simulate exactly; OUTPUT holds the fight and its aftermath, and verifies. The
    decisions of combatants played by code outside affray are taken from LOG, as verify takes them: no
    code the log names is imported (an aftermath needs no new decisions).
    """
    a_log_file(output)
    refuse_overwriting(output, {log.file: "the log to heal"})
    loaded = stores.read_place(log, rulesets.vocabulary_for)
    if loaded.problem is not None:
        p = loaded.problem
        raise AffrayError(
            f"{log}: {p.where()}: {p.message}; heal needs a whole log (affray verify tells more)"
        )
    recorded = rulesets.recorded(loaded.header, str(log))
    aftermath = next((m.aftermath for m in recorded.modules if m.aftermath is not None), None)
    if aftermath is None:
        healing = [name for name in recorded.ruleset.modules if rulesets.module(name).aftermath is not None]
        listed = ", ".join(f'"{name}"' for name in healing)
        wanted = f"modules = [{listed}]" if healing else "a module with an aftermath"
        raise AffrayError(f"{log}: nothing heals: the scenario does not use {wanted}")
    if any(aftermath.started_by(event) is not None for event in loaded.events):
        raise AffrayError(f"{log}: the log already holds an aftermath")
    from affray.replays.verify import Comparison, Mismatch

    battle = recorded.battle()
    comparison = Comparison(loaded.events)
    battle.replay_decisions(comparison.peek)  # the fight's own decisions: no controller's code is run
    try:
        encounter = battle.run(sinks=[comparison], trace=ctx.obj["verbose"])
        comparison.finish()
    except Mismatch as mismatch:
        raise AffrayError(
            f"{log}: {mismatch.where} does not re-simulate ({mismatch.message}); affray verify tells more"
        ) from None
    encounter.sinks.remove(comparison)
    start = len(encounter.log)
    aftermath.run(encounter, battle, days)
    writer = LogWriter.create(output, loaded.header, replace=force)
    try:  # from the first call on: a stop while the notices are told still cleans up
        tell_notes(writer.notices())
        for event in encounter.log:
            writer.write(event)
    except BaseException:
        writer.abandon()
        raise
    stops.finishing()
    writer.close()
    tell_notes(writer.notices())
    done = aftermath.summary(encounter.log[start:])
    click.echo(f"{log}: {days} days later, {done}; {len(encounter.log)} events -> {output}")
