"""What an attack does to its target (rules F5, F10-F12): its alertness rises, a body part takes the hit's
points by the damage procedure, with its description and organ effects, and a poison enters."""

from __future__ import annotations

from decimal import Decimal

from affray.events.base import Roll
from affray.events.fivestep.kinds import (
    AlertnessRaised,
    DamageResolved,
    DieRoll,
    Grazing,
    OrganEffect,
    PoisonResolved,
    WepModRead,
)
from affray.events.fivestep.state import FivestepCombatant
from affray.handlers.fivestep.fighters import Arm, Fighter
from affray.handlers.fivestep.host import Arena, FivestepHost
from affray.rules.fivestep import damage as rules
from affray.rules.fivestep.hitting import ToHit
from affray.rules.fivestep.sequence import raise_alertness


def alert(encounter: Arena, battle: FivestepHost, target: FivestepCombatant) -> None:
    """Rule F5: an attack raises the alertness of the target's side (surprise procedure 2) or of the target
    itself (procedure 3), once a round; procedure 1 has no alertness."""
    procedure = battle.procedures.surprise
    rounds = encounter.state.rounds
    if procedure == 1:
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


def hurt(
    encounter: Arena,
    battle: FivestepHost,
    fighter: Fighter,
    arm: Arm,
    target: FivestepCombatant,
    part_name: str,
    range_m: Decimal,
    to_hit: ToHit | None,
    part_roll: Roll | None = None,
) -> None:
    """Rules F10-F12: the hit's points by the damage procedure (grazing when on and the hit was rolled),
    the part's damage percentage, structure, function and destruction, its description and organ effects.
    What the damage does to the character is the caller's to settle (``battle.after_damage``)."""
    die_roll, wep_mod, points = _points(encounter, battle, fighter, arm, range_m)
    grazing, points = _grazed(battle, to_hit, points)
    rulings = battle.referee.due(encounter, fighter.id, "damage")
    ruled_points = None
    if rulings:
        ruled = max(points + sum(ruling.damage or 0 for _, ruling in rulings), 0)
        points, ruled_points = ruled, ruled - points
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
            ruled_points=ruled_points,
        )
    )
    for number, ruling in rulings:
        battle.referee.record(encounter, number, fighter.id, f"{ruling.damage:+d} points")
    if arm.spec.poison is not None and to_hit is not None:
        poison(encounter, battle, fighter, arm, target, part.name, range_m)


def _points(
    encounter: Arena, battle: FivestepHost, fighter: Fighter, arm: Arm, range_m: Decimal
) -> tuple[DieRoll | None, WepModRead | None, int]:
    """Rule F10: the hit's points by the damage procedure: its DAMAGE DIE ROLL rolled (procedure 2), or
    its WEP MOD read on Table 3-3 at the range (procedure 3); with how they came about."""
    if battle.procedures.damage == 2:
        assert arm.die_roll is not None
        dice = rules.dice_needed(arm.die_roll)
        faces = encounter.dice.roll(fighter.id, "damage", f"{dice}d10")
        rolled = rules.roll_damage(arm.die_roll, faces.faces, battle.options.rounding)
        die_roll = DieRoll(
            expression=rolled.expression,
            roll=faces,
            whole_dice=rolled.whole_dice,
            fraction_points=rolled.fraction_points,
            bonus=rolled.bonus,
        )
        return die_roll, None, rolled.total
    assert arm.spec.wep_mod is not None
    read = rules.wep_mod_damage(battle.tables.damage.wep_mod(), arm.spec.wep_mod, range_m)
    return None, WepModRead(wep_mod=read.wep_mod, band_bound_m=read.band_bound_m), read.points


def _grazed(battle: FivestepHost, to_hit: ToHit | None, points: int) -> tuple[Grazing | None, int]:
    """Rule F10, grazing shots (an option): the points scaled by how far under its result the to-hit
    roll came; a random hit rolled at or over its result (procedure 3) has no %UNDER: it grazes to 0
    (ruling 47). A blast or an unrolled hit does not graze."""
    if not battle.options.grazing or to_hit is None or to_hit.result is None or to_hit.roll is None:
        return None, points
    result, roll = to_hit.result, to_hit.roll
    grazing = Grazing(target=result, percent_under=result - roll, points_before=points)
    if roll >= result:
        return grazing, 0
    return grazing, rules.grazing_damage(points, result, roll, battle.options.rounding).total


def poison(
    encounter: Arena,
    battle: FivestepHost,
    fighter: Fighter,
    arm: Arm,
    target: FivestepCombatant,
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
    damage = rules.poison_damage(
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
            wep_mod=WepModRead(wep_mod=dose.wep_mod, band_bound_m=damage.wep_mod.band_bound_m),
            points=damage.wep_mod.points,
            tissue_percentage=damage.tissue_percentage,
            organs=_organ_effects(damage.organs),
        )
    )


def _organ_effects(organs: tuple[rules.OrganDamage, ...]) -> tuple[OrganEffect, ...]:
    return tuple(
        OrganEffect(
            system=o.system, factor=o.factor, value=o.value, effect=o.effect.text if o.effect else None
        )
        for o in organs
    )


def _descriptions(
    battle: FivestepHost, victim: Fighter, arm: Arm, organ_row: str, state: rules.PartDamage
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
        organ_damage = rules.organ_damage(
            state.percentage,
            organ_row,
            tables.factor_table,
            tables.organ_tables,
            decentralized=victim.spec.decentralized,
        )
        organs = _organ_effects(organ_damage)
    return description, organs
