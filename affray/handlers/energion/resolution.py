"""One attack resolved, from the hit roll through the parry to the damage (rules E1, E4-E8, E16-E19).

A melee blow uses the weapon's hit chance as it is. A shot (a missile fired or a weapon hurled) first has it
scaled by the range band, then loses the target-size, relative-speed and unaimed penalties and gains the
extra aiming bonus; its damage is scaled by the range band too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import msgspec

from affray.events.base import Roll
from affray.events.energion.kinds import (
    AttackResolved,
    DamageDerivation,
    HitDerivation,
    Modifier,
    Outcome,
    ParryAttempt,
    RangedDerivation,
)
from affray.events.energion.state import EnergionCombatant
from affray.handlers.energion import modifiers
from affray.handlers.energion.host import Arena
from affray.handlers.energion.loadout import Arm, Loadout
from affray.handlers.energion.modifiers import hit_chance
from affray.kernel.clock import MS_PER_SECOND
from affray.kernel.dice import Stream
from affray.kernel.space import distance
from affray.rules.energion import close_combat, formulas, ranged
from affray.rules.energion.close_combat import subdue_outcome
from affray.rules.energion.locations import (
    HitLocationTable,
    load_hit_locations,
    location_armor_value,
    location_for,
)

HIT_DIE = "1d100"
LOCATION_DIE = "1d100"
PRESENTED_DIE = "1d100"
FULL_COVER = 100
PARRY_DIE = "1d100"
SHIELD_ARM = "left arm"
_ZERO = Decimal(0)
_UNROLLED = Roll(expr=HIT_DIE, faces=(), total=0, purpose="hit", roller="", source="generated")
"""The roll a kept blow's derivation holds until each strike puts in its own."""


@dataclass(frozen=True)
class Ruled:
    """What the referee's rulings due for an attack change (none by default)."""

    modifier: int = 0
    """Points added to the chance to hit."""
    miss: bool = False
    """The attack is a miss whatever its rolls."""
    points: int | None = None
    """Points added to the damage of a blow that lands (taken off, down to 0, if negative)."""


UNRULED = Ruled()
"""An attack no ruling changes."""


def resolve_attack(
    encounter: Arena,
    attacker: Loadout,
    arm: Arm,
    defender: Loadout,
    shot: RangedDerivation | None = None,
    *,
    locations: HitLocationTable | None = None,
    subdue: bool = False,
    recovery_roll: Roll | None = None,
    charge_speed: Decimal | None = None,
    ruled: Ruled = UNRULED,
) -> AttackResolved:
    """Roll the hit and, for a blow that would land, the defender's parry; build the outcome event.

    With ``locations`` (rule E20) the attack's location is rolled first, so that a bare location takes the
    unarmored resistance (E22); with ``subdue`` the blow strikes to subdue (E14). ``ruled`` is what the
    referee's rulings change: a modifier to the chance, a miss whatever the rolls, points of damage.
    """
    hit = _hit(encounter, attacker, arm, defender, shot, locations, recovery_roll, ruled)
    return _outcome(encounter, attacker, arm, defender, hit, shot, subdue, charge_speed, ruled)


def strike_again(
    encounter: Arena, attacker: Loadout, arm: Arm, defender: Loadout, blow: Blow, hits: Stream
) -> AttackResolved:
    """A plain blow (``plain_blow``) struck once more, as ``resolve_attack`` strikes it: its hit roll on
    ``hits``, the parry of one that would land (E5), the damage of one that lands (E7). ``_outcome``'s
    work for a blow with no shot, subdual, charge or ruling, without its questions: a streak strikes
    such blows by the hundred thousand. The event is stamped with the next seq and the time now, for the
    encounter's recorder of attacks (``Encounter.recorder``)."""
    hit = blow.struck(hits)
    quality = hit.quality
    parry = _parry(encounter, defender, melee=True) if quality > 0 else None
    outcome: Outcome = "hit"
    damage = None
    if quality <= 0:
        outcome = "miss"
    elif parry is not None and parry.parried:
        outcome = "parried"
    else:
        damage = _plain_damage(attacker, arm, quality)
    return _attack_event(encounter, attacker, arm, defender, hit, parry, outcome, damage)


