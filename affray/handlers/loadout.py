"""A combatant's figures under the Energion rules, worked out once from the scenario and the charts."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any, Literal, TypeVar

import msgspec

from affray.errors import ScenarioError, UnknownTableEntry
from affray.kernel.clock import to_ms
from affray.rules.energion import formulas
from affray.rules.energion.tables import Armor, EnergionTables, Shield, Weapon
from affray.scenario import Combatant, EnergionOptions, Scenario, WeaponCarried

T = TypeVar("T")
BonusKind = Literal["melee", "mechanical"]


class Loadout(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the handlers need about one combatant, with the rule each figure comes from."""

    id: str
    spec: Combatant
    carried: WeaponCarried
    weapon: Weapon
    armor: Armor
    shield: Shield | None
    speed_adjustment: Decimal
    speed_ms: int
    initiative_ms: int
    bonus: Decimal
    bonus_kind: BonusKind
    hit_chance: Decimal
    strength_damage_bonus: Decimal
    damage_potential: Decimal
    reach: Decimal
    shield_gap_ms: int

    @property
    def readiness_ms(self) -> int:
        """Rule E3: battle initiative by readiness: in hand 0 s, at hand its speed, unready its initiative."""
        readiness = self.carried.readiness
        if readiness == "in_hand":
            return 0
        if readiness == "at_hand":
            return self.speed_ms
        return self.initiative_ms


def build_loadout(spec: Combatant, index: int, tables: EnergionTables, options: EnergionOptions) -> Loadout:
    """Look up the charts for ``spec`` and work out its figures; bad names raise ScenarioError with a path."""
    path = f"$.combatants[{index}]"
    weapons = [_weapon(f"{path}.weapons[{i}]", w, tables) for i, w in enumerate(spec.weapons)]
    carried, weapon = spec.weapons[0], weapons[0]
    armor = _look_up(f"{path}.armor", tables.armor_named, spec.armor)
    shield = _look_up(f"{path}.shield", tables.shield, spec.shield) if spec.shield else None
    if shield is not None and weapon.two_handed:
        raise ScenarioError(f"{path}.shield: {weapon.name!r} needs both hands; a shield cannot be carried")

    base = options.stat_bonus_base
    st = formulas.stat_bonus(spec.stats.ST, base)
    ag = formulas.stat_bonus(spec.stats.AG, base)
    co = formulas.stat_bonus(spec.stats.CO, base)
    one_hand = formulas.speed_adjustment_one_hand(ag, co)
    if weapon.two_handed:
        adjustment = formulas.speed_adjustment_two_hand(st, co, options.two_hand_co_divisor)
    else:
        adjustment = one_hand
    bonus_kind: BonusKind = "mechanical" if weapon.mechanical else "melee"
    bonus_formula = formulas.mechanical_bonus if weapon.mechanical else formulas.melee_bonus
    bonus = bonus_formula(st, co)
    strength_damage_bonus = formulas.damage_bonus(st)
    return Loadout(
        id=spec.id,
        spec=spec,
        carried=carried,
        weapon=weapon,
        armor=armor,
        shield=shield,
        speed_adjustment=adjustment,
        speed_ms=to_ms(formulas.modified_speed(weapon.speed, adjustment)),
        initiative_ms=to_ms(formulas.modified_initiative(weapon.initiative, adjustment)),
        bonus=formulas.tidy(bonus),
        bonus_kind=bonus_kind,
        hit_chance=formulas.tidy(spec.skill + bonus),
        strength_damage_bonus=formulas.tidy(strength_damage_bonus),
        damage_potential=formulas.tidy(
            formulas.damage_potential(
                weapon.damage,
                strength_damage_bonus,
                Decimal(carried.damage_bonus),
                Decimal(spec.skill_damage_bonus),
            )
        ),
        reach=Decimal(max(weapon.reach_m, 1)),
        shield_gap_ms=to_ms(formulas.modified_speed(shield.speed, one_hand)) if shield else 0,
    )


def _weapon(path: str, carried: WeaponCarried, tables: EnergionTables) -> Weapon:
    if carried.training_class is not None:
        _look_up(f"{path}.class", tables.training_class, carried.training_class)
    return _look_up(f"{path}.name", tables.weapon, carried.name, carried.training_class)


def _look_up(path: str, function: Callable[..., T], *args: Any) -> T:
    try:
        return function(*args)
    except UnknownTableEntry as exc:
        raise ScenarioError(f"{path}: {exc}") from None


def build_loadouts(scenario: Scenario, tables: EnergionTables) -> dict[str, Loadout]:
    """Loadouts for every combatant, in file order."""
    return {
        spec.id: build_loadout(spec, index, tables, scenario.options)
        for index, spec in enumerate(scenario.combatants)
    }
