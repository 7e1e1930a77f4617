"""How ``affray state`` shows an Energion combatant: what it is doing, whom it is after, its disabled
locations (rule E20)."""

from __future__ import annotations

from affray.events.energion.state import EnergionCombatant, EnergionState
from affray.replays.telling import number


class EnergionDisplay:
    """The Energion columns and lines of ``affray state``."""

    def overview(self, state: EnergionState) -> list[str]:
        """Nothing beyond the shared first line: Energion has no rounds."""
        return []

    def status(self, c: EnergionCombatant, now: int) -> str:
        """Held or holding (E15), casting (E23), fighting, readying its weapon, reacting or unaware (E1)."""
        if c.held_by is not None:
            return f"held by {c.held_by} ({c.hold})"
        if c.holding is not None:
            return f"holding {c.holding} ({c.hold})"
        if c.casting is not None:
            return f"casting {c.casting}" + (f" at {c.casting_at}" if c.casting_at else "")
        if c.weapon_ready:
            return f"fighting with {c.weapon}"
        if c.reacted:
            return "readying weapon"
        return "reacting" if c.perceived else "unaware"

    def target(self, c: EnergionCombatant) -> str | None:
        """The target its controller last chose."""
        return c.target

    def details(self, c: EnergionCombatant) -> list[str]:
        """Its disabled locations (E20)."""
        return [f"disabled: {part}" for part in c.disabled]

    def left(self, c: EnergionCombatant) -> str:
        """Its damage points left of its total (E1)."""
        return f"{number(c.damage_left)}/{number(c.damage_points)} DP"

    def harm(self, c: EnergionCombatant) -> str:
        """The damage points it took of its total."""
        return f"took {number(c.damage_taken):>7} of {number(c.damage_points)} DP"


DISPLAY = EnergionDisplay()