def _outcome(
    encounter: Arena,
    attacker: Loadout,
    arm: Arm,
    defender: Loadout,
    hit: HitDerivation,
    shot: RangedDerivation | None,
    subdue: bool,
    charge_speed: Decimal | None,
    ruled: Ruled,
) -> AttackResolved:
    """Rules E5, E7: the defender's parry of a hit that would land, and the damage of one that lands."""
    quality = hit.quality
    parry = _parry(encounter, defender, melee=shot is None) if quality > 0 else None
    outcome: Outcome
    damage = None
    if quality <= 0 or ruled.miss:
        outcome = "miss"
    elif parry is not None and parry.parried:
        outcome = "parried"
    else:
        outcome = "hit"
        subdued = encounter.state.combatants[defender.id] if subdue else None
        damage = _ruled_damage(_damage(attacker, arm, quality, shot, subdued, charge_speed), ruled)
    return _attack_event(encounter, attacker, arm, defender, hit, parry, outcome, damage)


def _attack_event(
    encounter: Arena,
    attacker: Loadout,
    arm: Arm,
    defender: Loadout,
    hit: HitDerivation,
    parry: ParryAttempt | None,
    outcome: Outcome,
    damage: DamageDerivation | None,
) -> AttackResolved:
    """The attack's event, stamped with the next seq and the time now."""
    return AttackResolved(
        seq=encounter.count + 1,
        t=int(encounter.now),
        attacker=attacker.id,
        target=defender.id,
        weapon=arm.weapon.name,
        hit=hit,
        parry=parry,
        outcome=outcome,
        damage=damage,
    )


def _hit(
    encounter: Arena,
    attacker: Loadout,
    arm: Arm,
    defender: Loadout,
    shot: RangedDerivation | None,
    locations: HitLocationTable | None,
    recovery_roll: Roll | None,
    ruled: Ruled,
) -> HitDerivation:
    """Rules E4-E6: the chance (a shot's as E8 and E16-E19 make it; less injuries, plus a ruling), the
    armor (at the location rolled, with hit locations: E20, E22), the hit roll and the quality."""
    if shot is None and locations is None and recovery_roll is None:
        hits = encounter.dice.stream(attacker.id, "hit")
        return plain_blow(encounter, attacker, arm, defender, ruled).struck(hits)
    shield_bonus = _shield_bonus(encounter, defender)
    now = _of_the_moment(encounter, attacker, ruled)
    chance = hit_chance(arm.hit_chance if shot is None else _shot_chance(shot), now)
    armor_value = defender.armor.value_against(arm.weapon_type)
    where_unknown = locations is not None and (shot is None or shot.presented is None)
    armor = None if where_unknown else armor_value + shield_bonus
    roll = encounter.dice.roll(
        attacker.id, "hit", HIT_DIE, need=lambda: _hit_need(attacker, arm, defender, chance, armor)
    )
    location, location_roll = _location(encounter, attacker, shot, locations)
    armored = None
    if location is not None:
        armored = location not in defender.spec.unarmored
        bare = defender.unarmored.value_against(arm.weapon_type)
        armor_value = location_armor_value(armor_value, bare, armored)
    return _hit_derivation(
        attacker,
        arm,
        defender,
        (chance, armor_value, shield_bonus),
        roll,
        _quality(chance, armor_value + shield_bonus, roll.total),
        ranged=shot,
        location=location,
        location_roll=location_roll,
        location_armored=armored,
        recovery_roll=recovery_roll,
        modifiers=arm.modifiers + now,
        ruled_miss=ruled.miss,
    )


def _hit_derivation(
    attacker: Loadout,
    arm: Arm,
    defender: Loadout,
    figures: tuple[Decimal, int, int],
    roll: Roll,
    quality: Decimal,
    **where: Any,
) -> HitDerivation:
    """The hit's derivation from its ``figures`` (chance, armor value, shield bonus), roll and quality
    (E4-E6); ``where`` holds its modifiers, a ruled miss, and the shot, location and recovery figures of
    an attack that has them."""
    chance, armor_value, shield_bonus = figures
    return HitDerivation(
        skill=Decimal(attacker.spec.skill),
        bonus=arm.bonus,
        bonus_kind=arm.bonus_kind,
        hit_chance=chance,
        armor=defender.armor.name,
        weapon_type=arm.weapon_type,
        armor_value=armor_value,
        shield_bonus=shield_bonus,
        roll=roll,
        quality=quality,
        **where,
    )


