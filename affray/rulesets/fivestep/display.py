"""How ``affray state`` shows a fivestep encounter: the round and the order (rules F4-F6), each character's
Agility Points left (F7), its wounds by body part (F11) and the shots and grenades it has left."""

from __future__ import annotations

from decimal import Decimal

import msgspec

from affray.events.fivestep.state import FivestepCombatant, FivestepState
from affray.kernel.ruleset import read_stock
from affray.replays.telling import number


class _Weapon(msgspec.Struct):
    name: str = ""
    combat: str = ""
    ammunition: int | None = None
    count: int = 1


class _Part(msgspec.Struct):
    name: str = ""
    vital: bool = False


class _Character(msgspec.Struct):
    id: str = ""
    body: str = ""
    weapons: list[_Weapon] = msgspec.field(default_factory=list)


class _Scenario(msgspec.Struct):
    bodies: dict[str, list[_Part]] = msgspec.field(default_factory=dict)
    combatants: list[_Character] = msgspec.field(default_factory=list)


class Brought(msgspec.Struct, frozen=True):
    """What a character brought that the state does not hold: its weapons that are used up (name, uses,
    unit: grenades, or a weapon's shots) and its body's vital parts (ruling 45)."""

    supplies: list[tuple[str, int, str]]
    vital: list[str]


Stock = dict[str, Brought]
"""What each character brought, by its id."""


def _brought(c: _Character, bodies: dict[str, list[_Part]]) -> Brought:
    supplies = []
    for weapon in c.weapons:
        if weapon.combat == "grenade":
            supplies.append((weapon.name, weapon.count, "grenades"))
        elif weapon.ammunition is not None:
            supplies.append((weapon.name, weapon.ammunition, "shots"))
    return Brought(supplies, [part.name for part in bodies.get(c.body, ()) if part.vital])


_HUNDRED = Decimal(100)
_ZERO = Decimal(0)


class FivestepDisplay:
    """The fivestep columns and lines of ``affray state``."""

    def overview(self, state: FivestepState) -> list[str]:
        """The round, who acts in it, and the order of primary attack."""
        rounds = state.rounds
        if not rounds.round:
            return []
        order = f"; order {', '.join(rounds.order)}" if rounds.order else ""
        return [f"round {rounds.round}: acting {', '.join(rounds.acting) or 'nobody'}{order}"]

    def status(self, c: FivestepCombatant) -> str:
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

    def stock(self, scenario: msgspec.Raw) -> Stock:
        """Each character's shots and grenades and its vital parts, from the scenario a log's header
        holds."""
        read = read_stock(scenario, _Scenario)
        return {c.id: _brought(c, read.bodies) for c in read.combatants} if read else {}

    def supplies(self, c: FivestepCombatant, stock: Stock) -> str:
        """Each weapon it uses up, with what is left of it ("Pistol 4/6 shots")."""
        brought = stock.get(c.id)
        return "; ".join(
            f"{name} {max(uses - c.used.get(name, 0), 0)}/{uses} {unit}"
            for name, uses, unit in (brought.supplies if brought else ())
        )

    health_name = "% left of the worst-hurt vital part"

    def health(self, c: FivestepCombatant, stock: Stock) -> tuple[Decimal, Decimal]:
        """The share left, in percent, of the vital part nearest to losing its function (ruling 45: a
        vital part without function puts the character out); of its whole body where the log does not
        say which parts are vital."""
        brought = stock.get(c.id)
        vital = [part for part in (brought.vital if brought else ()) if c.parts.get(part)]
        if vital:
            left = min(1 - c.location_damage.get(part, _ZERO) / c.parts[part] for part in vital)
        else:
            left = c.damage_left / c.damage_points if c.damage_points else _ZERO
        return round(max(left, _ZERO) * _HUNDRED, 1), _HUNDRED

    def harm(self, c: FivestepCombatant) -> str:
        """The points it took, on how many body parts, and which are without function (F11)."""
        hurt = [part for part, taken in c.location_damage.items() if taken > 0]
        if not hurt:
            return "unhurt"
        parts = "1 body part" if len(hurt) == 1 else f"{len(hurt)} body parts"
        without = f"; without function: {', '.join(c.disabled)}" if c.disabled else ""
        return f"took {number(c.damage_taken)} points on {parts}{without}"


DISPLAY = FivestepDisplay()
