"""``affray adjudicate``: referee a fight at a real table, affray asking for each roll made there.

affray runs the fight and tells it as it goes; when it needs a roll of a stream the scenario marks manual
it stops and asks for it, naming the roll (stream and draw), its dice and when it is wanted. Each answer
is entered by stream and draw and the fight is run again from the start with every roll entered so far,
which makes undoing a roll exact. The log is written once the fight is over, its scenario holding every
roll entered, so it verifies like any log.
"""

from __future__ import annotations

import contextlib
import os
import sys
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import click
import msgspec

from affray import files, rulesets
from affray.cli.command import Interrupted, a_log_file, refuse_overwriting, tell_notes
from affray.cli.group import cli, short_help_of
from affray.cli.run import record, summarize, tell_warnings
from affray.cli.terminal import echo_lines
from affray.errors import AffrayError, DiceExhausted, ScenarioError, WantedRoll, read_user_file
from affray.events.base import Event
from affray.events.codec import ENCODER, LogWriter
from affray.kernel.ruleset import Ruleset
from affray.kernel.scenario import parse_toml, read_rolls, rolls_toml
from affray.replays.narrate import narrate
from affray.stores import JsonLinesLog

UNDO = "u"


class _Session:
    """A fight being refereed: the scenario, the rolls entered so far in the order entered, the rolls of a
    stopped session not yet asked for again (``resumed``), and how many of its events have been told."""

    def __init__(
        self,
        ruleset: Ruleset[Any, Any],
        spec: Any,
        source: str,
        entered: dict[str, list[int]],
        resumed: dict[str, list[int]] | None = None,
        sources: dict[str, Path] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.spec = spec
        self.raw: dict[str, Any] = msgspec.json.decode(ENCODER.encode(spec))
        self.source = source
        self.entered = entered
        self.resumed = dict(resumed or {})
        self.sources = dict(sources or {})
        """The file each roll of ``resumed`` comes from: the stopped session's, or ``--rolls``."""
        self.order: list[str] = []
        self.told: list[int] = []
        """How many events had been told when each roll of ``order`` was asked for."""
        self.shown = 0

    def scenario(self) -> Any:
        """The scenario with every roll entered so far."""
        dice = {**self.raw.get("dice", {}), "rolled": self.entered}
        return self.ruleset.load({**self.raw, "dice": dice}, self.source, None)

    def run(self) -> tuple[list[Event], DiceExhausted | None]:
        """The fight with the rolls so far: its events, and the roll it stopped for (None: it ended)."""
        events: list[Event] = []
        try:
            self.ruleset.battle(self.scenario()).run(sinks=[events.append], keep_log=False)
        except DiceExhausted as wanted:
            if wanted.wanted is None:
                raise
            return events, wanted
        return events, None

    def tell(self, events: list[Event]) -> None:
        """Tell the events not yet told."""
        spec = self.scenario()
        reading = rulesets.reading(rulesets.header(self.ruleset, spec), self.source)
        echo_lines(list(narrate(events, reading.vocabulary(), reading.tellers()))[self.shown :])
        self.shown = max(self.shown, len(events))

    def enter(self, roll: str, faces: list[int]) -> None:
        self.entered[roll] = faces
        self.order.append(roll)
        self.told.append(self.shown)

    def resume(self, exhausted: DiceExhausted) -> bool:
        """Enter the roll ``exhausted`` wants from the stopped session's, if it holds it."""
        assert exhausted.wanted is not None
        faces = self.resumed.pop(exhausted.wanted.roll, None)
        if faces is not None:
            self.enter(exhausted.wanted.roll, faces)
        return faces is not None

    def refuse_unasked(self, *, fought: bool = True) -> None:
        """Every roll given in a file (a stopped session's, or ``--rolls``) must be one the fight asks
        for: the first that is not is an error naming it and its file. Before the fight (``fought``
        false) only those it could never ask are found: one the scenario enters itself, one of a stream
        the scenario does not mark manual. Once the fight asks for a roll no file gives, or ends, every
        roll left was never asked (a stopped session saves the rolls it was asked, in order, and a table's
        rolls file holds those rolled at the table)."""
        for key in self.resumed:
            why = self._never_asked(key) or ("the fight did not ask for it" if fought else "")
            if why:
                raise AffrayError(f"{self.sources[key]}: {key}: not a roll the fight asks for ({why})")

    def _never_asked(self, key: str) -> str:
        """Why the roll ``key`` is never asked for, or "" when it may be."""
        dice = self.spec.dice
        stream = key.rpartition("#")[0]
        if key in dice.rolled:
            return "the scenario enters it in [dice.rolled]"
        if dice.source != "manual" and not any(fnmatchcase(stream, p) for p in dice.manual):
            return f"the scenario does not mark {stream} manual"
        return ""

    def saved(self) -> dict[str, list[int]]:
        """The rolls to save for ``--resume``: those entered here, in order, and those resumed and not
        asked for again yet."""
        return {**{key: self.entered[key] for key in self.order}, **self.resumed}

    def undo(self) -> str | None:
        """Forget the last roll entered here; what it was, or None when there is none."""
        if not self.order:
            return None
        roll = self.order.pop()
        faces = self.entered.pop(roll)
        self.shown = self.told.pop()
        return f"{roll} = {','.join(map(str, faces))}"


def _faces(answer: str, wanted: WantedRoll) -> list[int] | None:
    """The faces typed for ``wanted`` (``41``, or ``3,5`` for two dice), or None if they do not fit it."""
    parts = answer.replace(",", " ").split()
    if len(parts) != wanted.count or not all(p.isdigit() and len(p) <= 7 for p in parts):
        return None
    faces = [int(p) for p in parts]
    return faces if all(1 <= f <= wanted.sides for f in faces) else None


def _ask(session: _Session, exhausted: DiceExhausted) -> bool:
    """Ask the terminal for the roll wanted, until it fits; False when the referee undid one instead."""
    wanted = exhausted.wanted
    assert wanted is not None
    dice = f"{wanted.count}d{wanted.sides}" if wanted.count > 1 else f"1d{wanted.sides}"
    when = f", wanted {exhausted.when}" if exhausted.when else ""
    if wanted.need:
        click.echo(f"{wanted.roll}: {wanted.need}")
    while True:
        answer = click.prompt(f"{wanted.roll} {dice}{when} [{UNDO} undoes the last]", prompt_suffix="? ")
        if answer.strip().lower() == UNDO:
            undone = session.undo()
            click.echo(f"undone: {undone}" if undone else "nothing to undo")
            return False
        faces = _faces(answer, wanted)
        if faces is not None:
            session.enter(wanted.roll, faces)
            return True
        each = "a face" if wanted.count == 1 else f"{wanted.count} faces, such as 3,5,"
        click.echo(f"{wanted.roll} needs {each} of 1..{wanted.sides} (or {UNDO} to undo the last roll)")


def _referee(session: _Session, from_file: Path | None) -> None:
    """Run the fight, asking for each roll it needs (unless a stopped session's ``saved`` holds it), until
    it is over."""
    while True:
        events, exhausted = session.run()
        session.tell(events)
        if exhausted is not None and session.resume(exhausted):
            continue
        session.refuse_unasked()
        if exhausted is None:
            return
        if from_file is not None:
            raise AffrayError(
                f"{from_file}: {str(exhausted).removeprefix('$.dice.rolled: ')} (not in the file)"
            )
        _ask(session, exhausted)


def _stop(session: _Session, output: Path, saved: Path, force: bool) -> Interrupted:
    """Keep the rolls so far (for ``--resume``) and the log so far, and say where."""
    files.write_new(saved, rolls_toml(session.saved()).encode(), force=True, flag="")
    spec = session.scenario()
    writer = LogWriter.create(output, rulesets.header(session.ruleset, spec), replace=force)
    tell_notes(writer.notices())
    with contextlib.suppress(DiceExhausted):  # it stops at the roll not yet entered
        session.ruleset.battle(spec).run(sinks=[writer.write], keep_log=False)
    kept = writer.abandon()
    log = f"; the log so far is kept in {kept}" if kept is not None else ""
    return Interrupted(f"the rolls so far are saved in {saved} (carry on with --resume){log}")


def _rolls_in(path: Path) -> dict[str, list[int]]:
    return read_rolls(parse_toml(read_user_file(path, ScenarioError, "a rolls file"), str(path)), str(path))


def _manual_streams(spec: Any, scenario: Path) -> None:
    dice = getattr(spec, "dice", None)
    if dice is None or dice.rolls:
        raise AffrayError(
            f"{scenario}: adjudicate enters rolls by stream and draw; give them in [dice.rolled], "
            "not in one list"
        )
    if dice.source != "manual" and not dice.manual:
        raise AffrayError(
            f"{scenario}: nothing to ask for: mark the streams rolled at the table in [dice] "
            '(manual = ["brenna/*"], or source = "manual" for every roll)'
        )


@cli.command(short_help=short_help_of("adjudicate"))
@click.argument("scenario", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Log file to write.")
@click.option(
    "--rolls",
    "rolls_file",
    type=click.Path(path_type=Path),
    help='Take the table\'s rolls from this file ("brenna/hit#1" = 41, one per line), not the terminal.',
)
@click.option("--resume", is_flag=True, help="Carry on from the rolls saved when a session was stopped.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
def adjudicate(scenario: Path, output: Path, rolls_file: Path | None, resume: bool, force: bool) -> None:
    """Referee a fight at a real table: run SCENARIO, telling it as it goes, and ask for each roll of the
    streams its [dice] marks manual (the others affray rolls). Type the roll's face (3,5 for two dice), or
    u to undo the last roll; Ctrl-C saves the rolls so far in OUTPUT.rolls.toml for --resume.

    The log is written when the fight is over; its scenario holds every roll entered, so it verifies.
    """
    a_log_file(output)
    ruleset, spec = rulesets.load_scenario(scenario)
    _manual_streams(spec, scenario)
    refuse_overwriting(output, {scenario: "the scenario"})
    if output.exists() and not force:
        raise AffrayError(f"{output}: already exists; choose another name or pass --force")
    saved = output.with_name(f"{output.name}.rolls.toml")
    entered = {key: [v] if isinstance(v, int) else list(v) for key, v in spec.dice.rolled.items()}
    resumed = _rolls_in(saved) if resume else {}
    if not resume and files.what_is_at(saved) is not None:
        raise AffrayError(f"{saved}: the rolls of a stopped session; carry on with --resume, or remove it")
    # a file an older affray saved also holds the scenario's own rolls
    resumed = {key: faces for key, faces in resumed.items() if entered.get(key) != faces}
    sources = dict.fromkeys(resumed, saved)
    if rolls_file is not None:  # entered only as the fight asks for them, as a stopped session's are
        table = _rolls_in(rolls_file)
        resumed.update(table)
        sources.update(dict.fromkeys(table, rolls_file))
    elif not sys.stdin.isatty():
        raise AffrayError("no terminal to ask for the rolls on: give them in a file with --rolls FILE")
    session = _Session(ruleset, spec, str(scenario), entered, resumed, sources)
    session.refuse_unasked(fought=False)
    try:
        _referee(session, rolls_file)
    except (KeyboardInterrupt, click.Abort):
        raise _stop(session, output, saved, force) from None
    final = session.scenario()
    log = JsonLinesLog(output)
    encounter = record(
        ruleset.battle(final),
        rulesets.header(ruleset, final),
        log,
        force=force,
        trace=False,
        what=scenario,
    )
    if saved.exists():
        os.remove(saved)  # every roll it held is in the log's scenario now
    tell_warnings(scenario, encounter)
    summarize(ruleset, encounter, final.name or scenario.stem, log)