def _shield_bonus(encounter: Arena, defender: Loadout) -> int:
    """Rule E4: a shield adds its parry to the armor while its arm works."""
    shield = defender.shield
    if shield is None or SHIELD_ARM in encounter.state.combatants[defender.id].disabled:
        return 0
    return shield.parry


@dataclass(frozen=True)
class Blow:
    """A plain blow's derivation before its roll (no shot, hit location or kick recovery): the figures
    are the same at every strike of one weapon at one defender, so it is worked out once (E4-E6)."""

    template: HitDerivation
    qualities: dict[int, Decimal]
    need: Callable[[], str]

    def quality(self, roll: int) -> Decimal:
        """Rule E6's quality of a hit roll of ``roll``."""
        quality = self.qualities.get(roll)
        if quality is None:
            hit = self.template
            quality = self.qualities[roll] = _quality(
                hit.hit_chance, hit.armor_value + hit.shield_bonus, roll
            )
        return quality

    def struck(self, hits: Stream) -> HitDerivation:
        """Rules E4-E6: one strike's hit roll, on the attacker's stream of hit rolls, and its derivation."""
        roll = hits.roll(HIT_DIE, need=self.need)
        return msgspec.structs.replace(self.template, roll=roll, quality=self.quality(roll.total))


_BLOWS: dict[tuple[int, int, int, tuple[Modifier, ...], bool], tuple[Arm, Loadout, Blow]] = {}


def plain_blow(
    encounter: Arena, attacker: Loadout, arm: Arm, defender: Loadout, ruled: Ruled = UNRULED
) -> Blow:
    """The plain blow of ``arm`` at ``defender`` now: its figures as the shield arm and the attacker's
    injuries stand (E4, S4, S5), and a referee's modifier."""
    now = _of_the_moment(encounter, attacker, ruled)
    return _blow(attacker, arm, defender, _shield_bonus(encounter, defender), now, ruled.miss)


def _of_the_moment(encounter: Arena, attacker: Loadout, ruled: Ruled) -> tuple[Modifier, ...]:
    """What the moment adds to the attacker's chance: its injuries (S4, S5) and a ruling."""
    live = encounter.state.combatants[attacker.id]
    return modifiers.of_the_moment(live, int(encounter.now), ruled.modifier)


def _blow(
    attacker: Loadout,
    arm: Arm,
    defender: Loadout,
    shield_bonus: int,
    now: tuple[Modifier, ...],
    ruled_miss: bool,
) -> Blow:
    """The plain blow of ``arm`` at ``defender``, kept by weapon, defender and the figures that vary in a
    fight (the weapon and defender are kept with it, so their ids cannot be others' while it lives)."""
    key = (id(arm), id(defender), shield_bonus, now, ruled_miss)
    kept = _BLOWS.get(key)
    if kept is not None and kept[0] is arm and kept[1] is defender:
        return kept[2]
    chance = hit_chance(arm.hit_chance, now)
    armor_value = defender.armor.value_against(arm.weapon_type)
    figures = (chance, armor_value, shield_bonus)
    kept_modifiers = arm.modifiers + now
    template = _hit_derivation(
        attacker, arm, defender, figures, _UNROLLED, _ZERO, modifiers=kept_modifiers, ruled_miss=ruled_miss
    )
    armor = armor_value + shield_bonus
    blow = Blow(template, {}, lambda: _hit_need(attacker, arm, defender, chance, armor))
    if len(_BLOWS) >= BLOWS_KEPT:
        _BLOWS.clear()
    _BLOWS[key] = (arm, defender, blow)
    return blow


def _location(
    encounter: Arena,
    attacker: Loadout,
    shot: RangedDerivation | None,
    locations: HitLocationTable | None,
) -> tuple[str | None, Roll | None]:
    """Rule E20: where the attack lands (the part a target in random cover presents, else rolled on the
    chart), and the roll made for it; None without hit locations."""
    if locations is None:
        return None, None
    if shot is not None and shot.presented is not None:
        return shot.presented, None
    roll = encounter.dice.roll(attacker.id, "location", LOCATION_DIE)
    return location_for(locations, roll.total).name, roll


