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


def _special(e: SpecialDamage, s: Field) -> str:
    mods = "".join(f" {m.value:+d} {m.reason.lower()}" for m in e.modifiers)
    injury = ""
    if e.injury is not None:
        parts = [f"{e.injury.to_hit:+d} to hit" if e.injury.to_hit else ""]
        parts.append(f"{number(e.injury.movement)} m/s" if e.injury.movement else "")
        parts.append("cannot move" if e.injury.cannot_move else "")
        injury = "; " + ", ".join(p for p in parts if p) if any(parts) else ""
    target = s.combatants[e.target]
    return (
        f"special damage to {e.target}: chance {e.chance}% (3 + 2 x level {e.skill_level}"
        f"{f' + aim {e.aim_rounds}' if e.aim_rounds else ''}), roll {e.hit_roll};"
        f" type {rolled(e.type_roll)}{mods}"
        f" = {e.total} -> {e.damage}: +{number(e.stamina)} damage{injury}"
        f"{f', {e.equipment} equipment lost' if e.equipment else ''}; "
        f"{e.target} has {number(target.damage_left)}/{number(target.damage_points)} DP"
    )


def _condition(e: ConditionStarted, s: Field) -> str:
    chance = f" ({e.chance}%: {face(e.chance_roll)})" if e.chance is not None and e.chance_roll else ""
    if e.until_ms is None:
        return f"{e.combatant} is {e.condition}{chance} by {e.cause}"
    duration = f" ({rolled(e.duration)})" if e.duration else ""
    return f"{e.combatant} is {e.condition}{chance} by {e.cause} until {game_time(e.until_ms)}{duration}"


def _condition_ended(e: ConditionEnded, s: Field) -> str:
    return f"{e.combatant} is no longer {e.condition}"


def _equipment(e: EquipmentLost, s: Field) -> str:
    if e.weapon is not None:
        return f"{e.combatant} loses its {e.weapon} (weapon instead of equipment: roll {face(e.weapon_roll)})"
    items = ", ".join(f"{i.units} {i.name}" for i in e.items) or "nothing left to lose"
    return f"{e.combatant} loses equipment: {items} (weapon roll {face(e.weapon_roll)})"


def _programs(e: ProgramsDestroyed, s: Field) -> str:
    gone = ", ".join(e.destroyed) or "none"
    alarms = f"; alarms: {', '.join(e.alarms)}" if e.alarms else ""
    boom = "; more destroyed than it had: it explodes" if e.explodes else ""
    wanted = f"{e.total} // 5 = {e.total // 5}"
    return f"{e.computer} loses {len(e.destroyed)} programs ({wanted}): {gone}{alarms}{boom}"


def _exploded(e: Exploded, s: Field) -> str:
    hits = "; ".join(
        f"{h.combatant} at {number(h.distance)} m: RS {h.rs_target} roll {face(h.rs_roll)}"
        f"{' halved' if h.halved else ''} -> {number(h.damage)}"
        for h in e.hits
    )
    return f"{e.source} explodes: {rolled(e.roll)} within {e.radius_m} m: {hits or 'no one near'}"


def _ruling(e: RefereeRuling, s: Field) -> str:
    return (
        f"referee ruling on {e.target}'s special damage #{e.nth}: {e.rolled} (+{number(e.stamina_rolled)})"
        f" becomes {e.ruled} (+{number(e.stamina_ruled)}): {e.reason}"
    )


def _aftermath(e: AftermathStarted, s: Field) -> str:
    limbs = "set in time" if e.limbs_set_in_time else "not set in time (hospital)"
    days = "1 day" if e.days == 1 else f"{e.days} days"
    restored = f"; the damage points of {', '.join(e.restored)} are healed" if e.restored else ""
    return f"the fight is over: {days} of healing and repair begin (broken limbs {limbs}){restored}"


def _scheduled(e: HealingScheduled, s: Field) -> str:
    extra = f" + {e.extra_minutes} min" if e.extra_minutes else ""
    cost = f", {e.cost} Cr" if e.cost else ""
    note = f"; {e.note}" if e.note else ""
    return (
        f"{e.combatant}'s {e.injury} heals as {e.heals_as}: {rolled(e.roll)}{extra}, ready at "
        f"{game_time(e.ready_ms)}{cost}{note}"
    )


def _healed(e: Healed, s: Field) -> str:
    return f"{e.combatant}'s {e.injury} has healed: its penalties are gone"


def _not_healed(e: NotHealed, s: Field) -> str:
    return f"{e.combatant}'s {e.injury} does not heal: {e.reason}"


def _aftermath_ended(e: AftermathEnded, s: Field) -> str:
    return "1 day has passed" if e.days == 1 else f"{e.days} days have passed"


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
