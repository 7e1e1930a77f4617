"""``affray whatif`` and ``affray lineage``: a fight again with some rolls changed, and where a what-if
came from."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import msgspec

from affray import rulesets, stores
from affray.cli.command import (
    LOG,
    a_log_file,
    find_parent,
    open_log_arg,
    recorded_parent,
    refuse_overwriting,
    whole_verified,
)
from affray.cli.diff import named
from affray.cli.group import EXIT_VERIFY_FAILED, cli, short_help_of
from affray.cli.run import record
from affray.cli.terminal import echo_lines, one_line
from affray.errors import AffrayError, UnrecordedDecision, printable
from affray.events.codec import ENCODER, LogHeader, Parent, encode_log
from affray.events.reader import LogFile
from affray.kernel.encounter import Encounter
from affray.kernel.ruleset import Battle, Recorded
from affray.kernel.scenario import recorded_mapping
from affray.replays.diff import diff_logs, tell_diff
from affray.replays.lineage import parent_link
from affray.replays.whatif import (
    Change,
    Following,
    IntentChange,
    RollChange,
    check_change,
    logged_rolls,
    parse_change,
    parse_intent,
    parse_ruling,
    scenario_with,
)
from affray.rulesets.controllers import EXTERNAL, import_factories, played_from_outside
from affray.stores import LogStore


@cli.command(short_help=short_help_of("whatif"))
@click.argument("log", type=LOG)
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
@click.option(
    "--controllers",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    metavar="DIR",
    help="Import the code LOG's scenario names as controllers (package.module:factory) from DIR, and only "
    "from there, and call it for every decision. Without it no code LOG names is imported: their "
    "recorded decisions are taken up to the change, and a what-if that needs a new one stops with an "
    "error.",
)
@click.pass_context
def whatif(
    ctx: click.Context,
    log: LogStore,
    settings: tuple[str, ...],
    rule: str | None,
    intent: str | None,
    reason: str | None,
    seq: int | None,
    output: Path,
    force: bool,
    controllers: Path | None,
) -> None:
    """Fight LOG again with some of its rolls set otherwise, a referee's ruling or a combatant played
    otherwise from a point on, into OUTPUT, and show how it differs.

    Every roll before the change comes out as it was, and every later roll is drawn from its own stream
    (so one combatant's change does not shift another's rolls). OUTPUT's header names LOG (by the hash
    of its end line) and the changes; it verifies like any log.

    No code LOG names runs: a combatant it plays takes its recorded decisions up to the change, and one
    that must decide anew stops the what-if (nothing written) unless --controllers DIR gives its code.
    """
    a_log_file(output)
    _check_asked(settings, rule, intent, reason)
    refuse_overwriting(output, {log.file: "the log the what-if starts from"})
    rolled = [parse_change(text) for text in settings]
    ruling = parse_ruling(rule, seq, reason) if rule is not None else None
    order = parse_intent(intent, seq, reason) if intent is not None else None
    parent, end = whole_verified(log, "a what-if starts from")
    _check_rolls(rolled, parent, seq if ruling is None and order is None else None)
    changes: list[Change] = [*rolled, *(c for c in (ruling, order) if c is not None)]
    scenario = scenario_with(
        recorded_mapping(parent.header),
        parent.events,
        changes,
        lambda: rulesets.recorded(parent.header, str(log)).ruleset,
    )
    header = msgspec.structs.replace(parent.header, scenario=msgspec.Raw(ENCODER.encode(scenario)))
    what = rulesets.recorded(header, f"{log} with {', '.join(map(str, changes))}")
    made = msgspec.structs.replace(
        what.ruleset.header(what.scenario, what.modules),
        parent=Parent(log=recorded_parent(log, output), end=end),
        changes=[str(change) for change in changes],
    )
    fight = _Fight(what, scenario, made, parent, order)
    written = stores.JsonLinesLog(output)
    encounter = fight.fought(written, force=force, controllers=controllers, trace=ctx.obj["verbose"], log=log)
    click.echo(f"{output}: {log} with {', '.join(map(str, changes))}; {encounter.count} events")
    with open_log_arg(written) as child:
        comparison = diff_logs(parent, child, (str(log), str(output)))
        click.echo(one_line(named(parent.header, "A", log)))
        click.echo(one_line(named(child.header, "B", written)))
    echo_lines(tell_diff(comparison, "A", "B"))


def _check_asked(settings: tuple[str, ...], rule: str | None, intent: str | None, reason: str | None) -> None:
    """A what-if asks for a change, and gives a reason only to a ruling or an order."""
    if not settings and rule is None and intent is None:
        raise AffrayError("give --set STREAM#DRAW=VALUE, --rule EFFECT or --intent COMBATANT:KEY=VALUE")
    if reason is not None and rule is None and intent is None:
        raise AffrayError("--reason goes with --rule or --intent")


def _check_rolls(rolled: list[RollChange], parent: LogFile, seq: int | None) -> None:
    """Each roll set names a roll the parent made (at ``seq``, when the change is only rolls) and fits
    its dice."""
    rolls = logged_rolls(parent.events)
    for change in rolled:
        check_change(change, rolls, seq)


@dataclass(frozen=True)
class _Fight:
    """A what-if ready to fight: what it simulates, its scenario as data, its header, its parent and the
    ``--intent`` order it adds, if any."""

    what: Recorded
    scenario: Mapping[str, Any]
    header: LogHeader
    parent: LogFile
    order: IntentChange | None

    def fought(
        self, output: LogStore, *, force: bool, controllers: Path | None, trace: bool, log: LogStore
    ) -> Encounter[Any]:
        """The what-if fought and written to ``output``. Combatants played from outside take the parent's
        decisions up to the change, and nothing is written when one must decide anew, unless
        ``controllers`` names the folder their code is imported from: then it is called for every
        decision."""
        played = played_from_outside(self.scenario)
        battle = self.what.battle()
        if controllers is None and played:
            encounter = _followed(battle, self.parent, self._changed(), trace, log)
            lines = encode_log(self.header, encounter.log).splitlines(keepends=True)
            stores.write_whole(output, lines, replace=force)
            return encounter
        if controllers is not None:
            import_factories(played.values(), controllers, "--controllers")
        return record(battle, self.header, output, force=force, trace=trace, what=log)

    def _changed(self) -> dict[str, int]:
        """The combatant an ``--intent`` plays otherwise, and the time (ms) from which it does."""
        if self.order is None:
            return {}
        seq = self.order.seq
        return {self.order.combatant: next(e.t for e in self.parent.events if e.seq == seq)}


def _followed(
    battle: Battle, parent: LogFile, changed: Mapping[str, int], trace: bool, log: LogStore
) -> Encounter[Any]:
    """The what-if fought in memory, its combatants played from outside taking their decisions from the
    parent while it goes as the parent did (replays/whatif.py's Following); one that must decide anew is
    an error, and nothing is written."""
    following = Following(parent.events, changed)
    battle.replay_decisions(following.peek, strict=True)
    try:
        return battle.run(sinks=[following], trace=trace)
    except UnrecordedDecision as exc:
        if exc.controller == EXTERNAL:
            why = "it is played step by step (affray.envs), which a what-if cannot ask"
        else:
            why = (
                "only its code can make it, and affray imports code a log names only from a folder you "
                "give with --controllers DIR"
            )
        raise AffrayError(f"{log}: after the change, {exc}: {why}") from None
    except AffrayError as exc:
        raise AffrayError(f"{log}: {exc}") from None


def _generation(path: LogStore) -> tuple[LogHeader, str | None]:
    with open_log_arg(path) as reader:
        for _ in reader:
            pass
        return reader.header, reader.end_hash


def _made(header: LogHeader) -> str:
    """What a log is: the original fight, or the changes made to its parent."""
    if header.parent is msgspec.UNSET:
        return "the original fight"
    return printable("; ".join(header.changes or []))


@cli.command(short_help=short_help_of("lineage"))
@click.argument("log", type=LOG)
def lineage(log: LogStore) -> None:
    """Show the chain of what-ifs from LOG back to the fight it started from: each log, the hash of its
    end line, and the changes made to its parent.

    Each parent found where its what-if names it, with the end hash it names, is checked: the what-if's
    scenario must be the parent's with exactly the changes it declares. Exit 0 when the chain is shown (a
    parent that is missing, not a log or was replaced is said so, and that link is unchecked); 1 when a
    what-if is not its parent with exactly its declared changes.
    """
    header, end = _generation(log)
    path = log
    click.echo(one_line(f"{printable(str(log))} (end {end}): {_made(header)}"))
    while header.parent is not msgspec.UNSET:
        link = parent_link(path, header, open_log_arg, rulesets.recorded, find_parent)
        if link.header is None:
            click.echo(one_line(f"  from {link.shown}: {link.why}; the link is unchecked"))
            return
        click.echo(one_line(f"  from {link.shown} (end {link.end}): {_made(link.header)}"))
        if link.state == "false":
            click.echo(one_line(f"  {printable(str(path))} is not made from it as it says: {link.why}"))
            sys.exit(EXIT_VERIFY_FAILED)
        path, header = link.path, link.header
