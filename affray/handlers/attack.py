"""One melee attack, from the hit roll through the parry to the damage (rules E1, E4-E7)."""

from __future__ import annotations

from decimal import Decimal

from affray.events.kinds import (
    AttackResolved,
    DamageDerivation,
    HitDerivation,
    Outcome,
    ParryAttempt,
)
from affray.handlers.loadout import Loadout
from affray.kernel.encounter import Encounter
from affray.kernel.state import CombatantState
from affray.rules.energion import formulas

HIT_DIE = "1d100"
PARRY_DIE = "1d100"


def resolve_attack(encounter: Encounter, attacker: Loadout, defender: Loadout) -> AttackResolved:
    """Roll the hit and, for a blow that would land, the defender's parry; build the outcome event."""
    roll = encounter.dice.roll(attacker.id, "hit", HIT_DIE)
    armor_value = defender.armor.value_against(attacker.weapon.type)
    shield_bonus = defender.shield.parry if defender.shield else 0
    quality = formulas.tidy(formulas.hit_quality(attacker.hit_chance, armor_value + shield_bonus, roll.total))
    hit = HitDerivation(
        skill=Decimal(attacker.spec.skill),
        bonus=attacker.bonus,
        bonus_kind=attacker.bonus_kind,
        hit_chance=attacker.hit_chance,
        armor=defender.armor.name,
        weapon_type=attacker.weapon.type,
        armor_value=armor_value,
        shield_bonus=shield_bonus,
        roll=roll,
        quality=quality,
    )
    parry = _parry(encounter, defender) if quality > 0 else None
    outcome: Outcome
    damage = None
    if quality <= 0:
        outcome = "miss"
    elif parry is not None and parry.parried:
        outcome = "parried"
    else:
        outcome = "hit"
        damage = _damage(attacker, quality)
    return AttackResolved(
        attacker=attacker.id,
        target=defender.id,
        weapon=attacker.weapon.name,
        hit=hit,
        parry=parry,
        outcome=outcome,
        damage=damage,
    )


def _damage(attacker: Loadout, quality: Decimal) -> DamageDerivation:
    """Rule E7: the weapon's potential times the quality's multiplier."""
    return DamageDerivation(
        base=attacker.weapon.damage,
        strength_bonus=attacker.strength_damage_bonus,
        weapon_bonus=Decimal(attacker.carried.damage_bonus),
        skill_bonus=Decimal(attacker.spec.skill_damage_bonus),
        potential=attacker.damage_potential,
        multiplier=formulas.tidy(formulas.damage_multiplier(quality)),
        damage=formulas.damage(quality, attacker.damage_potential),
    )


def _parry(encounter: Encounter, defender: Loadout) -> ParryAttempt | None:
    """Rule E5: a parry with the shield (or else the weapon), if the defender can react and it is free.

    A shield or weapon parries at most once per its modified speed; the defender must have reacted (E1).
    """
    state: CombatantState = encounter.state.combatants[defender.id]
    if not state.reacted or state.out:
        return None
    if defender.shield is not None:
        device = f"shield:{defender.shield.name}"
        chance = defender.spec.parry + defender.shield.parry
        gap_ms = defender.shield_gap_ms
    else:
        device = f"weapon:{defender.weapon.name}"
        chance = defender.spec.parry + defender.weapon.parry
        gap_ms = defender.speed_ms
    if chance <= 0:
        return None
    last = state.last_parry_ms.get(device)
    if last is not None and encounter.now - last < gap_ms:
        return None
    roll = encounter.dice.roll(defender.id, "parry", PARRY_DIE)
    return ParryAttempt(
        device=device,
        chance=Decimal(chance),
        roll=roll,
        parried=roll.total <= chance,
        gap_ms=gap_ms,
    )
