"""What a special damage leaves its target in (rules S4, S5): unconscious or stunned for a rolled time, on the
clock, or deactivated for good, each perhaps by a chance; a damaged robot's explosion."""

from __future__ import annotations

from collections.abc import Generator
from decimal import Decimal
from typing import Any

from affray.events.shared import CheckRolled
from affray.events.special_damage.kinds import ConditionEnded, ConditionStarted
from affray.events.special_damage.state import Carrier
from affray.handlers.special_damage.host import SpecialHost
from affray.handlers.special_damage.losses import explode
from affray.kernel.clock import UNIT_MS
from affray.kernel.encounter import Encounter
from affray.rules.special_damage.tables import Effect

PERCENT_DIE = "1d100"


def start_conditions(
    encounter: Encounter[Any], host: SpecialHost, target: Carrier, cause: str, effect: Effect
) -> None:
    """Unconsciousness, stuns and deactivation (S4, S5) as timed conditions; a robot's explosion."""
    if effect.unconscious and effect.unconscious_unit:
        chance = effect.unconscious_chance or 100
        _timed(
            encounter, target.id, "unconscious", cause, chance, effect.unconscious, effect.unconscious_unit
        )
    if effect.stun and effect.stun_unit:
        _timed(
            encounter, target.id, "stunned", cause, effect.stun_chance or 100, effect.stun, effect.stun_unit
        )
    if effect.deactivated:
        encounter.emit(ConditionStarted(combatant=target.id, condition="deactivated", cause=cause))
    elif effect.deactivation_chance:
        _deactivation(encounter, target.id, cause, effect.deactivation_chance)
    if effect.explosion is not None:
        explode(encounter, host, target.id, effect.explosion)


def _deactivation(encounter: Encounter[Any], combatant: str, cause: str, chance: int) -> None:
    """S5: a robot's chance of deactivation, the roll kept whatever it gives."""
    roll = encounter.dice.roll(combatant, "deactivation", PERCENT_DIE)
    if roll.total > chance:
        encounter.emit(
            CheckRolled(
                combatant=combatant, check="deactivation", roll=roll, chance=Decimal(chance), under=False
            )
        )
        return
    encounter.emit(
        ConditionStarted(
            combatant=combatant, condition="deactivated", cause=cause, chance=chance, chance_roll=roll
        )
    )


def _timed(
    encounter: Encounter[Any], combatant: str, condition: str, cause: str, chance: int, dice: str, unit: str
) -> None:
    """A condition for a rolled time, when its chance (if under 100 %) is rolled; it ends on the clock."""
    chance_roll = None
    if chance < 100:
        chance_roll = encounter.dice.roll(combatant, condition, PERCENT_DIE)
        if chance_roll.total > chance:
            encounter.emit(
                CheckRolled(
                    combatant=combatant,
                    check=condition,
                    roll=chance_roll,
                    chance=Decimal(chance),
                    under=False,
                )
            )
            return
    duration = encounter.dice.roll(combatant, f"{condition}-time", dice)
    until = int(encounter.now) + max(duration.total, 0) * UNIT_MS[unit]
    encounter.emit(
        ConditionStarted(
            combatant=combatant,
            condition=condition,  # type: ignore[arg-type]
            cause=cause,
            chance=chance if chance < 100 else None,
            chance_roll=chance_roll,
            duration=duration,
            until_ms=until,
        )
    )
    encounter.process(_condition_ends(encounter, combatant, condition, until))


def _condition_ends(
    encounter: Encounter[Any], combatant: str, condition: str, until: int
) -> Generator[Any, Any, None]:
    yield encounter.timeout(until - int(encounter.now))
    state = encounter.state
    mine: Carrier = state.combatants[combatant]
    if not state.ended and not mine.out and mine.conditions.get(condition) == until:
        encounter.emit(ConditionEnded(combatant=combatant, condition=condition))  # type: ignore[arg-type]
