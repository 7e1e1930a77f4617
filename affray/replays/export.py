"""A log exported for people and for tools: ``affray replay --format markdown`` and ``--format json``.

Both read the log as they go, like the text telling, and tell each event with the same line
(:func:`affray.replays.narrate.tell`).

**markdown** is for a chat or a wiki: a title line, then a table per section of the fight (columns time,
#, event), then the outcome (the winner, when and why the encounter ended, and what each combatant dealt
and took, in the ruleset's words: ``StateDisplay.harm``). Every text is written so that it renders as
itself and as nothing else (``markdown_text``): a name of ``<img src=x onerror=...>`` or
``[click](javascript:...)`` is shown, never rendered.

The sections are rounds for a ruleset that fights in them (``Ruleset.in_rounds``), and 10 s of game time
for one that does not. A round's section begins at the first event whose integer ``round`` field
passes the round so far, so the rolls that open a round (surprise, the order of attack) are told in it
with its ``round_started``; it is headed ``### Round N (t)``, ``t`` the game time of that event. Events
before the first round (combatants joining) are headed ``### Before the first round``. Sections of time
are headed ``### 0-10 s``, ``### 10-20 s``, ... and, past the first hour (the long clock of healing), by
the game times that bound them; a section without events is left out.

**json** is JSON Lines for tools, one object per event: ``seq``, ``t`` (ms), ``time`` (``game_time``),
``kind``, ``told`` (the line the text telling gives it, without time and seq) and ``event`` (the event as
the log holds it, without ``prev``; a kind recorded under an older version is shown as read, upcast).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import msgspec

from affray.errors import printable
from affray.events.base import Event
from affray.events.codec import ENCODER, LogHeader
from affray.events.shared import kind_of
from affray.events.state import CombatantState, EncounterState
from affray.events.vocabulary import Vocabulary
from affray.kernel.clock import MS_PER_HOUR, MS_PER_SECOND, game_time
from affray.kernel.ruleset import StateDisplay
from affray.replays.narrate import Told
from affray.replays.telling import number

SECTION_MS = 10 * MS_PER_SECOND
"""The game time one section covers, for a ruleset without rounds."""


class _Named(msgspec.Struct):
    name: str = ""


def scenario_name(header: LogHeader) -> str:
    """The name the log's scenario gives itself ("" for none, or a scenario that cannot be read)."""
    try:
        return msgspec.json.decode(header.scenario, type=_Named).name
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return ""


def title(header: LogHeader, name: str) -> str:
    """What a log is: ``Duel at the ford: ruleset energion v3, seed 1130``."""
    return f"{name}: ruleset {header.ruleset} v{header.ruleset_version}, seed {header.seed}"


_MARKUP = re.compile(r"[\\`*_{}\[\]|~$^<&]|@(?<=\w@)|\.(?<=[wW]{3}\.)|:(?=//)")
"""What could begin markup in a line of text, in CommonMark and the flavours built on it: the ASCII
punctuation of inline markup (code, emphasis, links and images, raw HTML and autolinks, entities), a table's
``|``, GitHub's strikethrough (``~``) and maths (``$``), superscript (``^``), kramdown's attributes
(``{:...}``), and what GitHub turns into a link by itself (``www.``, ``://``, ``name@host``). ``>``, and
what begins a block (``#``, ``-``, ``1.``), begin nothing inside a line that starts with text of ours."""
_ENTITIES = {"<": "&lt;", "&": "&amp;"}


def markdown_text(text: str) -> str:
    """``text`` (from a log: a name, a reason, a telling that holds them) written so that Markdown renders
    it as its characters, on one line: first made ``printable`` (a newline is shown as ``\\n``), then each
    character that could begin markup backslash-escaped, ``<`` and ``&`` as entities (which every renderer
    reads, raw HTML allowed or not)."""

    def inert(match: re.Match[str]) -> str:
        char = match.group()
        return _ENTITIES.get(char) or f"\\{char}"

    return _MARKUP.sub(inert, printable(text))


def cell(text: str) -> str:
    """``text`` as one Markdown table cell: on one line, rendered as its characters (``markdown_text``)."""
    return markdown_text(text)


def row(*cells: str) -> str:
    """A Markdown table row of ``cells``, each escaped."""
    return "| " + " | ".join(cell(c) for c in cells) + " |"


def _time_span(section: int) -> str:
    start, end = section * SECTION_MS, (section + 1) * SECTION_MS
    if end <= MS_PER_HOUR:
        return f"{start // MS_PER_SECOND}-{end // MS_PER_SECOND} s"
    return f"{game_time(start)} to {game_time(end)}"


