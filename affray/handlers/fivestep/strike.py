"""Steps 4 and 5 of an attack (rules F1, F8-F12): percent to hit by the scenario's procedure, where the hit
lands, grenades that land, bounce or miss, and the damage each hit does to one body part."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Literal

from affray.events.base import Roll
from affray.events.fivestep import (
    AdversityApplied,
    AlertnessRaised,
    DamageResolved,
    DieRoll,
    Grazing,
    GrenadeThrown,
    OrganEffect,
    PoisonResolved,
    ToHitResolved,
    WepModRead,
)
from affray.handlers.special import SpecialHit
from affray.kernel.encounter import Encounter
from affray.kernel.space import distance, metres
from affray.kernel.state import CombatantState
from affray.rules.fivestep import damage as rules
from affray.rules.fivestep.dice import D10, D100
from affray.rules.fivestep.hitting import (
    GRENADE_BOUNCE_LIMIT,
    Adversity,
    ToHit,
    brawlmanship,
    grenade,
    marksmanship,
    percent_to_hit_1,
    percent_to_hit_2,
    percent_to_hit_3,
    random_hit_location,
)
from affray.rules.fivestep.sequence import raise_alertness
from affray.rules.fivestep.usertables import require

if TYPE_CHECKING:
    from affray.fivestep_scenario import Weapon
    from affray.handlers.fivestep.battle import Arm, Fighter, FivestepBattle

_HALF = Decimal("0.7071")
COMPASS: tuple[tuple[str, Decimal, Decimal], ...] = (
    ("north", Decimal(0), Decimal(1)),
    ("north-east", _HALF, _HALF),
    ("east", Decimal(1), Decimal(0)),
    ("south-east", _HALF, -_HALF),
    ("south", Decimal(0), Decimal(-1)),
    ("south-west", -_HALF, -_HALF),
    ("west", Decimal(-1), Decimal(0)),
    ("north-west", -_HALF, _HALF),
)
"""A bounce or a miss goes the way a d8 says (a ruling: the text leaves the direction to the referee)."""


DEFAULT_SPECIAL_TYPES = {"hand_to_hand": "Short melee", "grenade": "Grenade"}
"""Table 2 weapon types (S9) for weapons that name none; weaponry must name its own."""


def special_type(weapon: Weapon) -> str | None:
    """The weapon's Table 2 type for the special_damage module: its own, or its kind of combat's default."""
    return weapon.special_type or DEFAULT_SPECIAL_TYPES.get(weapon.combat)


def strike(
    encounter: Encounter, battle: FivestepBattle, fighter: Fighter, arm: Arm, target_id: str, round_start: int
) -> None:
    """One attack on ``target_id``: a thrown grenade (F9), or percent to hit (F8) and damage (F10-F12).
    ``round_start`` is when this round (and the attacker's turn) began."""
    state = encounter.state
    me, target = state.combatants[fighter.id], state.combatants[target_id]
    if arm.spec.combat == "grenade":
        throw(encounter, battle, fighter, arm, target)
        return
    combat: Literal["hand_to_hand", "weaponry"] = arm.spec.combat
    range_m = distance(me.position, target.position)
    if combat == "weaponry":
        skill_name: Literal["MARKS", "BRAWL"] = "MARKS"
        attribute, skill = fighter.spec.aim, marksmanship(fighter.spec.aim, arm.spec.difficulty)
    else:
        skill_name, attribute = "BRAWL", fighter.spec.brawl
        skill = brawlmanship(fighter.spec.brawl, arm.spec.difficulty)
    injury = me.injury_to_hit()
    skill += injury
    procedure = battle.procedures.to_hit
    options = battle.options
    adversity = _adversity(battle, me, target, round_start) if procedure == 3 else ()
    conditions = [Adversity(table=a.table, condition=a.condition) for a in adversity]  # type: ignore[arg-type]

    def judge(face: int) -> ToHit:
        if procedure == 1:
            return percent_to_hit_1(
                skill, face, kind=combat, range_m=range_m, at_or_under=options.at_or_under
            )
        if procedure == 2:
            return percent_to_hit_2(
                battle.tables.user, skill, face, kind=combat, range_m=range_m, at_or_under=options.at_or_under
            )
        return percent_to_hit_3(
            battle.tables.user,
            skill,
            conditions,
            face,
            kind=combat,
            range_m=range_m,
            over_misses=options.over_misses,
        )

    # Only an attack the rules settle by the d100 rolls it: out of reach, off the table or hopeless, none.
    result = judge(1)
    roll = None
    if result.roll is not None:
        roll = encounter.dice.roll(fighter.id, "to hit", str(D100))
        result = judge(roll.total)
    part, part_roll = _where(encounter, battle, fighter, target, result) if result.hit else (None, None)
    encounter.emit(
        ToHitResolved(
            attacker=fighter.id,
            target=target.id,
            weapon=arm.spec.name,
            procedure=procedure,
            combat=combat,
            range_m=range_m,
            skill_name=skill_name,
            attribute=attribute,
            difficulty=arm.spec.difficulty,
            skill=skill,
            injury=injury,
            outcome=result.outcome,
            percent_to_hit=result.percent_to_hit,
            adversity=adversity,
            modifier_sum=result.modifier_sum,
            percent_against=result.percent_against,
            chance=result.result,
            roll=roll,
            under=result.under,
            part=part,
            part_roll=part_roll,
        )
    )
    alert(encounter, battle, target)
    if part is None:
        return
    hurt(encounter, battle, fighter, arm, target, part, range_m, result)
    battle.after_damage(encounter, target.id)
    if battle.special is not None and roll is not None and result.result is not None and not target.out:
        hit = SpecialHit(
            attacker=fighter.id,
            target=target.id,
            weapon=arm.spec.name,
            weapon_type=special_type(arm.spec) or "",
            electrical=arm.spec.electrical,
            level=max(int(skill), 0) // battle.scenario.special_damage.level_divisor,
            hit_roll=roll.total,
            hit_chance=result.result,
            part=part,
            target_aware=_aware(encounter, target),
        )
        battle.special.after_hit(encounter, battle, hit)


def _aware(encounter: Encounter, target: CombatantState) -> bool:
    """Whether the target knows it is in a fight: not while another side has surprise over it (F5)."""
    rounds = encounter.state.fivestep
    return rounds is None or rounds.surprise is None or target.side in rounds.acting


def _adversity(
    battle: FivestepBattle, me: CombatantState, target: CombatantState, round_start: int
) -> tuple[AdversityApplied, ...]:
    """Rule F8 (procedure 3b): the scenario's standing conditions, and movement in this round (the
    attacker's turn began with it; a move ending at its first instant was the last round's)."""
    settings = battle.scenario.adversity
    chosen = list(settings.always)
    if settings.attacker_moved and me.moved_ms is not None and me.moved_ms > round_start:
        chosen.append(settings.attacker_moved)
    if settings.target_moved and target.moved_ms is not None and target.moved_ms > round_start:
        chosen.append(settings.target_moved)
    applied = []
    for condition in chosen:
        row = require(battle.tables.user, condition.table, "procedure 3 to hit").named(condition.condition)
        applied.append(
            AdversityApplied(table=condition.table, condition=row.condition, modifier=row.modifier)
        )
    return tuple(applied)


def _where(
    encounter: Encounter, battle: FivestepBattle, fighter: Fighter, target: CombatantState, result: ToHit
) -> tuple[str, Roll | None]:
    """Rule F8: a direct hit lands on the part aimed at; a random one where Table 3-3.4 says. Procedures 1
    and 2 follow ``options.locate_hits``."""
    random = result.outcome == "random" or (
        result.outcome == "hit" and battle.options.locate_hits == "random"
    )
    if random:
        roll = encounter.dice.roll(fighter.id, "hit location", str(D100))
        return random_hit_location(battle.tables.user, roll.total), roll
    return aimed_part(battle, fighter, target), None


def aimed_part(battle: FivestepBattle, fighter: Fighter, target: CombatantState) -> str:
    """The part the attacker aims at if the target has one of that name, else the target's first vital
    part."""
    victim = battle.fighters[target.id]
    wanted = victim.part(fighter.spec.aim_at) if fighter.spec.aim_at else None
    return (wanted or victim.first_vital()).name


def alert(encounter: Encounter, battle: FivestepBattle, target: CombatantState) -> None:
    """Rule F5: an attack raises the alertness of the target's side (surprise procedure 2) or of the target
    itself (procedure 3), once a round; procedure 1 has no alertness."""
    procedure = battle.procedures.surprise
    rounds = encounter.state.fivestep
    if procedure == 1 or rounds is None:
        return
    known = rounds.alertness
    if procedure == 2:
        who = target.side
        side = battle.sides.get(who)
        before = known.get(who, side.alertness if side else 50)
    else:
        who = target.id
        before = known.get(who, battle.fighters[who].spec.alertness)
    if rounds.alerted.get(who) == rounds.round:
        return
    after = raise_alertness(before, battle.options.alertness_rise)
    if after != before:
        encounter.emit(AlertnessRaised(who=who, before=before, after=after))


def throw(
    encounter: Encounter, battle: FivestepBattle, fighter: Fighter, arm: Arm, target: CombatantState
) -> None:
    """Rule F9: a grenade thrown at ``target``: under BRAWL it lands there; up to 20 over it bounces (Table
    3-4.1); more than 20 over it misses by 1d10 + 13 m. Everyone within its blast takes its damage."""
    me = encounter.state.combatants[fighter.id]
    aimed_at = target.position
    range_m = distance(me.position, aimed_at)
    roll = encounter.dice.roll(fighter.id, "grenade", str(D100))
    brawl = Decimal(fighter.spec.brawl)
    miss = None
    if roll.total - brawl > GRENADE_BOUNCE_LIMIT:
        miss = encounter.dice.roll(fighter.id, "grenade miss", str(D10))
    thrown = grenade(battle.tables.user, brawl, roll.total, miss.total if miss is not None else None)
    off = Decimal(0)
    direction = None
    way = ""
    landed = aimed_at
    if thrown.outcome != "exact":
        off = thrown.bounce.distance_m if thrown.bounce is not None else Decimal(thrown.miss_m or 0)
        direction = encounter.dice.roll(fighter.id, "grenade direction", "1d8")
        way, dx, dy = COMPASS[direction.total - 1]
        landed = (metres(aimed_at[0] + dx * off), metres(aimed_at[1] + dy * off))
    encounter.emit(
        GrenadeThrown(
            thrower=fighter.id,
            target=target.id,
            weapon=arm.spec.name,
            range_m=range_m,
            max_range_m=arm.reach_m,
            brawl=fighter.spec.brawl,
            roll=roll,
            over=thrown.over,
            outcome=thrown.outcome,
            bounces=thrown.bounce.bounces if thrown.bounce is not None else None,
            note=thrown.bounce.note if thrown.bounce is not None else "",
            miss_roll=miss,
            direction_roll=direction,
            direction=way,
            off_m=off,
            aimed_at=aimed_at,
            landed=landed,
        )
    )
    blast = Decimal(str(arm.spec.blast_m))
    caught = [
        v for v in encounter.state.combatants.values() if not v.out and distance(v.position, landed) <= blast
    ]
    for victim in caught:
        roll = encounter.dice.roll(fighter.id, "hit location", str(D100))
        part = random_hit_location(battle.tables.user, roll.total)
        alert(encounter, battle, victim)
        hurt(encounter, battle, fighter, arm, victim, part, distance(victim.position, landed), None, roll)
    for victim in caught:
        battle.after_damage(encounter, victim.id)


def hurt(
    encounter: Encounter,
    battle: FivestepBattle,
    fighter: Fighter,
    arm: Arm,
    target: CombatantState,
    part_name: str,
    range_m: Decimal,
    to_hit: ToHit | None,
    part_roll: Roll | None = None,
) -> None:
    """Rules F10-F12: the hit's points by the damage procedure (grazing when on and the hit was rolled),
    the part's damage percentage, structure, function and destruction, its description and organ effects.
    What the damage does to the character is the caller's to settle (``battle.after_damage``)."""
    options = battle.options
    die_roll = wep_mod = grazing = None
    if battle.procedures.damage == 2:
        assert arm.die_roll is not None
        dice = rules.dice_needed(arm.die_roll)
        faces = encounter.dice.roll(fighter.id, "damage", f"{dice}d10")
        rolled = rules.roll_damage(arm.die_roll, faces.faces, options.rounding)
        die_roll = DieRoll(
            expression=rolled.expression,
            roll=faces,
            whole_dice=rolled.whole_dice,
            fraction_points=rolled.fraction_points,
            bonus=rolled.bonus,
        )
        points = rolled.total
    else:
        assert arm.spec.wep_mod is not None
        read = rules.wep_mod_damage(battle.tables.damage.wep_mod(), arm.spec.wep_mod, range_m)
        wep_mod, points = WepModRead(wep_mod=read.wep_mod, band_bound_m=read.band_bound_m), read.points
    if options.grazing and to_hit is not None and to_hit.result is not None and to_hit.roll is not None:
        # A random hit rolled at or over its result (procedure 3) has no %UNDER: it grazes to 0 (ruling 47).
        target_figure, rolled_under = to_hit.result, to_hit.roll < to_hit.result
        grazing = Grazing(
            target=target_figure, percent_under=target_figure - to_hit.roll, points_before=points
        )
        graze = (
            rules.grazing_damage(points, target_figure, to_hit.roll, options.rounding)
            if rolled_under
            else None
        )
        points = graze.total if graze is not None else 0
    victim = battle.fighters[target.id]
    part = victim.part(part_name)
    assert part is not None
    taken = int(target.location_damage.get(part.name, Decimal(0))) + points
    state = rules.part_damage(taken, part.points)
    description, organs = _descriptions(battle, victim, arm, part.organ_row or part.name, state)
    encounter.emit(
        DamageResolved(
            attacker=fighter.id,
            target=target.id,
            weapon=arm.spec.name,
            procedure=battle.procedures.damage,
            part=part.name,
            range_m=range_m,
            die_roll=die_roll,
            wep_mod=wep_mod,
            grazing=grazing,
            blast=to_hit is None,
            part_roll=part_roll,
            points=points,
            part_taken=taken,
            part_points=part.points,
            percentage=state.percentage,
            category=state.category,
            structure_lost=state.structure_lost,
            function_left=state.function_left,
            functional=state.functional,
            destroyed=state.destroyed,
            damage_type=arm.spec.damage_type,
            description=description,
            organs=organs,
        )
    )
    if arm.spec.poison is not None and to_hit is not None:
        poison(encounter, battle, fighter, arm, target, part.name, range_m)


def poison(
    encounter: Encounter,
    battle: FivestepBattle,
    fighter: Fighter,
    arm: Arm,
    target: CombatantState,
    part_name: str,
    range_m: Decimal,
) -> None:
    """Rule F12: the poison or drug of a weapon that hit: its WEP MOD on Table 3-3 (a shot's range, or the
    first band for a blade or a needle, ruling 18) as a percentage of the part's points, read on the organ
    tables of the systems it affects. It does no tissue damage."""
    dose = arm.spec.poison
    assert dose is not None
    tables = battle.tables.damage
    victim = battle.fighters[target.id]
    part = victim.part(part_name)
    assert part is not None
    found = rules.poison_damage(
        dose.wep_mod,
        part.organ_row or part.name,
        part.points,
        tables.wep_mod(),
        tables.factors(),
        [tables.organ(system) for system in dose.systems],
        range_m=range_m if arm.spec.combat == "weaponry" else None,
        decentralized=victim.spec.decentralized,
    )
    encounter.emit(
        PoisonResolved(
            attacker=fighter.id,
            target=target.id,
            weapon=arm.spec.name,
            part=part.name,
            wep_mod=WepModRead(wep_mod=dose.wep_mod, band_bound_m=found.wep_mod.band_bound_m),
            points=found.wep_mod.points,
            tissue_percentage=found.tissue_percentage,
            organs=_organ_effects(found.organs),
        )
    )


def _organ_effects(found: tuple[rules.OrganDamage, ...]) -> tuple[OrganEffect, ...]:
    return tuple(
        OrganEffect(
            system=o.system, factor=o.factor, value=o.value, effect=o.effect.text if o.effect else None
        )
        for o in found
    )


def _descriptions(
    battle: FivestepBattle, victim: Fighter, arm: Arm, organ_row: str, state: rules.PartDamage
) -> tuple[str | None, tuple[OrganEffect, ...]]:
    """Rules F11, F12: the description of the part's damage percentage on the weapon's damage type table,
    and the organ systems' effects, when the scenario supplies those tables."""
    tables = battle.tables.damage
    description = None
    if state.category is not None and arm.spec.damage_type:
        key = arm.spec.damage_type.strip().casefold()
        table = next((t for t in tables.descriptions if t.damage_type.strip().casefold() == key), None)
        if table is not None:
            description = rules.description(table, state.category, exoskeleton=victim.spec.exoskeleton).text
    organs: tuple[OrganEffect, ...] = ()
    if tables.factor_table is not None and tables.organ_tables:
        found = rules.organ_damage(
            state.percentage,
            organ_row,
            tables.factor_table,
            tables.organ_tables,
            decentralized=victim.spec.decentralized,
        )
        organs = _organ_effects(found)
    return description, organs
