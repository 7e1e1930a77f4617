"""The ``affray`` command: run scenarios, replay and inspect logs, verify them."""

from __future__ import annotations

import logging
import os
import sys
from decimal import Decimal
from pathlib import Path

import click
import structlog

from affray import __version__
from affray.errors import AffrayError, LogError
from affray.events.codec import LogFile, LogWriter, read_log
from affray.events.special import (
    AftermathStarted,
    Healed,
    HealingScheduled,
)
from affray.handlers.aftermath import run_aftermath
from affray.handlers.fivestep.battle import FivestepBattle
from affray.kernel.clock import seconds, to_ms
from affray.kernel.dice import ManualDice
from affray.kernel.state import CombatantState, EncounterState, digest, encode_state, fold
from affray.replays.narrate import narrate
from affray.replays.rebuild import state_at_seq, state_at_time
from affray.replays.telling import number
from affray.replays.verify import first_difference, scenario_of, verify
from affray.rulesets import battle_for, load_any

EXIT_USER_ERROR = 2
EXIT_VERIFY_FAILED = 1
MAX_SECONDS = 86400


def _configure_logging(verbose: bool) -> None:
    """structlog to stderr: the kernel's steps at debug level with ``--verbose``, else warnings only."""
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.dev.ConsoleRenderer(colors=False),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.DEBUG if verbose else logging.WARNING),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="affray")
@click.option("-v", "--verbose", is_flag=True, help="Log the kernel's steps (seq, game time) to stderr.")
@click.pass_context
def cli(ctx: click.Context, verbose: bool) -> None:
    """affray: simulate, record, replay and verify tabletop combat."""
    _configure_logging(verbose)
    ctx.obj = {"verbose": verbose}


def _load(path: Path) -> LogFile:
    log = read_log(path)
    if log.problem is not None:
        p = log.problem
        if "cut short" in p.message:
            click.echo(
                f"warning: {path}: {p.message}; showing the {len(log.events)} complete events",
                err=True,
            )
        else:
            raise AffrayError(f"{path}: {p.where()}: {p.message} (affray verify tells more)")
    try:
        fold(log.events)
    except LogError as exc:
        raise LogError(f"{path}: {exc}") from None
    return log


@cli.command()
@click.argument("scenario", type=click.Path(path_type=Path, dir_okay=True))
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Log file to write.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@click.pass_context
def run(ctx: click.Context, scenario: Path, output: Path, force: bool) -> None:
    """Simulate SCENARIO (a TOML file) and write its event log to OUTPUT."""
    spec = load_any(scenario)
    try:
        battle = battle_for(spec)
    except AffrayError as exc:
        raise AffrayError(f"{scenario}: {exc}") from None
    writer = LogWriter.create(output, battle.header(), replace=force)
    try:
        encounter = battle.run(sinks=[writer.write], trace=ctx.obj["verbose"])
    except AffrayError as exc:
        writer.abandon()
        raise AffrayError(f"{scenario}: {exc} (the log so far is kept in {output})") from None
    except BaseException:
        writer.abandon()
        raise
    writer.close()
    source = encounter.dice.source
    if isinstance(battle, FivestepBattle) and battle.tables.examples:
        click.echo(
            f"note: {scenario}: Tables {', '.join(battle.tables.examples)} are invented example data "
            "(example = true), not the rules",
            err=True,
        )
    if isinstance(source, ManualDice) and source.unused:
        click.echo(
            f"warning: {scenario}: {source.unused} of the manual rolls ($.dice.rolls) were not used", err=True
        )
    state = encounter.state
    name = battle.scenario.name or scenario.stem
    winner = f"side {state.winner} wins" if state.winner else "no winner"
    click.echo(
        f"{name}: {winner} at {seconds(state.t)} s ({state.end_reason}); "
        f"{len(encounter.log)} events -> {output}"
    )
    for c in state.combatants.values():
        status = f"out ({c.out_reason})" if c.out else "standing"
        click.echo(
            f"  {c.id:<12} {c.side:<10} dealt {number(c.damage_dealt):>7} in {c.hits}/{c.attacks} hits; "
            f"took {number(c.damage_taken):>7} of {number(c.damage_points)} DP; {status}"
        )


@cli.command()
@click.argument("log", type=click.Path(path_type=Path))
def replay(log: Path) -> None:
    """Tell the fight recorded in LOG, one line per event."""
    loaded = _load(log)
    header = loaded.header
    click.echo(
        f"{log}: ruleset {header.ruleset} v{header.ruleset_version}, seed {header.seed}, "
        f"{len(loaded.events)} events"
    )
    for line in narrate(loaded.events):
        click.echo(line)