def _ruled_damage(damage: DamageDerivation, ruled: Ruled) -> DamageDerivation:
    """A referee's points added to a blow that lands (taken off, if negative; never below 0 dealt)."""
    if ruled.points is None:
        return damage
    dealt = max(damage.damage + ruled.points, _ZERO)
    return msgspec.structs.replace(damage, damage=dealt, ruled_points=dealt - damage.damage)


BLOWS_KEPT = 1 << 16
"""How many blows' figures are kept, worked out once (a battle, and a batch's battles, strike the same
blows over and over): quality by chance, armor and roll; damage by weapon figures and quality."""


@functools.lru_cache(maxsize=BLOWS_KEPT)
def _quality(chance: Decimal, armor: int, roll: int) -> Decimal:
    """Rule E6, tidied: the hit quality of ``roll`` at ``chance`` against ``armor`` (cached by value)."""
    return formulas.tidy(formulas.hit_quality(chance, armor, roll))


_PLAIN: dict[tuple[int, int, Decimal], tuple[Arm, DamageDerivation]] = {}


def _plain_damage(attacker: Loadout, arm: Arm, quality: Decimal) -> DamageDerivation:
    """Rule E7 for a plain blow (no range band, charge or subdual), kept by weapon and quality. The weapon
    is kept with it, so its id cannot be another's while the entry lives (figures equal in value may be
    written differently: 16 and 16.00 are kept apart)."""
    skill = attacker.spec.skill_damage_bonus
    key = (id(arm), skill, quality)
    kept = _PLAIN.get(key)
    if kept is not None and kept[0] is arm:
        return kept[1]
    potential = arm.damage_potential
    derivation = DamageDerivation(
        base=arm.weapon.damage,
        strength_bonus=arm.strength_damage_bonus,
        weapon_bonus=Decimal(arm.carried.damage_bonus),
        skill_bonus=Decimal(skill),
        potential=potential,
        multiplier=formulas.tidy(formulas.damage_multiplier(quality)),
        damage=formulas.damage(quality, potential),
    )
    if len(_PLAIN) >= BLOWS_KEPT:
        _PLAIN.clear()
    _PLAIN[key] = (arm, derivation)
    return derivation


def _hit_need(attacker: Loadout, arm: Arm, defender: Loadout, chance: Decimal, armor: int | None) -> str:
    """What the hit roll needs (E6: a quality above 0 is a roll under the chance less the armor), for a
    referee entering it; with hit locations the armor is the location's, rolled after it (E20)."""
    who = f"{attacker.id} attacks {defender.id} with {arm.weapon.name}"
    if armor is None:
        return f"{who}: under {formulas.tidy(chance)} less the armor where it lands, to hit"
    return f"{who}: under {formulas.tidy(chance - armor)} to hit ({formulas.tidy(chance)}% - armor {armor})"


def cover_now(target: EnergionCombatant, defender: Loadout, now: int) -> tuple[int, bool]:
    """Rule E16: the defender's cover at ``now``, and whether it is firing from full stable cover, which
    leaves it the cover it keeps in the second of its own attack ("persons firing from cover ... only
    visible to an attacker for the second of an attack")."""
    recent = target.attacked_ms is not None and now - target.attacked_ms < MS_PER_SECOND
    firing = target.cover == FULL_COVER and recent
    return (defender.spec.firing_cover if firing else target.cover), firing


