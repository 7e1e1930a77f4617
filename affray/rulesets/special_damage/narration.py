"""Tell the special_damage module's events (rules S1-S10): the chance and the type roll with its modifiers,
conditions, losses, explosions, rulings, and the aftermath's healing and repair."""

from __future__ import annotations

from affray.events.special_damage.kinds import (
    AftermathEnded,
    AftermathStarted,
    ConditionEnded,
    ConditionStarted,
    EquipmentLost,
    Exploded,
    Healed,
    HealingScheduled,
    NotHealed,
    ProgramsDestroyed,
    RefereeRuling,
    SpecialDamage,
)
from affray.events.special_damage.state import Field
from affray.kernel.clock import game_time
from affray.kernel.ruleset import Teller
from affray.replays.telling import face, number, rolled


def _special(event: SpecialDamage, state: Field) -> str:
    mods = "".join(f" {m.value:+d} {m.reason.lower()}" for m in event.modifiers)
    injury = ""
    if event.injury is not None:
        parts = [f"{event.injury.to_hit:+d} to hit" if event.injury.to_hit else ""]
        parts.append(f"{number(event.injury.movement)} m/s" if event.injury.movement else "")
        parts.append("cannot move" if event.injury.cannot_move else "")
        injury = "; " + ", ".join(p for p in parts if p) if any(parts) else ""
    target = state.combatants[event.target]
    return (
        f"special damage to {event.target}: chance {event.chance}% (3 + 2 x level {event.skill_level}"
        f"{f' + aim {event.aim_rounds}' if event.aim_rounds else ''}), roll {event.hit_roll};"
        f" type {rolled(event.type_roll)}{mods}"
        f" = {event.total} -> {event.damage}: +{number(event.stamina)} damage{injury}"
        f"{f', {event.equipment} equipment lost' if event.equipment else ''}; "
        f"{event.target} has {number(target.damage_left)}/{number(target.damage_points)} DP"
    )


def _condition(event: ConditionStarted, state: Field) -> str:
    chance = (
        f" ({event.chance}%: {face(event.chance_roll)})"
        if event.chance is not None and event.chance_roll
        else ""
    )
    if event.until_ms is None:
        return f"{event.combatant} is {event.condition}{chance} by {event.cause}"
    duration = f" ({rolled(event.duration)})" if event.duration else ""
    return (
        f"{event.combatant} is {event.condition}{chance} by {event.cause} until "
        f"{game_time(event.until_ms)}{duration}"
    )


def _condition_ended(event: ConditionEnded, state: Field) -> str:
    return f"{event.combatant} is no longer {event.condition}"


def _equipment(event: EquipmentLost, state: Field) -> str:
    if event.weapon is not None:
        return (
            f"{event.combatant} loses its {event.weapon} (weapon instead of equipment: roll "
            f"{face(event.weapon_roll)})"
        )
    items = ", ".join(f"{i.units} {i.name}" for i in event.items) or "nothing left to lose"
    return f"{event.combatant} loses equipment: {items} (weapon roll {face(event.weapon_roll)})"


def _programs(event: ProgramsDestroyed, state: Field) -> str:
    gone = ", ".join(event.destroyed) or "none"
    alarms = f"; alarms: {', '.join(event.alarms)}" if event.alarms else ""
    boom = "; more destroyed than it had: it explodes" if event.explodes else ""
    wanted = f"{event.total} // 5 = {event.total // 5}"
    return f"{event.computer} loses {len(event.destroyed)} programs ({wanted}): {gone}{alarms}{boom}"


def _exploded(event: Exploded, state: Field) -> str:
    hits = "; ".join(
        f"{h.combatant} at {number(h.distance)} m: RS {h.rs_target} roll {face(h.rs_roll)}"
        f"{' halved' if h.halved else ''} -> {number(h.damage)}"
        for h in event.hits
    )
    return f"{event.source} explodes: {rolled(event.roll)} within {event.radius_m} m: {hits or 'no one near'}"


def _ruling(event: RefereeRuling, state: Field) -> str:
    return (
        f"referee ruling on {event.target}'s special damage #{event.nth}: {event.rolled} "
        f"(+{number(event.stamina_rolled)})"
        f" becomes {event.ruled} (+{number(event.stamina_ruled)}): {event.reason}"
    )


def _aftermath(event: AftermathStarted, state: Field) -> str:
    limbs = "set in time" if event.limbs_set_in_time else "not set in time (hospital)"
    days = "1 day" if event.days == 1 else f"{event.days} days"
    restored = f"; the damage points of {', '.join(event.restored)} are healed" if event.restored else ""
    return f"the fight is over: {days} of healing and repair begin (broken limbs {limbs}){restored}"


def _scheduled(event: HealingScheduled, state: Field) -> str:
    extra = f" + {event.extra_minutes} min" if event.extra_minutes else ""
    cost = f", {event.cost} Cr" if event.cost else ""
    note = f"; {event.note}" if event.note else ""
    return (
        f"{event.combatant}'s {event.injury} heals as {event.heals_as}: {rolled(event.roll)}{extra}, ready "
        f"at "
        f"{game_time(event.ready_ms)}{cost}{note}"
    )


def _healed(event: Healed, state: Field) -> str:
    return f"{event.combatant}'s {event.injury} has healed: its penalties are gone"


def _not_healed(event: NotHealed, state: Field) -> str:
    return f"{event.combatant}'s {event.injury} does not heal: {event.reason}"


def _aftermath_ended(event: AftermathEnded, state: Field) -> str:
    return "1 day has passed" if event.days == 1 else f"{event.days} days have passed"


TELLERS: dict[type, Teller] = {
    SpecialDamage: _special,
    ConditionStarted: _condition,
    ConditionEnded: _condition_ended,
    EquipmentLost: _equipment,
    ProgramsDestroyed: _programs,
    Exploded: _exploded,
    RefereeRuling: _ruling,
    AftermathStarted: _aftermath,
    HealingScheduled: _scheduled,
    Healed: _healed,
    NotHealed: _not_healed,
    AftermathEnded: _aftermath_ended,
}
"""A teller for each of the module's kinds."""
