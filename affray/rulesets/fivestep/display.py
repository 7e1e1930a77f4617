"""How ``affray state`` shows a fivestep encounter: the round and the order (rules F4-F6), each character's
Agility Points left (F7) and its wounds by body part (F11)."""

from __future__ import annotations

from affray.events.fivestep.state import FivestepCombatant, FivestepState
from affray.replays.telling import number


class FivestepDisplay:
    """The fivestep columns and lines of ``affray state``."""

    def overview(self, state: FivestepState) -> list[str]:
        """The round, who acts in it, and the order of primary attack."""
        rounds = state.rounds
        if not rounds.round:
            return []
        order = f"; order {', '.join(rounds.order)}" if rounds.order else ""
        return [f"round {rounds.round}: acting {', '.join(rounds.acting) or 'nobody'}{order}"]

    def status(self, c: FivestepCombatant, now: int) -> str:
        """Its turn's Agility Points left, a no-move turn, or waiting for its turn."""
        turn = c.turn
        if turn is None:
            return "waiting for its turn"
        if turn.no_move:
            return "no-move turn"
        piece = f", sub-turn {turn.piece}/{turn.pieces}" if turn.pieces > 1 else ""
        return f"{turn.available} AP left (round {turn.round}{piece})"

    def target(self, c: FivestepCombatant) -> str | None:
        """Fivestep characters declare a target each turn; the state keeps none."""
        return None

    def details(self, c: FivestepCombatant) -> list[str]:
        """Its wounds: each part's damage of its points, and which parts are without function."""
        wounds = [
            f"{part} {number(taken)}/{c.parts[part]}" + (" (no function)" if taken >= c.parts[part] else "")
            for part, taken in c.location_damage.items()
        ]
        return [f"wounds: {', '.join(wounds)}"] if wounds else []


DISPLAY = FivestepDisplay()
