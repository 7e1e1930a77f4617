"""Moving on the plane for a second: toward a target until within reach, or away from it in flight."""

from __future__ import annotations

from decimal import Decimal

from affray.events.energion.state import EnergionCombatant, EnergionState
from affray.events.shared import Moved
from affray.handlers.energion.host import Arena
from affray.handlers.energion.loadout import Loadout
from affray.kernel.space import approach, distance, step_toward

LEGS = ("right leg", "left leg")


def pace(live: EnergionCombatant, step: Decimal) -> Decimal:
    """Metres in a second: its move rate, halved for each unusable leg (a ruling on E20), less its
    injuries' movement penalties and within their caps (rules S4, S5); never below 0."""
    for leg in LEGS:
        if leg in live.disabled:
            step = step / 2
    for injury in live.special.injuries:
        if injury.cannot_move:
            return Decimal(0)
        step += injury.movement
        if injury.movement_max is not None:
            step = min(step, injury.movement_max)
    return max(step, Decimal(0))


ESCAPE_DISTANCE = Decimal(30)
"""A fleeing combatant this far from every standing enemy has left the fight (a ruling)."""


def flee(
    encounter: Arena, loadout: Loadout, live: EnergionCombatant, target: EnergionCombatant, step: Decimal
) -> None:
    """A second's run straight away from ``target`` (along the x axis when they stand on one point)."""
    step = pace(live, step)
    if step <= 0:
        return
    start = live.position
    away = (start[0] - target.position[0], start[1] - target.position[1])
    if not (away[0] or away[1]):
        away = (Decimal(1), Decimal(0))
    end = step_toward(start, (start[0] + away[0] * 1000, start[1] + away[1] * 1000), step)
    encounter.emit(
        Moved(
            combatant=loadout.id,
            toward=target.id,
            start=start,
            end=end,
            distance=distance(start, end),
            fleeing=True,
        )
    )


def escaped(state: EnergionState, live: EnergionCombatant) -> bool:
    """Whether a fleeing combatant is far enough from every standing enemy to have left the fight."""
    return all(
        distance(live.position, other.position) >= ESCAPE_DISTANCE
        for other in state.combatants.values()
        if other.side != live.side and not other.out
    )


def move(
    encounter: Arena, loadout: Loadout, live: EnergionCombatant, target: EnergionCombatant, step: Decimal
) -> None:
    """One second's move toward ``target``, ending within reach when it can."""
    step = pace(live, step)
    reach = loadout.arms[live.weapon_index].reach
    gap = distance(live.position, target.position)
    if gap <= reach or step <= 0:
        return
    if gap - reach <= step:
        end = approach(live.position, target.position, reach)
    else:
        end = step_toward(live.position, target.position, step)
    encounter.emit(
        Moved(
            combatant=loadout.id,
            toward=target.id,
            start=live.position,
            end=end,
            distance=distance(live.position, end),
        )
    )
