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
from affray.kernel.clock import game_time, seconds, to_ms
from affray.kernel.ruleset import Teller
from affray.npc.energion.intents import describe
from affray.replays.telling import at, face, number, rolled, signed


def _joined(e: CombatantJoined, s: EnergionState) -> str:
    shield = f", shield {e.shield}" if e.shield else ""
    perceives = f"; its perception time: {rolled(e.perception_roll, ' s')}" if e.perception_roll else ""
    return (
        f"{e.combatant} ({e.name}) joins side {e.side}: {number(e.damage_points)} DP, {e.weapon}, "
        f"{e.armor}{shield}, at {at(e.position)}{perceives}"
    )


def _perceived(e: Perceived, s: EnergionState) -> str:
    """Rule E1: the clock starts when the first combatant perceives; the others perceive their perception
    time less the first's later."""
    how = f" (perception {rolled(e.perception_roll, ' s')})" if e.perception_roll else ""
    reaction = f"; its reaction time: {rolled(e.reaction_roll, ' s')}" if e.reaction_roll else ""
    when = (
        ", the first: the clock starts here"
        if e.after_ms == 0
        else f", {game_time(e.after_ms)} after the first (the clock starts at the first perception)"
    )
    return f"{e.combatant} perceives the other party{how}{when}{reaction}"


def _reacted(e: Reacted, s: EnergionState) -> str:
    if e.prepared:
        return f"{e.combatant} had a prepared reaction: no reaction time"
    how = f", {rolled(e.reaction_roll, ' s')}" if e.reaction_roll else ""
    return f"{e.combatant} reacts after {seconds(e.reaction_ms)} s{how}"


def _readied(e: WeaponReadied, s: EnergionState) -> str:
    floor = (
        f" (its {seconds(e.speed_ms)} s minimum)"
        if to_ms(e.chart_speed - e.speed_adjustment) < e.speed_ms
        else ""
    )
    return (
        f"{e.combatant} readies {e.weapon} ({e.readiness.replace('_', ' ')}): initiative "
        f"{seconds(e.initiative_ms)} s; speed {e.chart_speed} - {number(e.speed_adjustment)} = "
        f"{seconds(e.speed_ms)} s between attacks{floor}"
    )


def _target(e: TargetChosen, s: EnergionState) -> str:
    why = f": {e.reason}" if e.reason else ""
    return f"{e.combatant} targets {e.target} ({e.controller}{why})"


def _intent(e: IntentChosen, s: EnergionState) -> str:
    scores = "; ".join(f"{score.option} {score.score:g}" for score in e.scores)
    listed = f" [{scores}]" if scores else ""
    if e.intent is None:
        return f"{e.combatant} ({e.controller}) chooses to do nothing more{listed}"
    why = f": {e.intent.reason}" if e.intent.reason else ""
    return f"{e.combatant} ({e.controller}) chooses to {describe(e.intent)}{why}{listed}"


def _chance(h: HitDerivation) -> str:
    """How the hit chance came about (E4, E12, E13, a ruling; E8, E16-E19 for a shot)."""
    extras = f" + proficiency {h.proficiency}" if h.proficiency else ""
    extras += f" + martial arts {number(h.martial_bonus)}" if h.martial_bonus else ""
    ruling = f" {signed(Decimal(h.ruled_modifier))} ruling" if h.ruled_modifier else ""
    chance = f"(skill {number(h.skill)}{extras} {h.bonus_kind} {signed(h.bonus)}{ruling})"
    return chance if h.ranged is None else _shot(h.ranged, chance)


def _where(h: HitDerivation) -> str:
    """Where the attack lands, with hit locations (E20)."""
    if h.location is None:
        return ""
    bare = "" if h.location_armored else ", unarmored: Cloth"
    how = f"location {face(h.location_roll)}" if h.location_roll else "the part presented"
    return f" at the {h.location} ({how}{bare})"


