"""Tell the Energion events (rules E1-E24): each line shows the numbers behind it (rolls, hit chance, armor,
quality, multiplier, damage)."""

from __future__ import annotations

from decimal import Decimal

from affray.events.energion.kinds import (
    AimStarted,
    AttackResolved,
    AvoidanceRoll,
    CombatantJoined,
    DamageDerivation,
    GrappleResolved,
    HitDerivation,
    HoldDamageDealt,
    HoldEscapeRolled,
    IntentChosen,
    LocationDisabled,
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
from affray.events.energion.state import EnergionState
from affray.events.sealed import is_sealed
from affray.kernel.clock import game_time, seconds, to_ms
from affray.kernel.ruleset import Teller
from affray.replays.telling import at, decided, face, number, rolled, signed


def _joined(event: CombatantJoined, state: EnergionState) -> str:
    shield = f", shield {event.shield}" if event.shield else ""
    perceives = (
        f"; its perception time: {rolled(event.perception_roll, ' s')}" if event.perception_roll else ""
    )
    return (
        f"{event.combatant} ({event.name}) joins side {event.side}: {number(event.damage_points)} DP, "
        f"{event.weapon}, "
        f"{event.armor}{shield}, at {at(event.position)}{perceives}"
    )


def _perceived(event: Perceived, state: EnergionState) -> str:
    """Rule E1: the clock starts when the first combatant perceives; the others perceive their perception
    time less the first's later."""
    how = f" (perception {rolled(event.perception_roll, ' s')})" if event.perception_roll else ""
    reaction = f"; its reaction time: {rolled(event.reaction_roll, ' s')}" if event.reaction_roll else ""
    when = (
        ", the first: the clock starts here"
        if event.after_ms == 0
        else f", {game_time(event.after_ms)} after the first (the clock starts at the first perception)"
    )
    return f"{event.combatant} perceives the other party{how}{when}{reaction}"


def _reacted(event: Reacted, state: EnergionState) -> str:
    if event.prepared:
        return f"{event.combatant} had a prepared reaction: no reaction time"
    how = f", {rolled(event.reaction_roll, ' s')}" if event.reaction_roll else ""
    return f"{event.combatant} reacts after {seconds(event.reaction_ms)} s{how}"


def _readied(event: WeaponReadied, state: EnergionState) -> str:
    floor = (
        f" (its {seconds(event.speed_ms)} s minimum)"
        if to_ms(event.chart_speed - event.speed_adjustment) < event.speed_ms
        else ""
    )
    return (
        f"{event.combatant} readies {event.weapon} ({event.readiness.replace('_', ' ')}): initiative "
        f"{seconds(event.initiative_ms)} s; speed {event.chart_speed} - {number(event.speed_adjustment)} = "
        f"{seconds(event.speed_ms)} s between attacks{floor}"
    )


def _target(event: TargetChosen, state: EnergionState) -> str:
    why = f": {event.reason}" if event.reason else ""
    return f"{event.combatant} targets {event.target} ({event.controller}{why})"


def _intent(event: IntentChosen, state: EnergionState) -> str:
    chooser = f"{event.combatant} ({event.controller})"
    return decided(chooser, event.intent, event.scores, "chooses to", "chooses to do nothing more")


def _chance(h: HitDerivation) -> str:
    """How the hit chance came about (E4 and its modifiers: E12, E13, S4, S5, a ruling; E8, E16-E19 for a
    shot)."""
    extras = "".join(f", {m.name} {signed(m.value)}" for m in h.modifiers)
    chance = f"(skill {number(h.skill)} {h.bonus_kind} {signed(h.bonus)}{extras})"
    return chance if h.ranged is None else _shot(h.ranged, chance)


def _where(h: HitDerivation) -> str:
    """Where the attack lands, with hit locations (E20)."""
    if h.location is None:
        return ""
    bare = "" if h.location_armored else ", unarmored: Cloth"
    how = f"location {face(h.location_roll)}" if h.location_roll else "the part presented"
    return f" at the {h.location} ({how}{bare})"


def _attack(event: AttackResolved, state: EnergionState) -> str:
    h = event.hit
    armor = h.armor_value + h.shield_bonus
    shield = f" incl. shield {h.shield_bonus}" if h.shield_bonus else ""
    verb = "attacks" if h.ranged is None else "shoots at" if h.ranged.mode == "missile" else "throws at"
    line = (
        f"{event.attacker} {verb} {event.target} with {event.weapon}{_where(h)}: {number(h.hit_chance)}% "
        f"{_chance(h)} "
        f"- armor {armor} ({h.armor} vs type {h.weapon_type}{shield}) - roll {face(h.roll)}"
        f" = quality {number(h.quality)}"
    )
    if event.parry is not None:
        p = event.parry
        verdict = "parried" if p.parried else "fails"
        line += f"; parry with {p.device} {number(p.chance)}%, roll {face(p.roll)}: {verdict}"
    if event.outcome == "miss":
        return line + (" -> miss (a ruling)" if h.ruled_miss else " -> miss")
    if event.damage is None:
        return line + " -> no damage"
    d = event.damage
    left = state.combatants[event.target].damage_left
    total = state.combatants[event.target].damage_points
    return (
        f"{line} -> x{number(d.multiplier)} of {number(d.potential)} ({'(' if d.range_factor else ''}"
        f"base {d.base} + ST {number(d.strength_bonus)} + weapon {number(d.weapon_bonus)}"
        f" + skill {number(d.skill_bonus)}{f') x{number(d.range_factor)} range' if d.range_factor else ''})"
        f"{_charged(d)} = {number(_rolled_damage(d))} damage"
        f"{_subdued(d)}{_ruled(d)}; "
        f"{event.target} has {number(left)}/{number(total)} DP"
    )


def _rolled_damage(d: DamageDerivation) -> Decimal:
    """The damage the rules gave, before subduing and the referee's ruling."""
    if d.full_damage is not None:
        return d.full_damage
    return d.damage - (d.ruled_points or 0)


def _ruled(d: DamageDerivation) -> str:
    return f" {signed(d.ruled_points)} ruling = {number(d.damage)}" if d.ruled_points is not None else ""


def _shot(r: RangedDerivation, melee_chance: str) -> str:
    """``(skill 75 mechanical +20) x0.9 MED at 85.6 m - size 0 - speed 4 + aim 30``: rules E8, E16-E19."""
    text = f"({number(r.chance_before)}% {melee_chance} x{number(r.range_factor)} {r.band}"
    text += f" at {number(r.distance)} m"
    if r.size_penalty:
        cover = f", {r.cover}% covered" if r.cover else ""
        if r.firing_from_cover:
            cover += " while it shoots from full cover"
        if r.presented is not None and r.presented_roll is not None:
            cover += f", random cover presents the {r.presented} ({face(r.presented_roll)})"
        text += f" - size {number(r.size_penalty)} ({number(r.visible_area)} m2 visible{cover})"
    if r.speed_penalty:
        maneuver = ", maneuvering" if r.maneuvering else ""
        text += f" - speed {number(r.speed_penalty)} ({number(r.relative_speed)} m/s{maneuver})"
    if r.unaimed_penalty:
        text += f" - unaimed {number(r.unaimed_penalty)} (aimed {seconds(r.aim_ms)} of {seconds(r.gap_ms)} s"
        text += f"{_restarted(r)})"
    elif r.aim_bonus:
        text += (
            f" + aim {number(r.aim_bonus)} ({seconds(r.aim_ms - r.gap_ms)} s beyond the gap{_restarted(r)})"
        )
    return text + ")"


def _restarted(r: RangedDerivation) -> str:
    if r.aim_restarted_ms is None:
        return ""
    return f", counted from {seconds(r.aim_restarted_ms)} s, when the target's movement changed"


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
        half = d.damage - (d.ruled_points or 0)
        return f", struck to subdue: not enough to knock out, half done = {number(half)}"
    return ""


def _avoidance(a: AvoidanceRoll) -> str:
    basis = {"half_ag": "half AG", "ag": "AG", "parry_roll": "parry"}[a.basis]
    verdict = "avoided" if a.avoided else "fails"
    return f"avoidance ({basis}) {number(a.target_number)}, roll {face(a.roll)}: {verdict}"


def _grapple(event: GrappleResolved, state: EnergionState) -> str:
    armor = "normal armor" if event.armor == "normal" else "AG/luck armor"
    line = (
        f"{event.attacker} tries a {event.procedure} on {event.target}: {number(event.hit_chance)}% - "
        f"{armor} "
        f"{number(event.armor_value)} - roll {face(event.roll)} = quality {number(event.quality)}"
    )
    if event.avoidance is not None:
        line += f"; {_avoidance(event.avoidance)}"
    if event.outcome != "landed":
        return f"{line} -> {event.outcome}"
    effects = {"KD": "knocked down", "Pin": "pinned", "Disable": "disabled"}
    what = ", ".join(effects[x] for x in event.effects) or "no hold"
    damage = f"{number(event.damage)} damage" + (
        f" ({rolled(event.damage_roll)})" if event.damage_roll else ""
    )
    target = state.combatants[event.target]
    recovery = f"; {event.attacker} recovers {seconds(event.recovery_ms)} s" if event.recovery_ms else ""
    return (
        f"{line} -> {what}, {damage}; {event.target} has {number(target.damage_left)}/"
        f"{number(target.damage_points)} DP{recovery}"
    )


def _escape(event: HoldEscapeRolled, state: EnergionState) -> str:
    result = "breaks free" if event.avoidance.avoided else "is still held"
    return (
        f"{event.combatant} strains against {event.holder}'s {event.procedure}: "
        f"{_avoidance(event.avoidance)}; {result}"
    )


def _hold_damage_dealt(event: HoldDamageDealt, state: EnergionState) -> str:
    target = state.combatants[event.target]
    return (
        f"{event.holder} holds {event.target} down: {number(event.damage)} damage; "
        f"{event.target} has {number(target.damage_left)}/{number(target.damage_points)} DP"
    )


def _stood_up(event: StoodUp, state: EnergionState) -> str:
    return f"{event.combatant} gets up ({seconds(event.took_ms)} s)"


def _location(event: LocationDisabled, state: EnergionState) -> str:
    return (
        f"{event.combatant}'s {event.location} is "
        f"{'a mortal wound' if event.effect == 'dead' else 'unusable'}: "
        f"{number(event.damage)} damage there, its share is {number(event.share)}"
    )


def _changed(event: WeaponChanged, state: EnergionState) -> str:
    how = "drops and grabs" if event.method == "drop_and_grab" else "puts away and draws"
    if event.from_weapon is None:
        return f"{event.combatant} takes up {event.to_weapon} in {seconds(event.took_ms)} s"
    return f"{event.combatant} {how}: {event.from_weapon} -> {event.to_weapon} in {seconds(event.took_ms)} s"


def _aim(event: AimStarted, state: EnergionState) -> str:
    return f"{event.combatant} aims {event.weapon} at {event.target}"


def _spell_started(event: SpellStarted, state: EnergionState) -> str:
    if is_sealed(event.preparation_ms):
        preparation, total = "sealed preparation", "sealed"
    else:
        preparation = f"{seconds(event.preparation_ms)} s preparation"
        total = f"{seconds(event.preparation_ms + event.initiation_ms + event.casting_ms)} s"
    if event.roll:
        preparation += f" ({rolled(event.roll, ' s')})"
    return (
        f"{event.combatant} begins {event.spell} at {event.target}: {preparation}"
        f" + {seconds(event.initiation_ms)} s initiation + {seconds(event.casting_ms)} s casting = {total}"
    )


def _spell_cast(event: SpellCast, state: EnergionState) -> str:
    target = state.combatants[event.target]
    return (
        f"{event.combatant} casts {event.spell} at {event.target}: {rolled(event.roll)} = "
        f"{number(event.damage)} damage; "
        f"{event.target} has {number(target.damage_left)}/{number(target.damage_points)} DP"
    )


def _spell_interrupted(event: SpellInterrupted, state: EnergionState) -> str:
    return f"{event.combatant} loses {event.spell}: {event.reason}"


def _waited(event: Waited, state: EnergionState) -> str:
    return f"{event.combatant} waits {event.seconds} s: {event.reason}"


TELLERS: dict[type, Teller] = {
    CombatantJoined: _joined,
    Perceived: _perceived,
    Reacted: _reacted,
    WeaponReadied: _readied,
    TargetChosen: _target,
    IntentChosen: _intent,
    AttackResolved: _attack,
    WeaponChanged: _changed,
    AimStarted: _aim,
    Waited: _waited,
    LocationDisabled: _location,
    GrappleResolved: _grapple,
    HoldEscapeRolled: _escape,
    HoldDamageDealt: _hold_damage_dealt,
    StoodUp: _stood_up,
    SpellStarted: _spell_started,
    SpellCast: _spell_cast,
    SpellInterrupted: _spell_interrupted,
}
"""A teller for each Energion kind."""
