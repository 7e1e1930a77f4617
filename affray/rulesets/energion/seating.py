"""Energion combatants played step by step from outside affray (affray.envs): who can be, their menu of
intents (handlers/energion/repertoire.py) and what they observe.

An observation is ``1 + 8 * n`` numbers for a scenario of ``n`` combatants: the share of the time limit
gone, then for the observer first and every other combatant in file order: standing (1) or out (0), on
the observer's side (1) or not (0), x and y in metres from the observer, the share of its damage points
left, its weapon ready (1/0), held or holding (1/0), knocked down (1/0).
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from affray.events.energion.state import EnergionCombatant, EnergionState
from affray.handlers.energion.scenario import EnergionScenario
from affray.kernel.clock import MS_PER_SECOND
from affray.npc.energion.intents import Intent
from affray.npc.outside import seated_outside

if TYPE_CHECKING:
    from affray.handlers.energion.battle import EnergionBattle

_ZERO = Decimal(0)


class EnergionSeating:
    """The Energion ruleset's :class:`~affray.kernel.ruleset.Seating`."""

    def players(self, scenario: EnergionScenario) -> tuple[str, ...]:
        """Every combatant but a computer, which is a target and never acts."""
        return tuple(c.id for c in scenario.combatants if c.kind != "computer")

    def seated(self, scenario: EnergionScenario, players: Any) -> EnergionScenario:
        """The scenario with ``players`` played from outside."""
        seated: EnergionScenario = seated_outside(scenario, players)
        return seated

    def menu(self, battle: EnergionBattle, combatant: str) -> tuple[Intent, ...]:
        """Its menu against the other sides (handlers/energion/repertoire.py)."""
        from affray.handlers.energion.repertoire import menu_for

        return menu_for(battle.loadouts, combatant)

    def observe(
        self, scenario: EnergionScenario, state: EnergionState, combatant: str, now: int
    ) -> list[float]:
        """The numbers the module docstring lists."""
        observer = state.combatants[combatant]
        others = [c for c in state.combatants.values() if c.id != combatant]
        seen = [min(now / (scenario.max_seconds * MS_PER_SECOND), 1.0)]
        for other in (observer, *others):
            seen.extend(_features(observer, other))
        return seen


def _features(observer: EnergionCombatant, other: EnergionCombatant) -> list[float]:
    return [
        0.0 if other.out else 1.0,
        1.0 if other.side == observer.side else 0.0,
        float(other.position[0] - observer.position[0]),
        float(other.position[1] - observer.position[1]),
        float(max(other.damage_left, _ZERO) / other.damage_points),
        1.0 if other.weapon_ready else 0.0,
        1.0 if other.held_by is not None or other.holding is not None else 0.0,
        1.0 if other.knocked_down else 0.0,
    ]