def aim_shot(encounter: Arena, attacker: Loadout, arm: Arm, defender: Loadout) -> RangedDerivation | str:
    """The range, size, speed and aiming figures of a shot at ``defender`` now, or why it cannot be made."""
    state = encounter.state
    shooter, target = state.combatants[attacker.id], state.combatants[defender.id]
    gap = distance(shooter.position, target.position)
    band = ranged.range_band(arm.weapon.ranges, gap)
    if band is None:
        return f"{defender.id} is {gap} m away, beyond {arm.weapon.name}'s range"
    area = Decimal(str(defender.spec.size_m2))
    now = int(encounter.now)
    cover, firing = cover_now(target, defender, now)
    visible = ranged.cover_area(area, Decimal(cover))
    if visible <= 0:
        return f"{defender.id} is wholly behind cover"  # before any roll for the part it presents
    presented = presented_roll = None
    if defender.spec.random_cover:
        # E16: random cover presents one part at a time: the visible area is that part's share (E20 chart).
        presented_roll = encounter.dice.roll(attacker.id, "presented", PRESENTED_DIE)
        part = location_for(load_hit_locations(), presented_roll.total)
        presented = part.name
        visible = visible * (part.high - part.low + 1) / 100
    if cover or defender.spec.random_cover:
        visible = ranged.cover_advantage(visible, defender.spec.skill)
    if visible <= 0:
        return f"{defender.id} is wholly behind cover"
    percentage = ranged.size_percentage(visible)
    speed = ranged.relative_speed(shooter.velocity_at(now), target.velocity_at(now))
    maneuvering = target.fleeing and target.moved_ms is not None and now - target.moved_ms < MS_PER_SECOND
    since, restarted = _aim_seen(shooter, target, firing)
    aim_ms = now - since if since is not None else 0
    extra_ms = max(aim_ms - arm.speed_ms, 0)
    aimed = aim_ms >= arm.speed_ms
    return RangedDerivation(
        mode="missile" if arm.mode == "missile" else "hurled",
        distance=gap,
        band=band,
        range_factor=ranged.RANGE_FACTORS[band],
        chance_before=arm.hit_chance,
        target_area=formulas.tidy(area),
        cover=cover,
        visible_area=formulas.tidy(visible),
        size_percentage=formulas.tidy(percentage),
        size_penalty=formulas.tidy(ranged.size_penalty(percentage, band)),
        relative_speed=speed,
        speed_penalty=formulas.tidy(ranged.relative_speed_penalty(speed, maneuvering, defender.ag_bonus)),
        aim_ms=aim_ms,
        gap_ms=arm.speed_ms,
        aim_bonus=formulas.tidy(ranged.aiming_bonus(Decimal(extra_ms) / MS_PER_SECOND)) if aimed else _ZERO,
        unaimed_penalty=_ZERO if aimed else ranged.UNAIMED_PENALTY,
        presented=presented,
        presented_roll=presented_roll,
        maneuvering=maneuvering,
        firing_from_cover=firing,
        aim_restarted_ms=restarted,
    )


def _aim_seen(
    shooter: EnergionCombatant, target: EnergionCombatant, firing: bool
) -> tuple[int | None, int | None]:
    """Rule E17 with E16: since when the aim at ``target`` counts, and when it was spoiled or began to
    count late (None: it was not). The gap "must be spent visible" (ruling 58): a shooter in full stable
    cover is not, so its aim never counts; a target in full cover is seen only in the second of its own
    attack (``firing``), so aim at it counts from then."""
    if shooter.cover >= FULL_COVER:
        return None, None
    since, restarted = ranged.aim_start(
        shooter.aim_target, shooter.aim_since_ms, target.id, target.course_changed_ms
    )
    shown = target.attacked_ms
    if firing and since is not None and shown is not None and shown > since:
        return shown, shown
    return since, restarted


def _shot_chance(shot: RangedDerivation) -> Decimal:
    """Rule E8, then E18, E19 and E17: the chance scaled by range, less the penalties, plus the aim."""
    scaled = ranged.ranged_hit_chance(shot.chance_before, shot.band)
    return formulas.tidy(
        scaled - shot.size_penalty - shot.speed_penalty - shot.unaimed_penalty + shot.aim_bonus
    )


