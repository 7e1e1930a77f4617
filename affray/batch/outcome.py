"""What one run of a batch came to: who won, when and why, and each combatant's share, taken from the
state the run ends in (no log is kept, encoded or hashed)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import msgspec

from affray.events.base import Event
from affray.events.shared import TIME_LIMIT, CombatantOut


class Share(msgspec.Struct, frozen=True, array_like=True):
    """One combatant's part in a run."""

    combatant: str
    side: str
    dealt: Decimal
    taken: Decimal
    hits: int
    attacks: int
    out_ms: int | None
    """When it went out (None: it stood to the end)."""


class RunOutcome(msgspec.Struct, frozen=True, array_like=True):
    """One run: its number and seed, the winner (None: no side won), when and why it ended, whether the
    time limit ended it, how many events it took, and every combatant's share in the order they joined."""

    index: int
    seed: int
    winner: str | None
    end_ms: int
    end_reason: str
    timed_out: bool
    events: int
    shares: list[Share]


class OutTimes:
    """A sink noting when each combatant went out."""

    def __init__(self) -> None:
        self.at: dict[str, int] = {}

    def __call__(self, event: Event) -> None:
        if type(event) is CombatantOut:
            self.at.setdefault(event.combatant, event.t)


def outcome_of(index: int, seed: int, encounter: Any, out: OutTimes) -> RunOutcome:
    """The outcome of run ``index`` from its finished encounter."""
    state = encounter.state
    shares = [
        Share(c.id, c.side, c.damage_dealt, c.damage_taken, c.hits, c.attacks, out.at.get(c.id))
        for c in state.combatants.values()
    ]
    reason = state.end_reason or ""
    timed_out = state.winner is None and reason.startswith(TIME_LIMIT)
    return RunOutcome(index, seed, state.winner, state.t, reason, timed_out, encounter.count, shares)