def _attack(e: AttackResolved, s: EnergionState) -> str:
    h = e.hit
    armor = h.armor_value + h.shield_bonus
    shield = f" incl. shield {h.shield_bonus}" if h.shield_bonus else ""
    verb = "attacks" if h.ranged is None else "shoots at" if h.ranged.mode == "missile" else "throws at"
    line = (
        f"{e.attacker} {verb} {e.target} with {e.weapon}{_where(h)}: {number(h.hit_chance)}% {_chance(h)} "
        f"- armor {armor} ({h.armor} vs type {h.weapon_type}{shield}) - roll {face(h.roll)}"
        f" = quality {number(h.quality)}"
    )
    if e.parry is not None:
        p = e.parry
        verdict = "parried" if p.parried else "fails"
        line += f"; parry with {p.device} {number(p.chance)}%, roll {face(p.roll)}: {verdict}"
    if e.outcome == "miss":
        return line + (" -> miss (a ruling)" if h.ruled_miss else " -> miss")
    if e.damage is None:
        return line + " -> no damage"
    d = e.damage
    left = s.combatants[e.target].damage_left
    total = s.combatants[e.target].damage_points
    return (
        f"{line} -> x{number(d.multiplier)} of {number(d.potential)} ({'(' if d.range_factor else ''}"
        f"base {d.base} + ST {number(d.strength_bonus)} + weapon {number(d.weapon_bonus)}"
        f" + skill {number(d.skill_bonus)}{f') x{number(d.range_factor)} range' if d.range_factor else ''})"
        f"{_charged(d)} = {number(_rolled_damage(d))} damage"
        f"{_subdued(d)}{_ruled(d)}; "
        f"{e.target} has {number(left)}/{number(total)} DP"
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


def _grapple(e: GrappleResolved, s: EnergionState) -> str:
    armor = "normal armor" if e.armor == "normal" else "AG/luck armor"
    line = (
        f"{e.attacker} tries a {e.procedure} on {e.target}: {number(e.hit_chance)}% - {armor} "
        f"{number(e.armor_value)} - roll {face(e.roll)} = quality {number(e.quality)}"
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


def _escape(e: HoldEscapeRolled, s: EnergionState) -> str:
    result = "breaks free" if e.avoidance.avoided else "is still held"
    return f"{e.combatant} strains against {e.holder}'s {e.procedure}: {_avoidance(e.avoidance)}; {result}"


def _hold_damage_dealt(e: HoldDamageDealt, s: EnergionState) -> str:
    target = s.combatants[e.target]
    return (
        f"{e.holder} holds {e.target} down: {number(e.damage)} damage; "
        f"{e.target} has {number(target.damage_left)}/{number(target.damage_points)} DP"
    )


def _stood_up(e: StoodUp, s: EnergionState) -> str:
    return f"{e.combatant} gets up ({seconds(e.took_ms)} s)"


def _location(e: LocationDisabled, s: EnergionState) -> str:
    return (
        f"{e.combatant}'s {e.location} is {'a mortal wound' if e.effect == 'dead' else 'unusable'}: "
        f"{number(e.damage)} damage there, its share is {number(e.share)}"
    )


def _changed(e: WeaponChanged, s: EnergionState) -> str:
    how = "drops and grabs" if e.method == "drop_and_grab" else "puts away and draws"
    if e.from_weapon is None:
        return f"{e.combatant} takes up {e.to_weapon} in {seconds(e.took_ms)} s"
    return f"{e.combatant} {how}: {e.from_weapon} -> {e.to_weapon} in {seconds(e.took_ms)} s"


def _aim(e: AimStarted, s: EnergionState) -> str:
    return f"{e.combatant} aims {e.weapon} at {e.target}"


def _spell_started(e: SpellStarted, s: EnergionState) -> str:
    preparation = f"{seconds(e.preparation_ms)} s preparation" + (
        f" ({rolled(e.roll, ' s')})" if e.roll else ""
    )
    total = e.preparation_ms + e.initiation_ms + e.casting_ms
    return (
        f"{e.combatant} begins {e.spell} at {e.target}: {preparation}"
        f" + {seconds(e.initiation_ms)} s initiation + {seconds(e.casting_ms)} s casting = {seconds(total)} s"
    )


def _spell_cast(e: SpellCast, s: EnergionState) -> str:
    target = s.combatants[e.target]
    return (
        f"{e.combatant} casts {e.spell} at {e.target}: {rolled(e.roll)} = {number(e.damage)} damage; "
        f"{e.target} has {number(target.damage_left)}/{number(target.damage_points)} DP"
    )


def _spell_interrupted(e: SpellInterrupted, s: EnergionState) -> str:
    return f"{e.combatant} loses {e.spell}: {e.reason}"


def _waited(e: Waited, s: EnergionState) -> str:
    return f"{e.combatant} waits {e.seconds} s: {e.reason}"


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
