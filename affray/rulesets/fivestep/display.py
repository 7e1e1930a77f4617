"""How ``affray state`` shows a fivestep encounter: the round and the order (rules F4-F6), each character's
Agility Points left (F7) and its wounds by body part (F11)."""

from __future__ import annotations

from decimal import Decimal

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
        wounds = [self._wound(c, part, taken) for part, taken in c.location_damage.items()]
        return [f"wounds: {', '.join(wounds)}"] if wounds else []

    @staticmethod
    def _wound(c: FivestepCombatant, part: str, taken: Decimal) -> str:
        """One part's damage of its points ("?" for a part its body does not list, as special damage from
        a log may name)."""
        points = c.parts.get(part)
        if points is None:
            return f"{part} {number(taken)}/?"
        return f"{part} {number(taken)}/{points}" + (" (no function)" if taken >= points else "")

    def left(self, c: FivestepCombatant) -> str:
        """Its body parts that still function, of all (F11: each part has its own points)."""
        return f"{len(c.parts) - len(c.disabled)}/{len(c.parts)} parts"

    def harm(self, c: FivestepCombatant) -> str:
        """The points it took, on how many body parts, and which are without function (F11)."""
        hurt = [part for part, taken in c.location_damage.items() if taken > 0]
        if not hurt:
            return "unhurt"
        parts = "1 body part" if len(hurt) == 1 else f"{len(hurt)} body parts"
        without = f"; without function: {', '.join(c.disabled)}" if c.disabled else ""
        return f"took {number(c.damage_taken)} points on {parts}{without}"


DISPLAY = FivestepDisplay()