@cli.command()
@click.argument("log", type=click.Path(path_type=Path))
@click.option("--at", "at_seconds", type=str, help="Game time in seconds, e.g. 12.5.")
@click.option("--seq", type=click.IntRange(min=0), help="Event number.")
@click.option("--json", "as_json", is_flag=True, help="Print the state as JSON.")
def state(log: Path, at_seconds: str | None, seq: int | None, as_json: bool) -> None:
    """Show every combatant's state in LOG at a moment (--at SECONDS or --seq N; default: the end)."""
    if at_seconds is not None and seq is not None:
        raise AffrayError("--at and --seq: give one of them, not both")
    loaded = _load(log)
    events = loaded.events
    moment = None
    if seq is not None:
        if seq > len(events):
            raise AffrayError(f"--seq {seq}: {log} holds seq 0 to {len(events)}")
        current = state_at_seq(events, seq)
    elif at_seconds is not None:
        moment = _milliseconds(at_seconds)
        current = state_at_time(events, moment)
    else:
        current = state_at_seq(events, len(events))
    if as_json:
        click.echo(encode_state(current).decode())
        return
    _print_state(current, moment)


def _milliseconds(text: str) -> int:
    """``--at`` seconds to milliseconds; anything but a time from 0 to a day is an error."""
    try:
        moment = Decimal(text)
    except ArithmeticError:
        raise AffrayError(f"--at {text!r}: expected seconds, e.g. 12.5") from None
    if not moment.is_finite() or not 0 <= moment <= MAX_SECONDS:
        raise AffrayError(f"--at {text!r}: expected a time from 0 to {MAX_SECONDS} seconds")
    return to_ms(moment)


def _print_state(s: EncounterState, moment: int | None) -> None:
    over = f"; ended: {s.end_reason}" if s.ended else ""
    if moment is None:
        when = f"after seq {s.seq}, at {seconds(s.t)} s"
    else:
        when = f"at {seconds(moment)} s (the last event before it: seq {s.seq} at {seconds(s.t)} s)"
    click.echo(f"{when}{over}; state digest {digest(s)}")
    if s.fivestep is not None and s.fivestep.round:
        order = f"; order {', '.join(s.fivestep.order)}" if s.fivestep.order else ""
        click.echo(f"  round {s.fivestep.round}: acting {', '.join(s.fivestep.acting) or 'nobody'}{order}")
    click.echo(f"  {'id':<12} {'side':<10} {'DP left':>12} {'position':>18}  {'status':<30} target")
    now = moment if moment is not None else s.t
    for c in s.combatants.values():
        if c.out:
            status = f"out: {c.out_reason}"
        elif c.deactivated:
            status = "deactivated"
        elif c.unconscious_until_ms is not None and now < c.unconscious_until_ms:
            status = f"unconscious until {seconds(c.unconscious_until_ms)} s"
        elif c.stunned_until_ms is not None and now < c.stunned_until_ms:
            status = f"stunned until {seconds(c.stunned_until_ms)} s"
        elif c.held_by is not None:
            status = f"held by {c.held_by} ({c.hold})"
        elif c.holding is not None:
            status = f"holding {c.holding} ({c.hold})"
        elif c.turn is not None:
            t = c.turn
            piece = f", sub-turn {t.piece}/{t.pieces}" if t.pieces > 1 else ""
            status = "no-move turn" if t.no_move else f"{t.available} AP left (round {t.round}{piece})"
        elif c.parts:
            status = "waiting for its turn"
        elif c.casting is not None:
            status = f"casting {c.casting}"
        elif c.weapon_ready:
            status = f"fighting with {c.weapon}"
        elif c.reacted:
            status = "readying weapon"
        elif c.perceived:
            status = "reacting"
        else:
            status = "unaware"
        where = f"({number(c.position[0])}, {number(c.position[1])})"
        left = f"{number(c.damage_left)}/{number(c.damage_points)}"
        click.echo(f"  {c.id:<12} {c.side:<10} {left:>12} {where:>18}  {status:<30} {c.target or '-'}")
        for line in _afflictions(c):
            click.echo(f"  {'':<12} {line}")


