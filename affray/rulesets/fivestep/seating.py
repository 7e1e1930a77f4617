"""Fivestep characters played step by step from outside affray (affray.envs): who can be, their menu of
steps (handlers/fivestep/legal.py) and what they observe.

An observation is ``1 + 6 * n`` numbers for a scenario of ``n`` characters: the share of the time limit
gone, then for the observer first and every other character in file order (zeros until both have
joined): standing (1) or not (0), on
the observer's side (1) or not (0), x and y in metres from the observer, the share of its damage points
left, and the share of its turn's Agility Points it has left to spend (0 between its turns).
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from affray.events.fivestep.state import FivestepCombatant, FivestepState
from affray.events.fivestep.steps import Step
from affray.handlers.fivestep.scenario import FivestepScenario
from affray.kernel.clock import MS_PER_SECOND
from affray.npc.outside import seated_outside

if TYPE_CHECKING:
    from affray.handlers.fivestep.battle import FivestepBattle

_ZERO = Decimal(0)


class FivestepSeating:
    """The fivestep ruleset's :class:`~affray.kernel.ruleset.Seating`."""

    def players(self, scenario: FivestepScenario) -> tuple[str, ...]:
        """Every character: each declares its own steps."""
        return tuple(c.id for c in scenario.combatants)

    def seated(self, scenario: FivestepScenario, players: Any) -> FivestepScenario:
        """The scenario with ``players`` played from outside."""
        seated: FivestepScenario = seated_outside(scenario, players)
        return seated

    def menu(self, battle: FivestepBattle, combatant: str) -> tuple[Step | None, ...]:
        """Its menu against the other sides (handlers/fivestep/legal.py), ending with None."""
        from affray.handlers.fivestep.asked import menu_for

        return menu_for(battle.fighters, combatant)

    def observe(
        self, scenario: FivestepScenario, state: FivestepState, combatant: str, now: int
    ) -> list[float]:
        """The numbers the module docstring lists; zeros for a character whose side has not joined yet."""
        seen = [min(now / (scenario.max_seconds * MS_PER_SECOND), 1.0)]
        observer = state.combatants.get(combatant)
        order = [combatant, *(c.id for c in scenario.combatants if c.id != combatant)]
        for character in order:
            other = state.combatants.get(character)
            seen.extend(_features(observer, other, now) if observer and other else [0.0] * FEATURES)
        return seen


FEATURES = 6
"""The numbers observed of each character."""


def _features(observer: FivestepCombatant, other: FivestepCombatant, now: int) -> list[float]:
    turn = other.turn
    spendable = (
        turn.available / (turn.available + turn.spent) if turn and turn.available + turn.spent else 0.0
    )
    return [
        0.0 if other.incapacitated(now) else 1.0,
        1.0 if other.side == observer.side else 0.0,
        float(other.position[0] - observer.position[0]),
        float(other.position[1] - observer.position[1]),
        float(max(other.damage_left, _ZERO) / other.damage_points),
        spendable,
    ]
