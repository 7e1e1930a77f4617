"""``affray view``: a fight as one self-contained HTML page to look at and share."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click
import msgspec

from affray import files, rulesets
from affray.cli.command import LOG, new_output, odds_option, open_log_arg, refuse_broken
from affray.cli.group import cli, short_help_of
from affray.errors import AffrayError
from affray.events.base import Event
from affray.events.reader import LogReader
from affray.kernel.clock import MS_PER_SECOND, game_time
from affray.kernel.fold import FoldError
from affray.kernel.ruleset import Reading
from affray.replays import snapshots
from affray.replays.explain import Explaining
from affray.replays.export import scenario_name
from affray.replays.page import Odds, RollChances, fight, page
from affray.replays.snapshots import Keeper
from affray.stores import LogStore

if TYPE_CHECKING:
    from affray.batch.odds import OddsReport


READ_AHEAD = 4096
"""Events read at a time: decoding a run of them, then showing them, is faster than turn about (0.96 s
against 1.19 s for the page of a 13,866-event fight)."""


@cli.command(short_help=short_help_of("view"))
@click.argument("log", type=LOG)
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), required=True, help="The page: an .html file."
)
@click.option("--from", "start", type=click.FloatRange(min=0), help="Show from this second.")
@click.option("--to", "end", type=click.FloatRange(min=0), help="Show to this second.")
@odds_option
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
def view(
    log: LogStore, output: Path, start: float | None, end: float | None, odds_given: str | None, force: bool
) -> None:
    """Write the fight in LOG as one HTML page to OUTPUT: a scrubber and play/pause over the events, a map
    of where everyone stands, each combatant's state, the events told, and each one's derivation on a
    click; --from/--to show a stretch of a long fight; --odds, each side's chance to win under the
    scrubber and the luck of each roll with its event. The page needs no network; the log's data is in
    it."""
    new_output(output, force, {log.file: "the log"}, (".html", ".htm"), "a page")
    if start is not None and end is not None and end <= start:
        raise AffrayError(f"--to {end:g} is not after --from {start:g}")
    with open_log_arg(log) as reader:
        header = reader.header
        reading = rulesets.reading(header, str(log))
        explaining, keeper = _reading(log, reader, reading, _ms(start))
        title = scenario_name(header) or log.stem
        events = _read_ahead(reader, keeper)
        try:
            data = fight(header, events, reading, title, _ms(start), _ms(end), explaining)
        except FoldError as exc:
            for _ in events:  # a damaged line further on is what to say first
                pass
            refuse_broken(log, reader.problem, "shown")
            raise AffrayError(f"{log}: {exc} (affray verify tells more)") from None
        refuse_broken(log, reader.problem, "shown")
        log_end, last = reader.end_hash, reader.position
    if keeper is not None and log.own_file is not None:
        keeper.write(log.own_file, reader, reading)
    if odds_given is not None:
        from affray.cli.odds import odds_beside

        sides = {c.side for c in data.combatants}
        data = msgspec.structs.replace(data, odds=_odds(odds_beside(log, odds_given, log_end, sides)))
    if not data.frames:
        runs_to = game_time(last.t if last is not None else 0)
        raise AffrayError(f"{log}: no event between --from and --to (the log runs to {runs_to})")
    text = page(data)
    files.write_new(output, text.encode(), force=force, flag="-o", last=True)
    click.echo(f"{output}: {len(data.frames)} events, {len(text.encode()) / 1024:.0f} KiB")


def _odds(report: OddsReport) -> Odds:
    """The page's odds from the log's odds report."""
    sides = report.sides
    return Odds(
        sides=sides,
        opening=[report.opening.sides[side].chance for side in sides],
        rolls=[
            RollChances(
                made.roll.seq,
                made.roll.key,
                [made.before.sides[side].chance for side in sides],
                [made.after.sides[side].chance for side in sides],
            )
            for made in report.rolls
        ],
    )


def _ms(seconds: float | None) -> int | None:
    return None if seconds is None else round(seconds * MS_PER_SECOND)


def _reading(
    log: LogStore, reader: LogReader, reading: Reading, start: int | None
) -> tuple[Explaining | None, Keeper | None]:
    """Where the page's reading starts: from the last snapshot before ``start`` of a log's own file when
    one is kept; else from the start, with a keeper to make its snapshots as it goes (a long log)."""
    file = log.own_file
    if file is None or not snapshots.can_keep(file):
        return None, None
    if start is not None and start > 0:
        explaining = snapshots.explaining(file, reader, reading, seq=None, t_ms=start - 1)
        if explaining is not None:
            return explaining, None
    if snapshots.nearest(file, reader.header_line, reading, seq=None, t_ms=None, histories=True):
        return None, None
    explaining = Explaining(reading)
    return explaining, Keeper(explaining)


def _read_ahead(reader: LogReader, keeper: Keeper | None) -> Iterator[Event]:
    """The reader's events, ``READ_AHEAD`` at a time, each noted by ``keeper`` once it is shown (when the
    next one is asked for)."""
    events = iter(reader)
    while chunk := [(event, reader.position) for event in itertools.islice(events, READ_AHEAD)]:
        for event, at in chunk:
            yield event
            if keeper is not None:
                keeper.note(event.seq, at)
