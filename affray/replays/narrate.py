"""Tell a fight one line per event: game time in seconds, what happened, and the numbers behind it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from affray.events.base import Event
from affray.events.kinds import (
    ActionRefused,
    AimStarted,
    AttackResolved,
    AvoidanceRoll,
    CombatantJoined,
    CombatantOut,
    DamageDerivation,
    EncounterEnded,
    GrappleResolved,
    HoldDamage,
    HoldEscapeRolled,
    LocationDisabled,
    Moved,
    Perceived,
    RangedDerivation,
    Reacted,
    SpellCast,
    SpellInterrupted,
    SpellStarted,
    StoodUp,
    TargetChosen,
    Waited,
    WeaponChanged,
    WeaponReadied,
)
from affray.events.special import (
    AftermathEnded,
    AftermathStarted,
    CheckRolled,
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
from affray.kernel.clock import seconds
from affray.kernel.state import EncounterState, apply_checked
from affray.replays.narrate_fivestep import FIVESTEP_TELLERS
from affray.replays.telling import at, number, rolled, signed


def _joined(e: CombatantJoined, s: EncounterState) -> str:
    if e.parts:
        body = ", ".join(f"{p.name} {p.points}" for p in e.parts)
        return (
            f"{e.combatant} ({e.name}) joins side {e.side}: {e.weapon or 'unarmed'}; body {body} "
            f"({number(e.damage_points)} points), at {at(e.position)}"
        )
    shield = f", shield {e.shield}" if e.shield else ""
    perceives = f"; its perception time: {rolled(e.perception_roll, ' s')}" if e.perception_roll else ""
    return (
        f"{e.combatant} ({e.name}) joins side {e.side}: {number(e.damage_points)} DP, {e.weapon}, "
        f"{e.armor}{shield}, at {at(e.position)}{perceives}"
    )


def _perceived(e: Perceived, s: EncounterState) -> str:
    how = f" (perception {rolled(e.roll, ' s')})" if e.roll else ""
    reaction = f"; its reaction time: {rolled(e.reaction_roll, ' s')}" if e.reaction_roll else ""
    return f"{e.combatant} perceives the other party{how}{reaction}"


def _reacted(e: Reacted, s: EncounterState) -> str:
    if e.prepared:
        return f"{e.combatant} had a prepared reaction: no reaction time"
    how = f", {rolled(e.roll, ' s')}" if e.roll else ""
    return f"{e.combatant} reacts after {seconds(e.reaction_ms)} s{how}"


def _readied(e: WeaponReadied, s: EncounterState) -> str:
    floor = (
        f" (its {seconds(e.speed_ms)} s minimum)"
        if e.chart_speed - e.speed_adjustment < e.speed_ms / 1000
        else ""
    )
    return (
        f"{e.combatant} readies {e.weapon} ({e.readiness.replace('_', ' ')}): initiative "
        f"{seconds(e.initiative_ms)} s; speed {e.chart_speed} - {number(e.speed_adjustment)} = "
        f"{seconds(e.speed_ms)} s between attacks{floor}"
    )


def _target(e: TargetChosen, s: EncounterState) -> str:
    return f"{e.combatant} targets {e.target} ({e.controller}: {e.reason})"


def _moved(e: Moved, s: EncounterState) -> str:
    how = "flees" if e.fleeing else "moves"
    way = "away from" if e.fleeing else "toward"
    return f"{e.combatant} {how} {number(e.distance)} m {way} {e.toward}, {at(e.start)} -> {at(e.end)}"


def _attack(e: AttackResolved, s: EncounterState) -> str:
    h = e.hit
    armor = h.armor_value + h.shield_bonus
    shield = f" incl. shield {h.shield_bonus}" if h.shield_bonus else ""
    verb = "attacks" if h.ranged is None else "shoots at" if h.ranged.mode == "missile" else "throws at"
    extras = f" + proficiency {h.proficiency}" if h.proficiency else ""
    extras += f" + martial arts {number(h.martial_bonus)}" if h.martial_bonus else ""
    chance = f"(skill {number(h.skill)}{extras} {h.bonus_kind} {signed(h.bonus)})"
    if h.ranged is not None:
        chance = _shot(h.ranged, chance)
    where = ""
    if h.location is not None:
        bare = "" if h.location_armored else ", unarmored: Cloth"
        how = f"location {h.location_roll.total}" if h.location_roll else "the part presented"
        where = f" at the {h.location} ({how}{bare})"
    line = (
        f"{e.attacker} {verb} {e.target} with {e.weapon}{where}: {number(h.hit_chance)}% {chance} - armor "
        f"{armor} ({h.armor} vs type {h.weapon_type}{shield}) - roll {h.roll.total}"
        f" = quality {number(h.quality)}"
    )
    if e.parry is not None:
        p = e.parry
        verdict = "parried" if p.parried else "fails"
        line += f"; parry with {p.device} {number(p.chance)}%, roll {p.roll.total}: {verdict}"
    if e.outcome == "miss":
        return line + " -> miss"
    if e.damage is None:
        return line + " -> no damage"
    d = e.damage
    left = s.combatants[e.target].damage_left
    total = s.combatants[e.target].damage_points
    return (
        f"{line} -> x{number(d.multiplier)} of {number(d.potential)} ({'(' if d.range_factor else ''}"
        f"base {d.base} + ST {number(d.strength_bonus)} + weapon {number(d.weapon_bonus)}"
        f" + skill {number(d.skill_bonus)}{f') x{number(d.range_factor)} range' if d.range_factor else ''})"
        f"{_charged(d)} = {number(d.full_damage if d.full_damage is not None else d.damage)} damage"
        f"{_subdued(d)}; "
        f"{e.target} has {number(left)}/{number(total)} DP"
    )


def _shot(r: RangedDerivation, melee_chance: str) -> str:
    """``(skill 75 mechanical +20) x0.9 MED at 85.6 m - size 0 - speed 4 + aim 30``: rules E8, E16-E19."""
    text = f"({number(r.chance_before)}% {melee_chance} x{number(r.range_factor)} {r.band}"
    text += f" at {number(r.distance)} m"
    if r.size_penalty:
        cover = f", {r.cover}% covered" if r.cover else ""
        if r.firing_from_cover:
            cover += " while it shoots from full cover"
        if r.presented is not None and r.presented_roll is not None:
            cover += f", random cover presents the {r.presented} ({r.presented_roll.total})"
        text += f" - size {number(r.size_penalty)} ({number(r.visible_area)} m2 visible{cover})"
    if r.speed_penalty:
        maneuver = ", maneuvering" if r.maneuvering else ""
        text += f" - speed {number(r.speed_penalty)} ({number(r.relative_speed)} m/s{maneuver})"
    if r.unaimed_penalty:
        text += f" - unaimed {number(r.unaimed_penalty)} (aimed {seconds(r.aim_ms)} of {seconds(r.gap_ms)} s)"
    elif r.aim_bonus:
        text += f" + aim {number(r.aim_bonus)} ({seconds(r.aim_ms - r.gap_ms)} s beyond the gap)"
    return text + ")"


def _charged(d: DamageDerivation) -> str:
    if d.charge_speed is None or d.charge_multiple is None:
        return ""
    if d.charge_multiple <= 1:
        return f", charging at {number(d.charge_speed)} m/s (x{number(d.charge_multiple)}: no bonus)"
    return f" x{number(d.charge_multiple)} for the charge at {number(d.charge_speed)} m/s"


def _subdued(d: DamageDerivation) -> str:
    if d.subdue == "knocked_out":
        return ", struck to subdue: over its damage points, knocked out"
    if d.subdue == "half_damage":
        return f", struck to subdue: not enough to knock out, half done = {number(d.damage)}"
    return ""


def _avoidance(a: AvoidanceRoll) -> str:
    basis = {"half_ag": "half AG", "ag": "AG", "parry_roll": "parry"}[a.basis]
    verdict = "avoided" if a.avoided else "fails"
    return f"avoidance ({basis}) {number(a.target_number)}, roll {a.roll.total}: {verdict}"


def _grapple(e: GrappleResolved, s: EncounterState) -> str:
    armor = "normal armor" if e.armor == "normal" else "AG/luck armor"
    line = (
        f"{e.attacker} tries a {e.procedure} on {e.target}: {number(e.hit_chance)}% - {armor} "
        f"{number(e.armor_value)} - roll {e.roll.total} = quality {number(e.quality)}"
    )
    if e.avoidance is not None:
        line += f"; {_avoidance(e.avoidance)}"
    if e.outcome != "landed":
        return f"{line} -> {e.outcome}"
    effects = {"KD": "knocked down", "Pin": "pinned", "Disable": "disabled"}
    what = ", ".join(effects[x] for x in e.effects) or "no hold"
    damage = f"{number(e.damage)} damage" + (f" ({rolled(e.damage_roll)})" if e.damage_roll else "")
    target = s.combatants[e.target]
    recovery = f"; {e.attacker} recovers {seconds(e.recovery_ms)} s" if e.recovery_ms else ""
    return (
        f"{line} -> {what}, {damage}; {e.target} has {number(target.damage_left)}/"
        f"{number(target.damage_points)} DP{recovery}"
    )


def _escape(e: HoldEscapeRolled, s: EncounterState) -> str:
    result = "breaks free" if e.avoidance.avoided else "is still held"
    return f"{e.combatant} strains against {e.holder}'s {e.procedure}: {_avoidance(e.avoidance)}; {result}"


def _hold_damage(e: HoldDamage, s: EncounterState) -> str:
    target = s.combatants[e.target]
    return (
        f"{e.holder} holds {e.target} down: {number(e.damage)} damage; "
        f"{e.target} has {number(target.damage_left)}/{number(target.damage_points)} DP"
    )


def _stood_up(e: StoodUp, s: EncounterState) -> str:
    return f"{e.combatant} gets up ({seconds(e.took_ms)} s)"


def _special(e: SpecialDamage, s: EncounterState) -> str:
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


def _condition(e: ConditionStarted, s: EncounterState) -> str:
    chance = f" ({e.chance}%: {e.chance_roll.total})" if e.chance is not None and e.chance_roll else ""
    if e.until_ms is None:
        return f"{e.combatant} is {e.condition}{chance} by {e.cause}"
    duration = f" ({rolled(e.duration)})" if e.duration else ""
    return f"{e.combatant} is {e.condition}{chance} by {e.cause} until {seconds(e.until_ms)} s{duration}"


def _condition_ended(e: ConditionEnded, s: EncounterState) -> str:
    return f"{e.combatant} is no longer {e.condition}"


def _equipment(e: EquipmentLost, s: EncounterState) -> str:
    if e.weapon is not None:
        return f"{e.combatant} loses its {e.weapon} (weapon instead of equipment: roll {e.weapon_roll.total})"
    items = ", ".join(f"{i.units} {i.name}" for i in e.items) or "nothing left to lose"
    return f"{e.combatant} loses equipment: {items} (weapon roll {e.weapon_roll.total})"


def _programs(e: ProgramsDestroyed, s: EncounterState) -> str:
    gone = ", ".join(e.destroyed) or "none"
    alarms = f"; alarms: {', '.join(e.alarms)}" if e.alarms else ""
    boom = "; more destroyed than it had: it explodes" if e.explodes else ""
    wanted = f"{e.total} // 5 = {e.total // 5}"
    return f"{e.computer} loses {len(e.destroyed)} programs ({wanted}): {gone}{alarms}{boom}"


def _exploded(e: Exploded, s: EncounterState) -> str:
    hits = "; ".join(
        f"{h.combatant} at {number(h.distance)} m: RS {h.rs_target} roll {h.rs_roll.total}"
        f"{' halved' if h.halved else ''} -> {number(h.damage)}"
        for h in e.hits
    )
    return f"{e.source} explodes: {rolled(e.roll)} within {e.radius_m} m: {hits or 'no one near'}"


def _check(e: CheckRolled, s: EncounterState) -> str:
    side = "at or under" if e.under else "over"
    return f"{e.combatant}'s {e.check}: {rolled(e.roll)}, {side} {number(e.chance)}%"


def _ruling(e: RefereeRuling, s: EncounterState) -> str:
    return (
        f"referee ruling on {e.target}'s special damage #{e.nth}: {e.rolled} (+{number(e.stamina_rolled)})"
        f" becomes {e.ruled} (+{number(e.stamina_ruled)}): {e.reason}"
    )


def _aftermath(e: AftermathStarted, s: EncounterState) -> str:
    limbs = "set in time" if e.limbs_set_in_time else "not set in time (hospital)"
    days = "1 day" if e.days == 1 else f"{e.days} days"
    return f"the fight is over: {days} of healing and repair begin (broken limbs {limbs})"


def _scheduled(e: HealingScheduled, s: EncounterState) -> str:
    extra = f" + {e.extra_minutes} min" if e.extra_minutes else ""
    cost = f", {e.cost} Cr" if e.cost else ""
    note = f"; {e.note}" if e.note else ""
    return (
        f"{e.combatant}'s {e.injury} heals as {e.heals_as}: {rolled(e.roll)}{extra}, ready at "
        f"{seconds(e.ready_ms)} s{cost}{note}"
    )


def _healed(e: Healed, s: EncounterState) -> str:
    return f"{e.combatant}'s {e.injury} has healed: its penalties are gone"


def _not_healed(e: NotHealed, s: EncounterState) -> str:
    return f"{e.combatant}'s {e.injury} does not heal: {e.reason}"


def _aftermath_ended(e: AftermathEnded, s: EncounterState) -> str:
    return "1 day has passed" if e.days == 1 else f"{e.days} days have passed"


def _location(e: LocationDisabled, s: EncounterState) -> str:
    return (
        f"{e.combatant}'s {e.location} is {'a mortal wound' if e.effect == 'dead' else 'unusable'}: "
        f"{number(e.damage)} damage there, its share is {number(e.share)}"
    )


def _changed(e: WeaponChanged, s: EncounterState) -> str:
    how = "drops and grabs" if e.method == "drop_and_grab" else "puts away and draws"
    if e.from_weapon is None:
        return f"{e.combatant} takes up {e.to_weapon} in {seconds(e.took_ms)} s"
    return f"{e.combatant} {how}: {e.from_weapon} -> {e.to_weapon} in {seconds(e.took_ms)} s"


def _aim(e: AimStarted, s: EncounterState) -> str:
    return f"{e.combatant} aims {e.weapon} at {e.target}"


def _spell_started(e: SpellStarted, s: EncounterState) -> str:
    preparation = f"{seconds(e.preparation_ms)} s preparation" + (
        f" ({rolled(e.roll, ' s')})" if e.roll else ""
    )
    total = e.preparation_ms + e.initiation_ms + e.casting_ms
    return (
        f"{e.combatant} begins {e.spell} at {e.target}: {preparation}"
        f" + {seconds(e.initiation_ms)} s initiation + {seconds(e.casting_ms)} s casting = {seconds(total)} s"
    )


def _spell_cast(e: SpellCast, s: EncounterState) -> str:
    target = s.combatants[e.target]
    return (
        f"{e.combatant} casts {e.spell} at {e.target}: {rolled(e.roll)} = {number(e.damage)} damage; "
        f"{e.target} has {number(target.damage_left)}/{number(target.damage_points)} DP"
    )


def _spell_interrupted(e: SpellInterrupted, s: EncounterState) -> str:
    return f"{e.combatant} loses {e.spell}: {e.reason}"


def _waited(e: Waited, s: EncounterState) -> str:
    return f"{e.combatant} waits {e.seconds} s: {e.reason}"


def _refused(e: ActionRefused, s: EncounterState) -> str:
    return f"{e.combatant} cannot {e.action}: {e.reason}"


def _out(e: CombatantOut, s: EncounterState) -> str:
    return f"{e.combatant} is out: {e.reason}"


def _ended(e: EncounterEnded, s: EncounterState) -> str:
    who = f"side {e.winner} wins" if e.winner else "no winner"
    return f"the encounter ends: {who} ({e.reason})"


_TELLERS: dict[type[Event], Callable[[Any, EncounterState], str]] = {
    CombatantJoined: _joined,
    Perceived: _perceived,
    Reacted: _reacted,
    WeaponReadied: _readied,
    TargetChosen: _target,
    Moved: _moved,
    AttackResolved: _attack,
    WeaponChanged: _changed,
    AimStarted: _aim,
    ActionRefused: _refused,
    Waited: _waited,
    LocationDisabled: _location,
    GrappleResolved: _grapple,
    HoldEscapeRolled: _escape,
    HoldDamage: _hold_damage,
    StoodUp: _stood_up,
    SpecialDamage: _special,
    ConditionStarted: _condition,
    ConditionEnded: _condition_ended,
    EquipmentLost: _equipment,
    ProgramsDestroyed: _programs,
    Exploded: _exploded,
    RefereeRuling: _ruling,
    CheckRolled: _check,
    AftermathStarted: _aftermath,
    HealingScheduled: _scheduled,
    Healed: _healed,
    NotHealed: _not_healed,
    AftermathEnded: _aftermath_ended,
    SpellStarted: _spell_started,
    SpellCast: _spell_cast,
    SpellInterrupted: _spell_interrupted,
    CombatantOut: _out,
    EncounterEnded: _ended,
    **FIVESTEP_TELLERS,
}


def narrate(events: Iterable[Event]) -> Iterator[str]:
    """One line per event, each told against the state right after it."""
    state = EncounterState()
    for event in events:
        apply_checked(state, event)
        text = _TELLERS[type(event)](event, state)
        yield f"{seconds(event.t):>9} s  #{event.seq:<4} {text}"