def _damage(
    attacker: Loadout,
    arm: Arm,
    quality: Decimal,
    shot: RangedDerivation | None,
    subdued: EnergionCombatant | None,
    charge_speed: Decimal | None = None,
) -> DamageDerivation:
    """Rule E7: the weapon's potential times the quality's multiplier (E8: times the range factor; E14:
    a blow struck to subdue knocks out, or deals half)."""
    if shot is None and subdued is None and charge_speed is None:
        return _plain_damage(attacker, arm, quality)
    potential = arm.damage_potential
    if shot is not None:
        potential = formulas.tidy(ranged.ranged_damage(potential, shot.band))
    full = formulas.damage(quality, potential)
    multiple = ranged.charge_multiple(charge_speed) if charge_speed is not None else None
    if multiple is not None and multiple > 1:
        full = formulas.tidy(full * multiple)
    subdue = None
    dealt = full
    if subdued is not None:
        subdue, dealt = subdue_outcome(full, subdued.damage_points, subdued.damage_taken)
    return DamageDerivation(
        base=arm.weapon.damage,
        strength_bonus=arm.strength_damage_bonus,
        weapon_bonus=Decimal(arm.carried.damage_bonus),
        skill_bonus=Decimal(attacker.spec.skill_damage_bonus),
        potential=potential,
        multiplier=formulas.tidy(formulas.damage_multiplier(quality)),
        damage=dealt,
        range_factor=shot.range_factor if shot is not None else None,
        subdue=subdue,
        full_damage=full if subdue is not None else None,
        charge_speed=charge_speed,
        charge_multiple=multiple,
    )


Parry = tuple[str, Decimal, int]
"""A parry's device, chance and gap (E5, E13)."""
_PARRIES: dict[tuple[int, int, bool, bool, bool], tuple[Loadout, Parry | None]] = {}


def parry_chance(defender: Loadout, state: EnergionCombatant, *, melee: bool) -> Parry | None:
    """The defender's parry device, chance and gap now (E5, E13), or None when it has none; worked out once
    for each defender, weapon in hand, working shield arm and readiness (kept with the defender, as
    ``_blow`` keeps its blows)."""
    shield_works = SHIELD_ARM not in state.disabled
    key = (id(defender), state.weapon_index, shield_works, state.weapon_ready, melee)
    kept = _PARRIES.get(key)
    if kept is not None and kept[0] is defender:
        return kept[1]
    parry = _parry_chance(
        defender, defender.arms[state.weapon_index], shield_works, state.weapon_ready, melee
    )
    if len(_PARRIES) >= BLOWS_KEPT:
        _PARRIES.clear()
    _PARRIES[key] = (defender, parry)
    return parry


def _parry_chance(defender: Loadout, arm: Arm, shield_works: bool, ready: bool, melee: bool) -> Parry | None:
    """A martial artist dodges (E13: AGbonus/4 + 1% per level, once a second, against blows and shots); else a
    shield on a working left arm parries; else, against a melee blow, a ready melee weapon."""
    level = max(defender.martial_level, defender.spec.acrobatics_level)
    if level:
        # E13 and E19: martial artists and acrobats dodge, AGbonus/4 + 1 % per level.
        chance = close_combat.martial_dodge(defender.ag_bonus, level)
        return "dodge", chance, MS_PER_SECOND
    if defender.shield is not None and shield_works:
        return (
            f"shield:{defender.shield.name}",
            Decimal(defender.spec.parry + defender.shield.parry),
            defender.shield_gap_ms,
        )
    if melee and ready and arm.mode == "melee":
        return f"weapon:{arm.weapon.name}", Decimal(defender.spec.parry + arm.weapon.parry), arm.speed_ms
    return None


def _parry(encounter: Arena, defender: Loadout, *, melee: bool) -> ParryAttempt | None:
    """Rule E5: a parry (or E13: a dodge) against a blow that would land.

    The defender must be able to react: it has reacted (E1, E24), is not out, not casting (a reaction would
    interrupt its spell, E23), not held or knocked down (E15); a device parries at most once per its gap.
    """
    state: EnergionCombatant = encounter.state.combatants[defender.id]
    if not state.reacted or state.casting is not None or state.held_by or state.knocked_down:
        return None
    if state.incapacitated(int(encounter.now)):
        return None
    parry = parry_chance(defender, state, melee=melee)
    if parry is None:
        return None
    device, chance, gap_ms = parry
    if chance <= 0:
        return None
    last = state.last_parry_ms.get(device)
    if last is not None and encounter.now - last < gap_ms:
        return None
    roll = encounter.dice.roll(
        defender.id,
        "parry",
        PARRY_DIE,
        need=lambda: f"{defender.id} parries with {device}: {chance} or under",
    )
    return ParryAttempt(device=device, chance=chance, roll=roll, parried=roll.total <= chance, gap_ms=gap_ms)
