"""The ``affray`` command: run scenarios, replay and inspect logs, verify them."""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import click
import structlog

from affray import __version__, rulesets
from affray.errors import AffrayError, LogError
from affray.events.codec import MAX_LINE_BYTES, LogWriter
from affray.events.reader import LogReader, open_log, read_log
from affray.kernel.clock import game_time, parse_game_time
from affray.kernel.dice import ManualDice
from affray.kernel.fold import FoldError, encode_state
from affray.kernel.ruleset import Module, Ruleset
from affray.kernel.tables import TABLE_ENCODER, RulesTable, table_record, table_summary
from affray.names import name_key
from affray.replays.narrate import narrate
from affray.replays.rebuild import fold_until
from affray.replays.show import show_state
from affray.replays.telling import number
from affray.replays.verify import Comparison, Mismatch, verify

EXIT_USER_ERROR = 2
EXIT_VERIFY_FAILED = 1
EXIT_INTERRUPTED = 130
"""128 + SIGINT, as shells report a command stopped by Ctrl-C."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, with what became of the command's output."""


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
@click.option(
    "-v",
    "--verbose",
    is_flag=True,
    help="Log the kernel's steps (seq, game time, kind) to stderr while simulating: run, heal, verify.",
)
@click.pass_context
def cli(ctx: click.Context, verbose: bool) -> None:
    """affray: simulate, record, replay and verify tabletop combat."""
    _configure_logging(verbose)
    ctx.obj = {"verbose": verbose}


def _open(path: Path, *, canonical: bool = False) -> LogReader:
    return open_log(path, rulesets.vocabulary_for, canonical=canonical)


def _warn_if_broken(reader: LogReader, path: Path, done: str) -> None:
    """The one warning for a log shown up to a cut or a broken line (``done``: what was done to the
    events before it, "told" or "folded")."""
    p = reader.problem
    if p is None:
        return
    if "cut short" in p.message:
        shown = f"{p.message}; {done} the {reader.count} complete events"
    else:
        shown = f"{p.where()}: {p.message}; {done} the {reader.count} events before it"
    click.echo(f"warning: {path}: {shown} (affray verify tells more)", err=True)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def _refuse_overwriting(output: Path, inputs: Mapping[Path, str]) -> None:
    """An output that is one of the command's own inputs is refused, ``--force`` or not."""
    for given, what in inputs.items():
        if _same_file(output, given):
            raise AffrayError(f"-o {output}: that is {what}; write the output to another file")


@cli.command()
@click.argument("scenario", type=click.Path(path_type=Path, dir_okay=True))
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Log file to write.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@click.pass_context
def run(ctx: click.Context, scenario: Path, output: Path, force: bool) -> None:
    """Simulate SCENARIO (a TOML file) and write its event log to OUTPUT."""
    ruleset, spec = rulesets.load_scenario(scenario)
    named = {scenario.parent / name: f"{name}, a file the scenario names" for name in ruleset.files(spec)}
    _refuse_overwriting(output, {scenario: "the scenario", **named})
    try:
        battle = ruleset.battle(spec)
    except AffrayError as exc:
        raise AffrayError(f"{scenario}: {exc}") from None
    writer = LogWriter.create(output, ruleset.header(spec), replace=force)
    try:
        encounter = battle.run(sinks=[writer.write], trace=ctx.obj["verbose"], keep_log=False)
    except AffrayError as exc:
        raise AffrayError(f"{scenario}: {exc} (the log so far is kept in {writer.abandon()})") from None
    except KeyboardInterrupt:
        raise Interrupted(f"the log so far is kept in {writer.abandon()}") from None
    except BaseException:
        writer.abandon()
        raise
    writer.close()
    source = encounter.dice.source
    for notice in battle.notices():
        click.echo(f"note: {scenario}: {notice}", err=True)
    if isinstance(source, ManualDice) and source.unused:
        click.echo(
            f"warning: {scenario}: {source.unused} of the manual rolls ($.dice.rolls) were not used", err=True
        )
    state = encounter.state
    name = spec.name or scenario.stem
    winner = f"side {state.winner} wins" if state.winner else "no winner"
    click.echo(
        f"{name}: {winner} at {game_time(state.t)} ({state.end_reason}); {encounter.count} events -> {output}"
    )
    display = ruleset.display
    for c in state.combatants.values():
        status = f"out ({c.out_reason})" if c.out else "standing"
        click.echo(
            f"  {c.id:<12} {c.side:<10} dealt {number(c.damage_dealt):>7} in {c.hits}/{c.attacks} hits; "
            f"{display.harm(c)}; {status}"
        )


