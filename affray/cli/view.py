"""``affray view``: a fight as one self-contained HTML page to look at and share."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click
import msgspec

from affray import files, rulesets
from affray.cli.command import LOG, new_output, odds_option, open_log_arg, refuse_broken
from affray.cli.group import cli, short_help_of
from affray.errors import AffrayError
from affray.events.base import Event
from affray.events.reader import read_all
from affray.kernel.clock import MS_PER_SECOND, game_time
from affray.kernel.fold import FoldError
from affray.replays.export import scenario_name
from affray.replays.page import Odds, RollChances, fight, page
from affray.stores import LogStore

if TYPE_CHECKING:
    from affray.batch.odds import OddsReport


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
        whole = read_all(reader)
        log_end = reader.end_hash
    refuse_broken(log, whole.problem, "shown")
    reading = rulesets.reading(whole.header, str(log))
    try:
        title = scenario_name(whole.header) or log.stem
        data = fight(whole.header, whole.events, reading, title, _ms(start), _ms(end))
    except FoldError as exc:
        raise AffrayError(f"{log}: {exc} (affray verify tells more)") from None
    if odds_given is not None:
        from affray.cli.odds import odds_beside

        sides = {c.side for c in data.combatants}
        data = msgspec.structs.replace(data, odds=_odds(odds_beside(log, odds_given, log_end, sides)))
    if not data.frames:
        raise AffrayError(f"{log}: no event between --from and --to (the log runs to {_last(whole.events)})")
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


def _last(events: Sequence[Event]) -> str:
    return game_time(events[-1].t) if events else "0.000 s"
