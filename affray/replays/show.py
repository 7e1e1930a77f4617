"""``affray state``'s table: every combatant's damage points, position, status and target at a moment,
with the lines the ruleset and its modules add (wounds, injuries, losses)."""

from __future__ import annotations

from typing import Any

from affray.events.state import CombatantState, EncounterState
from affray.kernel.clock import game_time
from affray.kernel.fold import digest
from affray.kernel.ruleset import Reading
from affray.replays.telling import number


def conditions_now(c: CombatantState, now: int) -> str:
    """The conditions that keep it out of action at ``now`` ("" when none): "unconscious until 12.000 s"."""
    active = [
        name if until is None else f"{name} until {game_time(until)}"
        for name, until in c.conditions.items()
        if until is None or now < until
    ]
    return ", ".join(active)


def show_state(state: EncounterState[Any], moment: int | None, reading: Reading, stock: Any) -> list[str]:
    """The state as lines for people, at ``moment`` (ms) or after its last event; ``stock`` is what the
    combatants brought (``StateDisplay.stock``), to say what they have left."""
    over = f"; ended: {state.end_reason}" if state.ended else ""
    if moment is None:
        when = f"after seq {state.seq}, at {game_time(state.t)}"
    else:
        when = f"at {game_time(moment)} (the last event before it: seq {state.seq} at {game_time(state.t)})"
    display = reading.ruleset.display
    lines = [f"{when}{over}; state digest {digest(state)}"]
    lines += [f"  {line}" for line in display.overview(state)]
    lines.append(f"  {'id':<12} {'side':<10} {'left':>15} {'position':>18}  {'status':<30} target")
    now = moment if moment is not None else state.t
    for c in state.combatants.values():
        status = f"out: {c.out_reason}" if c.out else conditions_now(c, now) or display.status(c)
        where = f"({number(c.position[0])}, {number(c.position[1])})"
        left = display.left(c)
        target = display.target(c) or "-"
        lines.append(f"  {c.id:<12} {c.side:<10} {left:>15} {where:>18}  {status:<30} {target}")
        supplies = display.supplies(c, stock)
        details = ([f"supplies: {supplies}"] if supplies else []) + display.details(c)
        for module in reading.modules:
            details += module.details(c)
        lines += [f"  {'':<12} {line}" for line in details]
    return lines
