"""What every ruleset's handlers share: refusing an action, putting a combatant out, ending the encounter
when at most one side stands or time is up."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from affray.events.shared import TIME_LIMIT, ActionRefused, CombatantOut, EncounterEnded
from affray.kernel.clock import MS_PER_SECOND

if TYPE_CHECKING:
    from affray.kernel.encounter import Encounter

REFUSED_MS = MS_PER_SECOND
"""After a refusal a combatant waits a second before it decides again (a ruling)."""


def refuse(encounter: Encounter[Any], combatant: str, action: str, reason: str) -> int:
    """Record that the rules do not allow ``action`` now, and why; the ms to wait before deciding again."""
    encounter.emit(ActionRefused(combatant=combatant, action=action, reason=reason))
    return REFUSED_MS


def put_out(encounter: Encounter[Any], target_id: str, reason: str) -> None:
    """The target is out; the encounter ends when at most one side stands."""
    put_out_only(encounter, target_id, reason)
    check_end(encounter)


def put_out_only(encounter: Encounter[Any], target_id: str, reason: str) -> None:
    """The target is out (whether the encounter ends is the caller's to check)."""
    encounter.emit(CombatantOut(combatant=target_id, reason=reason))


def check_end(encounter: Encounter[Any]) -> None:
    """End the encounter when at most one side has anyone able to fight."""
    if encounter.state.ended:
        return
    sides = encounter.state.standing_sides()
    if len(sides) <= 1:
        winner = sides[0] if sides else None
        encounter.emit(
            EncounterEnded(
                winner=winner,
                reason=f"only side {winner} still stands" if winner else "no side stands",
            )
        )
        encounter.finish()


class Finisher:
    """What ends a fight, as every ruleset's battle offers it to its handlers and the special_damage module:
    put a combatant out, end the encounter when at most one side stands."""

    def put_out(self, encounter: Encounter[Any], target_id: str, reason: str) -> None:
        """The target is out; the encounter ends when at most one side stands."""
        put_out(encounter, target_id, reason)

    def check_end(self, encounter: Encounter[Any]) -> None:
        """End the encounter when at most one side has anyone able to fight."""
        check_end(encounter)


def time_limit(
    encounter: Encounter[Any], max_seconds: int, rank: int | None = None
) -> Generator[Any, Any, None]:
    """A process that ends the encounter after ``max_seconds`` of game time; with ``rank``, only after the
    ranked events due at that instant (the actions ending at the last millisecond)."""
    delay = max_seconds * MS_PER_SECOND
    yield encounter.timeout(delay) if rank is None else encounter.at_rank(delay, rank)
    if not encounter.state.ended:
        encounter.emit(EncounterEnded(winner=None, reason=f"{TIME_LIMIT} of {max_seconds} s reached"))
    encounter.finish()
