"""``affray timeline``: a fight drawn on its clock, one lane per combatant, from the log alone."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from affray import files, rulesets
from affray.cli.command import LOG, new_output, odds_option, open_log_arg, refuse_broken
from affray.cli.group import cli, short_help_of
from affray.errors import AffrayError
from affray.kernel.clock import MS_PER_SECOND, game_time
from affray.kernel.fold import FoldError
from affray.replays.export import scenario_name
from affray.replays.picture import FORMATS
from affray.replays.timeline import Timeline, build, choose_lanes
from affray.stores import LogStore

if TYPE_CHECKING:
    from affray.batch.odds import Chance, OddsReport
    from affray.replays.picture import Step, WinChances


def whole_timeline(log: LogStore) -> tuple[Timeline, str | None]:
    """The timeline of the whole log at ``log``, and the hash of its end line (None: it has none); a log
    cut short or damaged is refused where it breaks."""
    with open_log_arg(log) as reader:
        reading = rulesets.reading(reader.header, str(log))
        name = scenario_name(reader.header) or log.stem
        try:
            timeline = build(reader, reading, scenario=reader.header.scenario, title=name)
        except FoldError as exc:
            raise AffrayError(f"{log}: {exc} (affray verify tells more)") from None
        refuse_broken(log, reader.problem, "drawn")
        end = reader.end_hash
    return timeline, end


def _chances(report: OddsReport) -> WinChances:
    """Each side's chance to win over time, from the odds report of the log drawn."""
    from affray.replays.picture import WinChances

    steps: dict[str, list[Step]] = {}
    for side in report.sides:
        # rolls at one instant make one step on the clock: the chance after the last of them
        at = {0: _chance(report.opening.sides[side])}
        at.update((made.roll.t, _chance(made.after.sides[side])) for made in report.rolls)
        steps[side] = [(t, *chance) for t, chance in at.items()]
    opening = {side: chance.chance for side, chance in report.opening.sides.items()}
    return WinChances(steps, report.within, opening)


def _chance(chance: Chance) -> tuple[float, float, float]:
    return chance.chance, chance.low, chance.high


@cli.command(short_help=short_help_of("timeline"))
@click.argument("log", type=LOG)
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), required=True, help="The picture: .png, .svg or .pdf."
)
@click.option("--from", "start", type=click.FloatRange(min=0), help="Draw from this second.")
@click.option("--to", "end", type=click.FloatRange(min=0), help="Draw to this second.")
@click.option("--only", default="", help="Lanes for these combatants, by id, comma-separated (ID,ID,...).")
@odds_option
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
def timeline(
    log: LogStore,
    output: Path,
    start: float | None,
    end: float | None,
    only: str,
    odds_given: str | None,
    force: bool,
) -> None:
    """Draw the fight in LOG on its clock into OUTPUT: a lane per combatant (perception, reaction,
    initiative, attacks and their outcome, aiming, casting, holds, conditions, going out) and each
    combatant's damage points over time. A fight of more than 12 has lanes for the 8 most involved (or
    those of --only) and panels of each side's combatants standing and damage points left."""
    new_output(output, force, {log.file: "the log"}, FORMATS, "a picture")
    if start is not None and end is not None and end <= start:
        raise AffrayError(f"--to {end:g} is not after --from {start:g}")
    drawn, log_end = whole_timeline(log)
    from affray.replays.picture import draw

    chances = None
    if odds_given is not None:
        from affray.cli.odds import odds_beside

        chances = _chances(odds_beside(log, odds_given, log_end, drawn.sides()))
    wanted = [who.strip() for who in only.split(",") if who.strip()]
    choice = choose_lanes(drawn, wanted)  # an unknown id is refused before anything is written
    picture = output.suffix.lower().removeprefix(".")
    files.write_new(
        output,
        lambda file: draw(drawn, file, picture, start, end, wanted, chances),
        force=force,
        flag="-o",
        last=True,
    )
    shown = f"{len(choice.lanes)} of {len(drawn.lanes)} lanes" if choice.why else f"{len(drawn.lanes)} lanes"
    click.echo(f"{output}: {shown}, {_drawn_stretch(drawn, start, end)}")


def _drawn_stretch(drawn: Timeline, start: float | None, end: float | None) -> str:
    """The stretch of the fight drawn: the fight's length, or ``from S to S of`` it."""
    length = game_time(drawn.fight_end())
    if start is None and end is None:
        return length
    first = game_time(round((start or 0) * MS_PER_SECOND))
    last = game_time(round(end * MS_PER_SECOND)) if end is not None else length
    return f"from {first} to {last} of {length}"
