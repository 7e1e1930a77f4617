"""``affray whatif`` and ``affray lineage``: a fight again with some rolls changed, and where a what-if
came from."""

from __future__ import annotations

import os
from pathlib import Path

import click
import msgspec

from affray import rulesets
from affray.cli.command import a_log_file, cli, open_log_arg, refuse_overwriting
from affray.cli.diff import named
from affray.cli.run import record
from affray.cli.terminal import one_line
from affray.errors import AffrayError
from affray.events.codec import ENCODER, LogHeader, Parent
from affray.events.reader import LogFile, read_all
from affray.replays.diff import diff_logs, tell_diff
from affray.replays.verify import verify
from affray.replays.whatif import (
    IntentChange,
    RollChange,
    RulingChange,
    changed_scenario,
    check_change,
    logged_rolls,
    ordered_scenario,
    parse_change,
    parse_intent,
    parse_ruling,
    ruled_scenario,
)


def _whole(log: Path) -> tuple[LogFile, str]:
    """The parent log read whole, and its end hash; it must be whole and verify."""
    with open_log_arg(log) as reader:
        parent = read_all(reader)
        end = reader.end_hash
    if parent.problem is not None or end is None:
        where = f"{parent.problem.where()}: {parent.problem.message}" if parent.problem else "no end line"
        raise AffrayError(f"{log}: {where}; a what-if starts from a whole log")
    verdict = verify(parent, lambda: rulesets.recorded(parent.header, str(log)))
    if not verdict.ok:
        where = f"{verdict.where}: " if verdict.where else ""
        raise AffrayError(
            f"{log} does not verify ({where}{verdict.message}); a what-if starts from a log that does"
        )
    return parent, end


@cli.command()
@click.argument("log", type=click.Path(path_type=Path))
@click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="STREAM#DRAW=VALUE",
    help="A roll set to another value: brenna/parry#3=47 (=3,5 for a roll of two dice). Repeatable.",
)
@click.option(
    "--rule",
    metavar="EFFECT",
    help="A referee's ruling on the event at --seq: miss, damage=POINTS, modifier=POINTS, leaves=COMBATANT.",
)
@click.option(
    "--intent",
    metavar="COMBATANT:KEY=VALUE",
    help="A combatant played otherwise from the time of --seq on: gorm:target=brenna (whom it goes for "
    "first) or gorm:controller=tactician (who plays it).",
)
@click.option("--reason", help="Why (recorded with --rule or --intent).")
@click.option(
    "--seq",
    type=click.IntRange(min=1),
    help="The event --rule rules on; with --set, the event that holds the roll (a check).",
)
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="What-if log to write.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@click.pass_context
def whatif(
    ctx: click.Context,
    log: Path,
    settings: tuple[str, ...],
    rule: str | None,
    intent: str | None,
    reason: str | None,
    seq: int | None,
    output: Path,
    force: bool,
) -> None:
    """Fight LOG again with some of its rolls set otherwise, a referee's ruling or a combatant played
    otherwise from a point on, into OUTPUT, and show how it differs.

    Every roll before the change comes out as it was, and every later roll is drawn from its own stream
    (so one combatant's change does not shift another's rolls). OUTPUT's header names LOG (by the hash
    of its end line) and the changes; it verifies like any log.
    """
    a_log_file(output)
    if not settings and rule is None and intent is None:
        raise AffrayError("give --set STREAM#DRAW=VALUE, --rule EFFECT or --intent COMBATANT:KEY=VALUE")
    if reason is not None and rule is None and intent is None:
        raise AffrayError("--reason goes with --rule or --intent")
    refuse_overwriting(output, {log: "the log the what-if starts from"})
    rolled = [parse_change(text) for text in settings]
    ruling = parse_ruling(rule, seq, reason) if rule is not None else None
    order = parse_intent(intent, seq, reason) if intent is not None else None
    parent, end = _whole(log)
    rolls = logged_rolls(parent.events)
    for change in rolled:
        check_change(change, rolls, seq if ruling is None and order is None else None)
    scenario = changed_scenario(msgspec.json.decode(parent.header.scenario), rolls, rolled)
    changes: list[RollChange | RulingChange | IntentChange] = [*rolled]
    if ruling is not None:
        ruleset = rulesets.recorded(parent.header, str(log)).ruleset
        scenario = ruled_scenario(scenario, parent.events, ruling, ruleset.rules_on)
        changes.append(ruling)
    if order is not None:
        scenario = ordered_scenario(scenario, parent.events, order)
        changes.append(order)
    header = msgspec.structs.replace(parent.header, scenario=msgspec.Raw(ENCODER.encode(scenario)))
    what = rulesets.recorded(header, f"{log} with {', '.join(map(str, changes))}")
    made = msgspec.structs.replace(
        what.ruleset.header(what.scenario, what.modules),
        parent=Parent(log=os.path.relpath(log.absolute(), output.absolute().parent), end=end),
        changes=[str(change) for change in changes],
    )
    encounter = record(what.battle(), made, output, force=force, trace=ctx.obj["verbose"], what=log)
    click.echo(f"{output}: {log} with {', '.join(map(str, changes))}; {encounter.count} events")
    with open_log_arg(output) as child:
        found = diff_logs(parent, child, (str(log), str(output)))
        click.echo(one_line(named(parent.header, "A", log)))
        click.echo(one_line(named(child.header, "B", output)))
    for line in tell_diff(found, "A", "B"):
        click.echo(one_line(line))


def _generation(path: Path) -> tuple[LogHeader, str | None]:
    with open_log_arg(path) as reader:
        for _ in reader:
            pass
        return reader.header, reader.end_hash


@cli.command()
@click.argument("log", type=click.Path(path_type=Path))
def lineage(log: Path) -> None:
    """Show the chain of what-ifs from LOG back to the fight it started from: each log, the hash of its
    end line, and the changes made to its parent."""
    path, expected = log, None
    while True:
        header, end = _generation(path)
        if expected is not None and end != expected:
            click.echo(f"  {path}: not the parent: its end hash is {end}, the what-if names {expected}")
            return
        parent = header.parent
        said = "the original fight" if parent is msgspec.UNSET else "; ".join(header.changes or [])
        click.echo(one_line(f"{'  from ' if expected else ''}{path} (end {end}): {said}"))
        if parent is msgspec.UNSET:
            return
        path, expected = path.parent / parent.log, parent.end
        if not path.exists():
            click.echo(f"  from {path}: not found (end {expected})")
            return
