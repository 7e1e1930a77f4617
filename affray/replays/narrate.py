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


def _moved(event: Moved, state: EncounterState[Any]) -> str:
    how = "flees" if event.fleeing else "moves"
    way = "away from" if event.fleeing else "toward"
    return (
        f"{event.combatant} {how} {number(event.distance)} m {way} {event.toward}, {at(event.start)} -> "
        f"{at(event.end)}"
    )


def _refused(event: ActionRefused, state: EncounterState[Any]) -> str:
    return f"{event.combatant} cannot {event.action}: {event.reason}"


def _check(event: CheckRolled, state: EncounterState[Any]) -> str:
    side = "at or under" if event.under else "over"
    return f"{event.combatant}'s {event.check}: {rolled(event.roll)}, {side} {number(event.chance)}%"


def _out(event: CombatantOut, state: EncounterState[Any]) -> str:
    return f"{event.combatant} is out: {event.reason}"


def _ruling(event: RulingApplied, state: EncounterState[Any]) -> str:
    return f"the referee's ruling on #{event.rules_on} ({event.combatant}): {event.effect}; {event.reason}"


def _ended(event: EncounterEnded, state: EncounterState[Any]) -> str:
    who = f"side {event.winner} wins" if event.winner else "no winner"
    return f"the encounter ends: {who} ({event.reason})"


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