@cli.command()
@click.argument("log", type=click.Path(path_type=Path))
def replay(log: Path) -> None:
    """Tell the fight recorded in LOG, one line per event, as it is read."""
    with _open(log) as reader:
        header = reader.header
        tellers = rulesets.reading(header, str(log)).tellers()
        click.echo(f"{log}: ruleset {header.ruleset} v{header.ruleset_version}, seed {header.seed}")
        try:
            for line in narrate(reader, reader.vocabulary, tellers):
                click.echo(line)
        except FoldError as exc:
            raise AffrayError(f"{log}: {exc} (affray verify tells more)") from None
        _warn_if_broken(reader, log, "told")


@cli.command()
@click.argument("log", type=click.Path(path_type=Path))
@click.option("--at", "at_time", type=str, help="Game time: seconds (12.5) or with units (30d, 2h 15min).")
@click.option("--seq", type=click.IntRange(min=0), help="Event number.")
@click.option("--json", "as_json", is_flag=True, help="Print the state as JSON.")
def state(log: Path, at_time: str | None, seq: int | None, as_json: bool) -> None:
    """Show every combatant's state in LOG at a moment (--at TIME or --seq N; default: the end).

    The log is read up to that moment only.
    """
    if at_time is not None and seq is not None:
        raise AffrayError("--at and --seq: give one of them, not both")
    moment = None if at_time is None else _moment(at_time)
    with _open(log) as reader:
        try:
            rebuilt = fold_until(reader, reader.vocabulary, seq=seq, t_ms=moment)
        except FoldError as exc:
            raise AffrayError(f"{log}: {exc} (affray verify tells more)") from None
        _warn_if_broken(reader, log, "folded")
        reading = rulesets.reading(reader.header, str(log))
    current = rebuilt.state
    if not rebuilt.reached and seq is not None and seq > rebuilt.count:
        raise AffrayError(f"--seq {seq}: {log} holds seq 0 to {rebuilt.count}")
    if not rebuilt.reached and moment is not None and moment > rebuilt.last_t:
        raise AffrayError(f"--at {at_time!r}: the log ends at {game_time(rebuilt.last_t)}")
    if as_json:
        click.echo(encode_state(current).decode())
        return
    for line in show_state(current, moment, reading):
        click.echo(line)


def _moment(text: str) -> int:
    """``--at`` to milliseconds."""
    try:
        return parse_game_time(text)
    except ValueError:
        raise AffrayError(
            f"--at {text!r}: expected seconds (12.5) or a time with units (30d, 2h 15min)"
        ) from None


@cli.command()
@click.argument("log", type=click.Path(path_type=Path))
@click.option(
    "--days", type=click.IntRange(min=1, max=3650), required=True, help="Days of healing and repair."
)
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Healed log to write.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@click.pass_context
def heal(ctx: click.Context, log: Path, days: int, output: Path, force: bool) -> None:
    """Continue LOG's clock past the fight for DAYS: special damage heals, robots are repaired (S7, S8).

    The fight must re-simulate exactly; OUTPUT holds the fight and its aftermath, and verifies.
    """
    _refuse_overwriting(output, {log: "the log to heal"})
    loaded = read_log(log, rulesets.vocabulary_for)
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
    battle = recorded.battle()
    comparison = Comparison(loaded.header_line, loaded.events)
    try:
        encounter = battle.run(sinks=[comparison], trace=ctx.obj["verbose"])
        comparison.finish()
    except Mismatch as found:
        raise AffrayError(
            f"{log}: {found.where} does not re-simulate ({found.message}); affray verify tells more"
        ) from None
    encounter.sinks.remove(comparison)
    start = len(encounter.log)
    aftermath.run(encounter, battle, days)
    writer = LogWriter.create(output, loaded.header, replace=force)
    try:
        for event in encounter.log:
            writer.write(event)
    except BaseException:
        writer.abandon()
        raise
    writer.close()
    done = aftermath.summary(encounter.log[start:])
    click.echo(f"{log}: {days} days later, {done}; {len(encounter.log)} events -> {output}")


def _holds_events(path: Path) -> bool:
    """Whether the line after an unreadable first line is an event line: a log whose header was damaged."""
    try:
        with path.open("rb") as stream:
            first = stream.readline(1 << 16)
            while first and not first.endswith(b"\n"):
                first = stream.readline(1 << 16)
            second = stream.readline(MAX_LINE_BYTES)
    except OSError:
        return False
    return second.startswith(b'{"kind":') and b'"prev":"' in second


@cli.command(name="verify")
@click.argument("log", type=click.Path(path_type=Path))
@click.pass_context
def verify_command(ctx: click.Context, log: Path) -> None:
    """Check LOG's hash chain, fold it, re-simulate its scenario and compare event by event.

    Exit 0 when everything holds, 1 naming the first seq that breaks or differs.
    """
    try:
        reader = _open(log, canonical=True)
    except LogError as exc:
        if not _holds_events(log):
            raise
        why = re.sub(r"^line 1(?: \(header\))?:? ", "", str(exc).removeprefix(f"{log}: "))
        click.echo(f"FAILED: {log}: line 1 (header): {why}")
        sys.exit(EXIT_VERIFY_FAILED)
    with reader:
        verdict = verify(reader, lambda: rulesets.recorded(reader.header, str(log)), trace=ctx.obj["verbose"])
    if verdict.ok:
        click.echo(
            f"ok: {log}: {verdict.events} events chain, fold and re-simulate identically "
            f"(final state {verdict.final_digest})"
        )
        return
    where = f"{verdict.where}: " if verdict.where else ""
    click.echo(f"FAILED: {log}: {where}{verdict.message}")
    sys.exit(EXIT_VERIFY_FAILED)