class Sections:
    """Which section each event is told in, and the heading of each new one (see the module's text)."""

    def __init__(self, rounds: bool) -> None:
        self.rounds = rounds
        self._current: int | None = None

    def heading(self, event: Event) -> str | None:
        """The heading of the section ``event`` begins, or None when it goes on the current one."""
        if self.rounds:
            number = getattr(event, "round", None)
            if isinstance(number, int) and number > (self._current or 0):
                self._current = number
                return f"### Round {number} ({game_time(event.t)})"
            if self._current is None:
                self._current = 0
                return "### Before the first round"
            return None
        section = event.t // SECTION_MS
        if section == self._current:
            return None
        self._current = section
        return f"### {_time_span(section)}"


@dataclass(frozen=True)
class Tally:
    """What one combatant dealt and took in a fight, as ``affray run`` sums it up."""

    combatant: str
    side: str
    dealt: Decimal
    hits: int
    attacks: int
    harm: str
    """What the fight did to it, in the ruleset's words (``StateDisplay.harm``)."""
    status: str

    @classmethod
    def of(cls, c: CombatantState, display: StateDisplay) -> Tally:
        """The tally of combatant ``c`` in its state at the end."""
        status = f"out ({c.out_reason})" if c.out else "standing"
        return cls(c.id, c.side, c.damage_dealt, c.hits, c.attacks, display.harm(c), status)

    def dealt_text(self) -> str:
        """``39.375 in 5/10 hits``."""
        return f"{number(self.dealt)} in {self.hits}/{self.attacks} hits"

    def line(self) -> str:
        """The tally as ``affray run`` prints it under its first line."""
        return (
            f"  {self.combatant:<12} {self.side:<10} dealt {number(self.dealt):>7} in {self.hits}/"
            f"{self.attacks} hits; {self.harm}; {self.status}"
        )


def tallies(state: EncounterState[Any], display: StateDisplay) -> list[Tally]:
    """Every combatant's tally, in the order they joined."""
    return [Tally.of(c, display) for c in state.combatants.values()]


def outcome(state: EncounterState[Any]) -> str:
    """Who won, when and why, as ``affray run`` says it, for the state at the event that ended the
    encounter; or, for a state before the end, that the log stops there."""
    if not state.ended:
        return f"no outcome: the log stops at {game_time(state.t)}, after seq {state.seq}, before the end"
    winner = f"side {state.winner} wins" if state.winner else "no winner"
    return f"{winner} at {game_time(state.t)} ({state.end_reason})"


class OutcomeWatch:
    """A fight's outcome, taken as its events go by: at the event that ends the encounter (what follows,
    an aftermath of healing say, changes it no more), or at the last event of a log that stops before."""

    def __init__(self, display: StateDisplay) -> None:
        self.display = display
        self.said = ""
        self.tallies: list[Tally] = []
        self.after = 0
        self.last_t = 0

    def see(self, state: EncounterState[Any]) -> None:
        """Take note of the state after the next event."""
        if self.said:
            self.after += 1
            self.last_t = state.t
        elif state.ended:
            self.said = outcome(state)
            self.tallies = tallies(state, self.display)

    def lines(self, state: EncounterState[Any]) -> list[str]:
        """The outcome section (``state``: after the log's last event)."""
        said, tallied = (
            (self.said, self.tallies) if self.said else (outcome(state), tallies(state, self.display))
        )
        lines = ["", "### Outcome", "", cell(said[0].upper() + said[1:] + "."), ""]
        if self.after:
            more = f"{self.after} events more, to {game_time(self.last_t)}"
            lines += [f"What each dealt and took at that end (the log goes on for {more}):", ""]
        lines += [row("combatant", "side", "dealt", "harm", "status"), "| --- | --- | --- | --- | --- |"]
        lines += [
            row(t.combatant, t.side, t.dealt_text(), " ".join(t.harm.split()), t.status) for t in tallied
        ]
        return lines


def markdown(
    heading: str, told: Iterable[Told], vocabulary: Vocabulary[Any], display: StateDisplay, *, in_rounds: bool
) -> Iterator[str]:
    """The fight as Markdown, line by line: ``heading`` as its title, a table per section (rounds for a
    ruleset that fights in them), the outcome."""
    yield f"## {markdown_text(heading)}"
    sections = Sections(in_rounds)
    state: EncounterState[Any] = vocabulary.new_state()
    ending = OutcomeWatch(display)
    for event, state, text in told:
        begun = sections.heading(event)
        if begun is not None:
            yield from ("", begun, "", row("time", "#", "event"), "| ---: | ---: | --- |")
        yield f"| {game_time(event.t)} | {event.seq} | {cell(text)} |"  # time and seq are ours: no markup
        ending.see(state)
    yield from ending.lines(state)


class _JsonLine(msgspec.Struct, frozen=True):
    seq: int
    t: int
    time: str
    kind: str
    told: str
    event: msgspec.Raw


def json_lines(told: Iterable[Told]) -> Iterator[str]:
    """The fight as JSON Lines, one object per event (see the module's text)."""
    for event, _state, text in told:
        kind = kind_of(type(event))
        line = _JsonLine(
            event.seq, event.t, game_time(event.t), kind, text, msgspec.Raw(ENCODER.encode(event))
        )
        yield ENCODER.encode(line).decode()
