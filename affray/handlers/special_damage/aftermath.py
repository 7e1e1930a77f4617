"""The long clock after a fight (rules S7, S8): special damage heals, robots are repaired.

The encounter's clock runs on from the end of the fight for the days asked. Each injury heals on its own
clock ("healing times are not cumulative"), from the start of the aftermath: the host's own rules heal the
Stamina (damage points) first, and affray takes a living survivor's as healed when the aftermath begins
(ruling 21: ``AftermathStarted.restored``); a robot keeps its damage points. A
robot is repaired by a combatant of its side with Robotics skill, one injury after another; without one it
stays damaged. Timed conditions (unconsciousness, stuns) end when their time comes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any

from affray.events.base import Event
from affray.events.special_damage.kinds import (
    AftermathEnded,
    AftermathStarted,
    ConditionEnded,
    Healed,
    HealingScheduled,
    Injury,
    NotHealed,
)
from affray.events.special_damage.state import Carrier, dead
from affray.handlers.special_damage.host import SpecialHost
from affray.kernel.clock import MS_PER_DAY, UNIT_MS
from affray.rules.special_damage.recovery import healing_time, repair_time

if TYPE_CHECKING:
    from affray.kernel.encounter import Encounter

TIMED = ("unconscious", "stunned")
"""The conditions that end with time (S4, S5); a deactivation lasts."""


def run_aftermath(encounter: Encounter[Any], host: SpecialHost, days: int) -> None:
    """Continue ``encounter`` (a finished fight under ``host``) for ``days`` of healing and repair,
    appending its events."""
    options = host.special_options
    restored = tuple(
        c.id
        for c in encounter.state.combatants.values()
        if c.special.body == "living" and not dead(c) and (c.damage_taken or c.location_damage or c.disabled)
    )
    encounter.emit(
        AftermathStarted(days=days, limbs_set_in_time=options.limbs_set_in_time, restored=restored)
    )
    end = int(encounter.now) + days * MS_PER_DAY
    combatant: Carrier
    for combatant in encounter.state.combatants.values():
        for condition in TIMED:
            until = combatant.conditions.get(condition)
            if until is not None and until > encounter.now and "deactivated" not in combatant.conditions:
                encounter.process(_wake(encounter, combatant, condition, until))
        body = combatant.special.body
        if body == "robot":
            encounter.process(_repairs(encounter, host, combatant))
        elif body == "living":
            for injury in list(combatant.special.injuries):
                _heal(encounter, options.limbs_set_in_time, combatant, injury)
    finished = encounter.timeout(end - int(encounter.now))
    encounter.run(until=finished)
    encounter.emit(AftermathEnded(days=days))


def started_by(event: Event) -> int | None:
    """The days of the aftermath that ``event`` begins (None when it begins none)."""
    return event.days if isinstance(event, AftermathStarted) else None


def summary(added: Sequence[Event]) -> str:
    """What an aftermath's events did: whose damage points it restored, the injuries healed or repaired of
    all there were (and why the others were not), and the fees."""
    started = next((e for e in added if isinstance(e, AftermathStarted)), None)
    restored = len(started.restored) if started else 0
    scheduled = [e for e in added if isinstance(e, HealingScheduled)]
    cost = sum(e.cost for e in scheduled)
    lines = [
        f"damage points of {restored} {'survivor' if restored == 1 else 'survivors'} restored",
        _injuries_healed(added, len(scheduled)),
    ]
    return ", ".join(lines) + (f", {cost} Cr in fees" if cost else "")


def _injuries_healed(added: Sequence[Event], scheduled: int) -> str:
    """How many injuries were healed or repaired, of all there were, and why the others were not."""
    healed = sum(isinstance(e, Healed) for e in added)
    why = Counter(e.reason for e in added if isinstance(e, NotHealed))
    cannot = "; ".join(f"{count} not: {reason}" for reason, count in why.items())
    injuries = scheduled + sum(why.values())
    told = f"{healed} of {injuries} {'injury' if injuries == 1 else 'injuries'} healed or repaired"
    return told + (f" ({cannot})" if cannot else "")


def _heal(encounter: Encounter[Any], treated: bool, combatant: Carrier, injury: Injury) -> None:
    if dead(combatant):
        return
    if injury.heals_as is None:
        encounter.emit(NotHealed(combatant=combatant.id, injury=injury.name, reason="it does not heal"))
        return
    time = healing_time(
        injury.heals_as, treated if injury.heals_as in ("broken limb", "nerve damage", "back wound") else None
    )
    roll = encounter.dice.roll(combatant.id, "healing", time.dice)
    duration = max(roll.total, 0)
    ready = int(encounter.now) + duration * UNIT_MS[time.unit]
    cost = time.flat_cost + time.cost_per_day * (duration if time.unit == "days" else 0)
    note = ""
    if time.rest_hours_per_day:
        note = f"resting {time.rest_hours_per_day} h a day"
    encounter.emit(
        HealingScheduled(
            combatant=combatant.id,
            injury=injury.name,
            heals_as=injury.heals_as,
            roll=roll,
            ready_ms=ready,
            cost=cost,
            note=note,
        )
    )
    encounter.process(_healed_at(encounter, combatant.id, injury.name, ready))


def _repairs(encounter: Encounter[Any], host: SpecialHost, robot: Carrier) -> Generator[Any, Any, None]:
    """S8: one repair after another by the best Robotics skill of the robot's side."""
    combatants: dict[str, Carrier] = encounter.state.combatants
    skills = {c.id: host.profile(c.id).traits.robotics_skill for c in combatants.values()}
    mechanics = [c for c in combatants.values() if c.side == robot.side and not dead(c) and skills[c.id] > 0]
    for injury in list(robot.special.injuries):
        if dead(robot) or not mechanics or injury.heals_as is None:
            reason = "no one of its side has Robotics skill" if not mechanics else "it cannot be repaired"
            if dead(robot):
                reason = "destroyed"
            encounter.emit(NotHealed(combatant=robot.id, injury=injury.name, reason=reason))
            continue
        mechanic = max(mechanics, key=lambda m: skills[m.id])
        kind: Any = injury.heals_as
        time = repair_time(kind, injury.joints, injury.brain_casing_hit, injury.brain_and_body_cracked)
        roll = encounter.dice.roll(robot.id, "repair", time.dice)
        minutes = max(roll.total, 0) + time.extra_minutes
        ready = int(encounter.now) + minutes * UNIT_MS["minutes"]
        encounter.emit(
            HealingScheduled(
                combatant=robot.id,
                injury=injury.name,
                heals_as=injury.heals_as,
                roll=roll,
                extra_minutes=time.extra_minutes,
                ready_ms=ready,
                note=f"repaired by {mechanic.id} (Robotics {skills[mechanic.id]})",
            )
        )
        yield encounter.timeout(ready - int(encounter.now))
        encounter.emit(Healed(combatant=robot.id, injury=injury.name))


def _healed_at(
    encounter: Encounter[Any], combatant: str, injury: str, ready: int
) -> Generator[Any, Any, None]:
    yield encounter.timeout(ready - int(encounter.now))
    encounter.emit(Healed(combatant=combatant, injury=injury))


def _wake(
    encounter: Encounter[Any], combatant: Carrier, condition: str, until: int
) -> Generator[Any, Any, None]:
    yield encounter.timeout(until - int(encounter.now))
    if combatant.conditions.get(condition) == until:
        encounter.emit(ConditionEnded(combatant=combatant.id, condition=condition))  # type: ignore[arg-type]