def _afflictions(c: CombatantState) -> list[str]:
    """What special damage, disabled locations and lost equipment leave on a combatant, one line each."""
    if c.parts:
        wounds = [
            f"{part} {number(taken)}/{c.parts[part]}" + (" (no function)" if taken >= c.parts[part] else "")
            for part, taken in c.location_damage.items()
        ]
        lines = [f"wounds: {', '.join(wounds)}"] if wounds else []
    else:
        lines = [f"disabled: {part}" for part in c.disabled]
    for injury in c.injuries:
        effects = [
            f"{injury.to_hit:+d} to hit" if injury.to_hit else "",
            f"{number(injury.movement)} m/s" if injury.movement else "",
            f"at most {number(injury.movement_max)} m/s" if injury.movement_max is not None else "",
            "cannot move" if injury.cannot_move else "",
            f"{injury.skills:+d}% skills" if injury.skills else "",
            f"{injury.int_log:+d} INT/LOG" if injury.int_log else "",
            f"{injury.dex_rs:+d} DEX/RS" if injury.dex_rs else "",
            f"{injury.carry_kg:+d} kg carried" if injury.carry_kg else "",
            f"{injury.malfunction_chance}% malfunction" if injury.malfunction_chance else "",
            f"{injury.repair_penalty:+d}% to repair" if injury.repair_penalty else "",
        ]
        listed = ", ".join(e for e in effects if e)
        lines.append(f"injury: {injury.name}" + (f" ({listed})" if listed else ""))
    if c.lost:
        lines.append("lost: " + ", ".join(f"{units} {name}" for name, units in c.lost.items()))
    if c.destroyed_weapons:
        lines.append("weapons destroyed: " + ", ".join(c.destroyed_weapons))
    if c.programs_lost:
        lines.append("programs lost: " + ", ".join(c.programs_lost))
    if c.alarms:
        lines.append("alarms raised: " + ", ".join(c.alarms))
    return lines


@cli.command()
@click.argument("log", type=click.Path(path_type=Path))
@click.option(
    "--days", type=click.IntRange(min=1, max=3650), required=True, help="Days of healing and repair."
)
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Healed log to write.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
def heal(log: Path, days: int, output: Path, force: bool) -> None:
    """Continue LOG's clock past the fight for DAYS: special damage heals, robots are repaired (S7, S8).

    The fight must re-simulate exactly; OUTPUT holds the fight and its aftermath, and verifies.
    """
    loaded = _load(log)
    if not loaded.ended:
        raise AffrayError(f"{log}: the log is cut short; heal needs a whole log")
    if any(isinstance(event, AftermathStarted) for event in loaded.events):
        raise AffrayError(f"{log}: the log already holds an aftermath")
    battle = battle_for(scenario_of(loaded, str(log)))
    if battle.special is None:
        raise AffrayError(f'{log}: nothing heals: the scenario does not use modules = ["special_damage"]')
    encounter = battle.run()
    difference = first_difference(loaded.header_line, loaded.events, encounter.log)
    if difference is not None:
        raise AffrayError(
            f"{log}: seq {difference[0]} does not re-simulate ({difference[1]}); affray verify tells more"
        )
    start = len(encounter.log)
    run_aftermath(encounter, battle, battle.scenario.special_damage, days)
    writer = LogWriter.create(output, loaded.header, replace=force)
    for event in encounter.log:
        writer.write(event)
    writer.close()
    added = encounter.log[start:]
    healed = sum(isinstance(e, Healed) for e in added)
    scheduled = [e for e in added if isinstance(e, HealingScheduled)]
    cost = sum(e.cost for e in scheduled)
    click.echo(
        f"{log}: {days} days later, {healed} of {len(scheduled)} injuries healed or repaired"
        f"{f', {cost} Cr in fees' if cost else ''}; {len(encounter.log)} events -> {output}"
    )


@cli.command(name="verify")
@click.argument("log", type=click.Path(path_type=Path))
def verify_command(log: Path) -> None:
    """Check LOG's hash chain, fold it, re-simulate its scenario and compare event by event.

    Exit 0 when everything holds, 1 naming the first seq that breaks or differs.
    """
    verdict = verify(read_log(log), str(log))
    if verdict.ok:
        click.echo(
            f"ok: {log}: {verdict.events} events chain, fold and re-simulate identically "
            f"(final state {verdict.final_digest})"
        )
        return
    where = f"{verdict.where}: " if verdict.where else ""
    click.echo(f"FAILED: {log}: {where}{verdict.message}")
    sys.exit(EXIT_VERIFY_FAILED)


def main(argv: list[str] | None = None) -> None:
    """Entry point: one ``error:`` line and exit 2 for any user error, never a traceback."""
    args = list(sys.argv[1:] if argv is None else argv) or ["--help"]
    try:
        with cli.make_context("affray", args) as ctx:
            cli.invoke(ctx)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except AffrayError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USER_ERROR)
    except click.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
        click.echo(f"error: {exc.format_message()}{hint}", err=True)
        sys.exit(EXIT_USER_ERROR)
    except click.ClickException as exc:
        click.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(EXIT_USER_ERROR)
    except click.Abort:
        click.echo("error: aborted", err=True)
        sys.exit(EXIT_USER_ERROR)
    except BrokenPipeError:
        # The reader went away (``affray replay LOG | head``): not an error. Point stdout at devnull so
        # the interpreter's final flush does not complain.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)


if __name__ == "__main__":
    main()
