"""``affray explain``: one event of a log laid out as a derivation, with what it depends on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import msgspec

from affray import rulesets
from affray.cli.command import LOG, open_log_arg, warn_if_broken
from affray.cli.group import cli, short_help_of
from affray.cli.terminal import echo_lines
from affray.errors import AffrayError
from affray.events.base import Event
from affray.events.codec import ENCODER
from affray.events.reader import LogReader
from affray.kernel.fold import FoldError
from affray.kernel.ruleset import Reading
from affray.replays import snapshots
from affray.replays.explain import Explaining, RollLuck, tell_explained
from affray.replays.explain import explain as explain_event
from affray.stores import LogStore


@cli.command(short_help=short_help_of("explain"))
@click.argument("log", type=LOG)
@click.argument("seq", type=click.IntRange(min=1))
@click.option("--json", "as_json", is_flag=True, help="Print the derivation as JSON.")
@click.option(
    "--odds",
    "odds_file",
    type=click.Path(path_type=Path),
    help="Show the luck of the event's rolls, from this report of `affray odds LOG -o`.",
)
def explain(log: LogStore, seq: int, as_json: bool, odds_file: Path | None) -> None:
    """Explain event SEQ of LOG: each input, modifier, chart row and roll behind it, with its rule id and
    the arithmetic, and the earlier events it depends on. The log is read no further than SEQ (to its end
    with --odds, whose report must be of the whole log), from the last snapshot before it when there is
    one: the first time a long log is read far, its snapshots are kept in the user's cache, as `affray
    state` keeps them."""
    with open_log_arg(log) as reader:
        reading = rulesets.reading(reader.header, str(log))
        explaining = _from_a_snapshot(log, reader, reading, seq)
        events = iter(reader)
        try:
            explained = explain_event(events, seq, reading, explaining)
        except FoldError as exc:
            raise AffrayError(f"{log}: {exc} (affray verify tells more)") from None
        if explained is None:
            warn_if_broken(reader, log, "read")
            raise AffrayError(f"{log}: no seq {seq}: the log holds seq 1 to {reader.count}")
        if odds_file is not None:
            explained = msgspec.structs.replace(explained, luck=_luck(odds_file, reader, events, log, seq))
    if as_json:
        click.echo(ENCODER.encode(explained).decode())
        return
    echo_lines(tell_explained(explained))


def _from_a_snapshot(log: LogStore, reader: LogReader, reading: Reading, seq: int) -> Explaining | None:
    """The explaining reading from the last snapshot before ``seq`` of a log's own file; a long log read
    that far has its snapshots made first (one reading of the whole log, telling every event)."""
    file = log.own_file
    if file is None:
        return None
    explaining = snapshots.explaining(file, reader, reading, seq=seq - 1, t_ms=None)
    if explaining is None and seq > snapshots.WORTH_IT:
        snapshots.keep(file, rulesets.reading, histories=True)
        explaining = snapshots.explaining(file, reader, reading, seq=seq - 1, t_ms=None)
    return explaining


def _luck(path: Path, reader: LogReader, events: Iterator[Event], log: LogStore, seq: int) -> list[RollLuck]:
    """The luck of event ``seq``'s rolls from the odds report at ``path``, once the log (its ``events``
    read on to its end) is found to be the one the report is of."""
    from affray.cli.odds import read_odds

    for _ in events:  # the end line's hash names the whole log
        pass
    if reader.problem is not None or reader.end_hash is None:
        raise AffrayError(f"--odds {path}: {log} is not whole, and odds are of whole logs")
    report = read_odds(path, reader.end_hash)
    return [
        RollLuck(
            roll=made.roll.key,
            before={side: c.chance for side, c in made.before.sides.items()},
            after={side: c.chance for side, c in made.after.sides.items()},
        )
        for made in report.rolls
        if made.roll.seq == seq
    ]
