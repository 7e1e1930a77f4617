"""Tell a fight one line per event: game time in seconds, what happened, and the numbers behind it.

Each line is told against the state right after its event, by the teller of its kind: the ruleset's and
the modules' tellers for their kinds (``Ruleset.tellers``, ``Module.tellers``), affray's for the kinds
every ruleset shares.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from affray.events.base import Event
from affray.events.shared import (
    ActionRefused,
    CheckRolled,
    CombatantOut,
    EncounterEnded,
    Moved,
    RulingApplied,
)
from affray.events.state import EncounterState
from affray.events.vocabulary import Vocabulary
from affray.kernel.clock import game_time
from affray.kernel.fold import apply_checked
from affray.kernel.ruleset import Teller
from affray.replays.telling import at, number, rolled


def _moved(e: Moved, s: EncounterState[Any]) -> str:
    how = "flees" if e.fleeing else "moves"
    way = "away from" if e.fleeing else "toward"
    return f"{e.combatant} {how} {number(e.distance)} m {way} {e.toward}, {at(e.start)} -> {at(e.end)}"


def _refused(e: ActionRefused, s: EncounterState[Any]) -> str:
    return f"{e.combatant} cannot {e.action}: {e.reason}"


def _check(e: CheckRolled, s: EncounterState[Any]) -> str:
    side = "at or under" if e.under else "over"
    return f"{e.combatant}'s {e.check}: {rolled(e.roll)}, {side} {number(e.chance)}%"


def _out(e: CombatantOut, s: EncounterState[Any]) -> str:
    return f"{e.combatant} is out: {e.reason}"


def _ruling(e: RulingApplied, s: EncounterState[Any]) -> str:
    return f"the referee's ruling on #{e.rules_on} ({e.combatant}): {e.effect}; {e.reason}"


def _ended(e: EncounterEnded, s: EncounterState[Any]) -> str:
    who = f"side {e.winner} wins" if e.winner else "no winner"
    return f"the encounter ends: {who} ({e.reason})"


SHARED_TELLERS: dict[type[Event], Teller] = {
    Moved: _moved,
    ActionRefused: _refused,
    CheckRolled: _check,
    CombatantOut: _out,
    RulingApplied: _ruling,
    EncounterEnded: _ended,
}
"""The tellers of the kinds every ruleset shares."""


class Told(NamedTuple):
    """One event as it is told: the event, the state right after it, and its line's text."""

    event: Event
    state: EncounterState[Any]
    text: str


def tell(
    events: Iterable[Event], vocabulary: Vocabulary[Any], tellers: Mapping[type[Event], Teller]
) -> Iterator[Told]:
    """Each event with the state right after it and its text (``tellers`` for the ruleset's and modules'
    kinds; the shared kinds are told here)."""
    told = {**SHARED_TELLERS, **tellers}
    state = vocabulary.new_state()
    for event in events:
        apply_checked(vocabulary, state, event)
        yield Told(event, state, told[type(event)](event, state))


def narrate(
    events: Iterable[Event], vocabulary: Vocabulary[Any], tellers: Mapping[type[Event], Teller]
) -> Iterator[str]:
    """One line per event: its game time, seq and text, told against the state right after it."""
    for event, _, text in tell(events, vocabulary, tellers):
        yield f"{game_time(event.t):>11}  #{event.seq:<4} {text}"
