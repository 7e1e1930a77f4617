"""``affray replay`` and ``affray state``: tell a log, or show the state at a moment, reading as they go."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import click

from affray import rulesets
from affray.cli.command import LOG, open_log_arg, warn_if_broken
from affray.cli.group import cli, short_help_of
from affray.cli.terminal import echo_lines
from affray.errors import AffrayError, excerpt
from affray.events.reader import LogReader
from affray.kernel.clock import game_time, parse_game_time
from affray.kernel.fold import FoldError, encode_state
from affray.kernel.ruleset import Reading
from affray.replays import export, snapshots
from affray.replays.narrate import narrate, tell
from affray.replays.rebuild import Rebuilt, fold_until
from affray.replays.show import show_state
from affray.stores import LogStore

FORMATS = ("text", "markdown", "json")
"""``affray replay --format``: the telling for a terminal, Markdown for a chat or a wiki, JSON Lines for
tools (affray.replays.export)."""


@cli.command(short_help=short_help_of("replay"))
@click.argument("log", type=LOG)
@click.option(
    "--format",
    "form",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="text: a line per event; markdown: a table per round or 10 s, then the outcome; json: JSON Lines.",
)
def replay(log: LogStore, form: str) -> None:
    """Tell the fight recorded in LOG, one line per event, as it is read (or export it: --format)."""
    with open_log_arg(log) as reader:
        reading = rulesets.reading(reader.header, str(log))
        try:
            echo_lines(_told(form, log, reader, reading))
        except FoldError as exc:
            raise AffrayError(f"{log}: {exc} (affray verify tells more)") from None
        warn_if_broken(reader, log, "told")


def _told(form: str, log: LogStore, reader: LogReader, reading: Reading) -> Iterator[str]:
    """The lines of ``replay`` in format ``form``."""
    header, vocabulary, tellers = reader.header, reader.vocabulary, reading.tellers()
    if form == "markdown":
        heading = export.title(header, export.scenario_name(header) or log.name)
        told = tell(reader, vocabulary, tellers)
        ruleset = reading.ruleset
        return export.markdown(heading, told, vocabulary, ruleset.display, in_rounds=ruleset.in_rounds)
    if form == "json":
        return export.json_lines(tell(reader, vocabulary, tellers))
    text_heading = f"{log}: ruleset {header.ruleset} v{header.ruleset_version}, seed {header.seed}"
    return itertools.chain([text_heading], narrate(reader, vocabulary, tellers))


@cli.command(short_help=short_help_of("state"))
@click.argument("log", type=LOG)
@click.option("--at", "at_time", type=str, help="Game time: seconds (12.5) or with units (30d, 2h 15min).")
@click.option("--seq", type=click.IntRange(min=0), help="Event number.")
@click.option("--json", "as_json", is_flag=True, help="Print the state as JSON.")
def state(log: LogStore, at_time: str | None, seq: int | None, as_json: bool) -> None:
    """Show every combatant's state in LOG at a moment (--at TIME or --seq N; default: the end).

    The log is read up to that moment only, from the last snapshot before it when there is one: the
    first time a long log (8,192 events or more) is read far, its snapshots are kept in the user's cache,
    and every later moment is shown in milliseconds (docs/log-format.md, "Snapshots").
    """
    if at_time is not None and seq is not None:
        raise AffrayError("--at and --seq: give one of them, not both")
    moment = None if at_time is None else _moment(at_time)
    with open_log_arg(log, folding=True) as reader:
        try:
            rebuilt = _rebuilt(log, reader, seq, moment)
        except FoldError as exc:
            raise AffrayError(f"{log}: {exc} (affray verify tells more)") from None
        warn_if_broken(reader, log, "folded")
        reading = rulesets.reading(reader.header, str(log))
        stock = reading.ruleset.display.stock(reader.header.scenario)
    current = rebuilt.state
    if not rebuilt.reached and seq is not None and seq > rebuilt.count:
        raise AffrayError(f"--seq {excerpt(str(seq))}: {log} holds seq 0 to {rebuilt.count}")
    if not rebuilt.reached and moment is not None and moment > rebuilt.last_t:
        raise AffrayError(f"--at {excerpt(at_time or '')!r}: the log ends at {game_time(rebuilt.last_t)}")
    if as_json:
        click.echo(encode_state(current).decode())
        return
    echo_lines(show_state(current, moment, reading, stock))


def _rebuilt(log: LogStore, reader: LogReader, seq: int | None, moment: int | None) -> Rebuilt:
    """The state at the moment: from the last snapshot before it, if the log's are kept; else from the
    start, and a long log read far has its snapshots kept for the next time."""
    file = log.own_file
    if file is None:  # snapshots are kept beside a log's own file
        return fold_until(reader, reader.vocabulary, seq=seq, t_ms=moment)
    resumed = snapshots.resume(file, reader, rulesets.reading(reader.header, str(log)), seq=seq, t_ms=moment)
    if resumed is not None:
        at = resumed.at
        start = Rebuilt(state=resumed.state, reached=False, count=at.seq, last_t=at.t)
        return fold_until(reader, reader.vocabulary, seq=seq, t_ms=moment, start=start)
    rebuilt = fold_until(reader, reader.vocabulary, seq=seq, t_ms=moment)
    if rebuilt.count >= snapshots.WORTH_IT:
        snapshots.keep(file, rulesets.reading)
    return rebuilt


def _moment(text: str) -> int:
    """``--at`` to milliseconds."""
    try:
        return parse_game_time(text)
    except ValueError:
        raise AffrayError(
            f"--at {excerpt(text)!r}: expected seconds (12.5) or a time with units (30d, 2h 15min)"
        ) from None
