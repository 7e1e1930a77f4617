"""How ``affray state`` shows an Energion combatant: what it is doing, whom it is after, its disabled
locations (rule E20), the shots and throws it has left."""

from __future__ import annotations

from decimal import Decimal

import msgspec

from affray.events.energion.state import EnergionCombatant, EnergionState
from affray.kernel.ruleset import read_stock
from affray.replays.telling import number


class _Carried(msgspec.Struct):
    """A carried weapon as a log's scenario records it: what a display needs of it."""

    name: str = ""
    hurled: bool = False
    count: int = 1
    ammunition: int | None = None


class _Brought(msgspec.Struct):
    id: str = ""
    weapons: list[_Carried] = msgspec.field(default_factory=list)


class _Scenario(msgspec.Struct):
    combatants: list[_Brought] = msgspec.field(default_factory=list)


class Supply(msgspec.Struct, frozen=True):
    """A weapon that is used up: its number among those carried, its name, how many uses it came with
    (shots of a missile weapon, or weapons of its kind to hurl), and which of the two."""

    index: int
    name: str
    uses: int
    unit: str


Stock = dict[str, list[Supply]]
"""Each combatant's weapons that are used up, by its id."""


def _supplies(carried: list[_Carried]) -> list[Supply]:
    supplies = []
    for index, weapon in enumerate(carried):
        if weapon.hurled:
            supplies.append(Supply(index, weapon.name, weapon.count, "to throw"))
        elif weapon.ammunition is not None:
            supplies.append(Supply(index, weapon.name, weapon.ammunition, "shots"))
    return supplies


class EnergionDisplay:
    """The Energion columns and lines of ``affray state``."""

    def overview(self, state: EnergionState) -> list[str]:
        """Nothing beyond the shared first line: Energion has no rounds."""
        return []

    def status(self, c: EnergionCombatant) -> str:
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

    def stock(self, scenario: msgspec.Raw) -> Stock:
        """Each combatant's shots and throws (a missile weapon's ``ammunition``, a hurled weapon's
        ``count``), from the scenario a log's header holds."""
        read = read_stock(scenario, _Scenario)
        return {c.id: _supplies(c.weapons) for c in read.combatants} if read else {}

    def supplies(self, c: EnergionCombatant, stock: Stock) -> str:
        """Each weapon it uses up, with what is left of it ("Bow, Self, Long 19/24 shots")."""
        return "; ".join(
            f"{s.name} {max(s.uses - c.used.get(str(s.index), 0), 0)}/{s.uses} {s.unit}"
            for s in stock.get(c.id, ())
        )

    health_name = "damage points left"

    def health(self, c: EnergionCombatant, stock: Stock) -> tuple[Decimal, Decimal]:
        """Its damage points left of its total."""
        return c.damage_left, Decimal(c.damage_points)

    def harm(self, c: EnergionCombatant) -> str:
        """The damage points it took of its total."""
        return f"took {number(c.damage_taken):>7} of {number(c.damage_points)} DP"


DISPLAY = EnergionDisplay()
