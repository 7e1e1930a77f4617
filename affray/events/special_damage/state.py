"""What the special_damage module's events establish (rules S3-S8), whatever the host ruleset.

A host's combatant state carries a :class:`SpecialState` in its ``special`` field; the module's appliers
write there, and into the shared fields of the combatant (damage taken and dealt, damage by part,
conditions). The host reads the injuries' penalties from it.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Literal, Protocol

import msgspec

from affray.events.base import Position
from affray.events.special_damage.kinds import (
    AftermathEnded,
    AftermathStarted,
    ConditionEnded,
    ConditionStarted,
    EquipmentLost,
    Exploded,
    Healed,
    HealingScheduled,
    Injury,
    NotHealed,
    ProgramsDestroyed,
    RefereeRuling,
    SpecialDamage,
)
from affray.events.state import unchanged
from affray.events.vocabulary import Part

Body = Literal["living", "robot", "computer"]
_ZERO = Decimal(0)


class SpecialState(msgspec.Struct, kw_only=True):
    """Special damage a combatant carries and what it lost (rules S3-S6); healed injuries are dropped."""

    body: Body = "living"
    """What special damage does to it: a living being, a robot or a computer."""
    injuries: list[Injury] = msgspec.field(default_factory=list)
    hits: int = 0
    """Special damages it took, for the referee's rulings (S10)."""
    lost: dict[str, int] = msgspec.field(default_factory=dict)
    """Units of equipment destroyed, by name (rule S3)."""
    destroyed_weapons: list[str] = msgspec.field(default_factory=list)
    programs_lost: list[str] = msgspec.field(default_factory=list)
    alarms: list[str] = msgspec.field(default_factory=list)

    def to_hit(self) -> int:
        """The sum of its injuries' penalties to hit (rules S4, S5)."""
        return sum(injury.to_hit for injury in self.injuries) if self.injuries else 0

    def malfunction_chance(self) -> int:
        """The percent chance that a damaged robot's systems fail it this action (rule S5)."""
        return sum(injury.malfunction_chance for injury in self.injuries) if self.injuries else 0

    def cannot_move(self) -> bool:
        """Whether an injury keeps it where it is (S4, S5)."""
        return any(injury.cannot_move for injury in self.injuries)

    def no_melee(self) -> bool:
        """Whether an injury forbids it melee attacks (S4)."""
        return any(injury.no_melee for injury in self.injuries)


class Carrier(Protocol):
    """A host's combatant as the module's appliers and handlers see it."""

    id: str
    side: str
    position: Position
    out: bool
    out_reason: str | None
    damage_taken: Decimal
    damage_dealt: Decimal
    location_damage: dict[str, Decimal]
    disabled: list[str]
    conditions: dict[str, int | None]
    special: SpecialState

    def incapacitated(self, now: int) -> bool:
        """Out, or under a condition at ``now``."""
        ...

    def velocity_at(self, now: int) -> Position:
        """Its velocity in m/s at ``now``."""
        ...


class Field(Protocol):
    """A host's encounter state as the module sees it: the combatants by id."""

    @property
    def combatants(self) -> dict[str, Any]:
        """Every combatant by id (each a :class:`Carrier`)."""
        ...


def _special(state: Field, e: SpecialDamage) -> None:
    attacker: Carrier = state.combatants[e.attacker]
    target: Carrier = state.combatants[e.target]
    attacker.damage_dealt += e.stamina
    target.damage_taken += e.stamina
    if isinstance(e.part, str):
        target.location_damage[e.part] = target.location_damage.get(e.part, _ZERO) + e.stamina
    target.special.hits += 1
    if e.injury is not None:
        target.special.injuries.append(e.injury)


def _condition(state: Field, e: ConditionStarted) -> None:
    combatant: Carrier = state.combatants[e.combatant]
    combatant.conditions[e.condition] = e.until_ms


def _condition_ended(state: Field, e: ConditionEnded) -> None:
    combatant: Carrier = state.combatants[e.combatant]
    combatant.conditions.pop(e.condition, None)


def _equipment(state: Field, e: EquipmentLost) -> None:
    special = state.combatants[e.combatant].special
    for item in e.items:
        special.lost[item.name] = special.lost.get(item.name, 0) + item.units
    if e.weapon is not None:
        special.destroyed_weapons.append(e.weapon)


def _programs(state: Field, e: ProgramsDestroyed) -> None:
    special = state.combatants[e.computer].special
    special.programs_lost.extend(e.destroyed)
    special.alarms.extend(e.alarms)


def _exploded(state: Field, e: Exploded) -> None:
    for hit in e.hits:
        state.combatants[hit.combatant].damage_taken += hit.damage


def dead(combatant: Carrier) -> bool:
    """Killed outright: a mortal location (E20), a deadly special damage (S4) or an explosion (S5, S6).

    A combatant merely put out at 0 damage points or fewer, knocked out, fled or surrendered lives to heal
    (a ruling).
    """
    reason = combatant.out_reason or ""
    return combatant.out and any(word in reason for word in ("death", "special damage:", "exploded"))


def _aftermath(state: Field, e: AftermathStarted) -> None:
    """Ruling 21: the host's own rules heal the damage points of the living first; their locations too."""
    for combatant_id in e.restored:
        combatant: Carrier = state.combatants[combatant_id]
        combatant.damage_taken = _ZERO
        combatant.location_damage.clear()
        combatant.disabled.clear()


def _healed(state: Field, e: Healed) -> None:
    injuries = state.combatants[e.combatant].special.injuries
    for index, injury in enumerate(injuries):
        if injury.name == e.injury:
            del injuries[index]
            return


SPECIAL_DAMAGE = Part(
    name="special_damage",
    appliers={
        SpecialDamage: _special,
        ConditionStarted: _condition,
        ConditionEnded: _condition_ended,
        EquipmentLost: _equipment,
        ProgramsDestroyed: _programs,
        Exploded: _exploded,
        RefereeRuling: unchanged,
        AftermathStarted: _aftermath,
        HealingScheduled: unchanged,
        Healed: _healed,
        NotHealed: unchanged,
        AftermathEnded: unchanged,
    },
)
"""The special_damage module's kinds (rules S1-S10)."""