def _owners() -> list[Ruleset | Module]:
    return [
        *(rulesets.ruleset(name) for name in rulesets.ruleset_names()),
        *(rulesets.module(name) for name in rulesets.module_names()),
    ]


def _owner(name: str) -> Ruleset | Module:
    owners = {owner.name: owner for owner in _owners()}
    if name not in owners:
        raise AffrayError(f"no ruleset or module {name!r}; there are: {', '.join(owners)}")
    return owners[name]


def _rules(table: RulesTable) -> str:
    return f"rules {table.rules}" if "," in table.rules or "-" in table.rules else f"rule {table.rules}"


def _catalogue(owners: Sequence[Ruleset | Module], as_json: bool) -> None:
    if as_json:
        listed = [
            {
                "name": owner.name,
                "kind": "ruleset" if isinstance(owner, Ruleset) else "module",
                "version": owner.version,
                "description": owner.description,
                "tables": [table_summary(table) for table in owner.tables()],
            }
            for owner in owners
        ]
        click.echo(TABLE_ENCODER.encode(listed).decode())
        return
    for owner in owners:
        kind = "ruleset" if isinstance(owner, Ruleset) else "module"
        click.echo(f"{owner.name} ({kind} v{owner.version}): {owner.description}")
        for table in owner.tables():
            click.echo(f"  {table.name:<15} {table.title} ({len(table.rows)} rows; {_rules(table)})")
    click.echo(
        "affray rules NAME TABLE shows a table; affray rules NAME TABLE ENTRY the rows named like ENTRY"
    )


def _show_tables(owner: Ruleset | Module, shown: Sequence[RulesTable], as_json: bool) -> None:
    if as_json:
        click.echo(TABLE_ENCODER.encode([table_record(owner.name, table) for table in shown]).decode())
        return
    for index, table in enumerate(shown):
        if index:
            click.echo("")
        click.echo(f"{owner.name} {table.name}: {table.title} ({_rules(table)}; {table.source})")
        for line in table.lines():
            click.echo(line)


def _entries(query: str, tables: Sequence[RulesTable]) -> list[RulesTable]:
    found = [table.matching(query) for table in tables]
    return [table for table in found if table.rows]


@cli.command()
@click.argument("name", required=False)
@click.argument("table", required=False)
@click.argument("entry", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def rules(name: str | None, table: str | None, entry: str | None, as_json: bool) -> None:
    """List the rulesets' and modules' tables, show one (TABLE), or the rows named like ENTRY.

    A TABLE that is no table's name is looked up as an entry in every table of NAME: affray rules
    energion Longbow shows the long bows of the weapon chart.
    """
    if name is None:
        _catalogue(_owners(), as_json)
        return
    owner = _owner(name)
    tables = list(owner.tables())
    if table is None:
        _catalogue([owner], as_json)
        return
    named = {name_key(t.name): t for t in tables}
    chosen = named.get(name_key(table))
    listing = ", ".join(t.name for t in tables) or "none"
    if chosen is None:
        found = _entries(table, tables) if entry is None else []
        if not found:
            raise AffrayError(f"{owner.name}: no table or entry {table!r}; its tables: {listing}")
        _show_tables(owner, found, as_json)
        return
    if entry is None:
        _show_tables(owner, [chosen], as_json)
        return
    found = _entries(entry, [chosen])
    if not found:
        raise AffrayError(
            f"{owner.name} {chosen.name}: nothing is named like {entry!r} "
            f"(affray rules {owner.name} {chosen.name} lists every row)"
        )
    _show_tables(owner, found, as_json)


def main(argv: list[str] | None = None) -> None:
    """Entry point: one ``error:`` line and exit 2 for any user error, never a traceback."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        commands = ", ".join(sorted(cli.commands))
        click.echo(
            f"error: no command given; the commands are {commands} (affray --help tells more)", err=True
        )
        sys.exit(EXIT_USER_ERROR)
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
    except KeyboardInterrupt as exc:
        detail = f"; {exc}" if str(exc) else ""
        click.echo(f"interrupted{detail}", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except BrokenPipeError:
        # The reader went away (``affray replay LOG | head``): not an error. Point stdout at devnull so
        # the interpreter's final flush does not complain.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)


if __name__ == "__main__":
    main()
