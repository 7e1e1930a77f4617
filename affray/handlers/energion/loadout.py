"""A combatant's figures under the Energion rules, worked out once from the scenario and the charts."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any, Literal, TypeVar

import msgspec

from affray.errors import ScenarioError, UnknownTableEntry, excerpt
from affray.events.energion.kinds import Modifier
from affray.handlers.energion import modifiers
from affray.handlers.energion.scenario import Combatant, EnergionOptions, EnergionScenario, WeaponCarried
from affray.kernel.clock import to_ms
from affray.rules.energion import close_combat, formulas
from affray.rules.energion.close_combat import GrapplingProcedure, GrapplingTable, load_grappling
from affray.rules.energion.locations import UNARMORED_COLUMN
from affray.rules.energion.tables import Armor, EnergionTables, Shield, Weapon

T = TypeVar("T")
BonusKind = Literal["melee", "mechanical"]
Mode = Literal["melee", "hurled", "missile"]
BODY_WEAPONS = "Body Weapons"


class Arm(msgspec.Struct, frozen=True, kw_only=True):
    """One carried weapon and its figures for this combatant (rules E2-E4, E7; E13 for a martial artist's
    hands and feet)."""

    index: int
    carried: WeaponCarried
    weapon: Weapon
    mode: Mode
    weapon_type: int
    """The type it strikes as (E11): the chart's, or a martial artist's punch (4) and kick (5)."""
    martial: Literal["punch", "kick"] | None = None
    martial_bonus: Decimal = Decimal(0)
    """E13: a martial artist's +1 % per level to hit with the open hand."""
    artist: bool = False
    """E1, E13: a martial artist's timing applies: speed down to 0 s, initiative at least 1 s, two attacks a
    second at most."""
    speed_adjustment: Decimal
    speed_ms: int
    initiative_ms: int
    bonus: Decimal
    bonus_kind: BonusKind
    hit_chance: Decimal
    modifiers: tuple[Modifier, ...]
    """What ``hit_chance`` holds beyond skill and bonus: proficiency (E12), the open-hand bonus (E13)."""
    strength_damage_bonus: Decimal
    damage_potential: Decimal
    reach: Decimal
    uses: int | None
    """Throws (hurled) or shots (missile) it has; None for a melee weapon or unlimited ammunition."""

    @property
    def readiness_ms(self) -> int:
        """Rule E3: battle initiative by readiness: in hand 0 s, at hand its speed, unready its initiative."""
        readiness = self.carried.readiness
        if readiness == "in_hand":
            return 0
        if readiness == "at_hand":
            return self.speed_ms
        return self.initiative_ms

    @property
    def ranged(self) -> bool:
        """Whether it is fired or thrown, so that range bands, aiming and target size apply (E8, E17, E18)."""
        return self.mode != "melee"


class Loadout(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the handlers need about one combatant: its weapons, armor and shield."""

    id: str
    spec: Combatant
    arms: tuple[Arm, ...]
    armor: Armor
    shield: Shield | None
    shield_gap_ms: int
    ag_bonus: Decimal
    melee_bonus: Decimal
    unarmored: Armor
    """The armor chart's Cloth column: the resistance of a location its armor leaves bare (E22 ruling)."""
    grapples: tuple[GrapplingProcedure, ...]

    @property
    def martial_level(self) -> int:
        """Its martial arts level (E13); 0 for none."""
        return self.spec.martial_arts_level

    def arm_for(self, kind: Literal["punch", "kick"]) -> Arm | None:
        """A martial artist's punch or kick (E13), if it carries it."""
        return next((arm for arm in self.arms if arm.martial == kind), None)


def build_loadout(
    spec: Combatant,
    index: int,
    tables: EnergionTables,
    options: EnergionOptions,
    grappling: GrapplingTable | None = None,
) -> Loadout:
    """Look up the charts for ``spec`` and work out its figures; bad names raise ScenarioError with a path."""
    path = f"$.combatants[{index}]"
    grappling = grappling or load_grappling()
    armor = _look_up(f"{path}.armor", tables.armor_named, spec.armor)
    shield = _shield(path, spec, tables)
    base = options.stat_bonus_base
    st = formulas.stat_bonus(spec.stats.ST, base)
    ag = formulas.stat_bonus(spec.stats.AG, base)
    co = formulas.stat_bonus(spec.stats.CO, base)
    one_hand = formulas.speed_adjustment_one_hand(ag, co)
    two_hand = formulas.speed_adjustment_two_hand(st, co, options.two_hand_co_divisor)
    artist = spec.martial_arts_level > 0 and options.martial_minimums == "character"
    arms = []
    for number, carried in enumerate(spec.weapons):
        where = f"{path}.weapons[{number}]"
        weapon = _weapon(where, carried, tables)
        if number == 0 and shield is not None and weapon.two_handed:
            raise ScenarioError(
                f"{path}.shield: {excerpt(weapon.name)!r} needs both hands; a shield cannot be carried"
            )
        adjustment = two_hand if weapon.two_handed else one_hand
        arms.append(_arm(number, where, carried, weapon, spec, st, co, adjustment, artist))
    return Loadout(
        id=spec.id,
        spec=spec,
        arms=tuple(arms),
        armor=armor,
        shield=shield,
        shield_gap_ms=to_ms(formulas.modified_speed(shield.speed, one_hand)) if shield else 0,
        ag_bonus=ag,
        melee_bonus=formulas.tidy(formulas.melee_bonus(st, co)),
        unarmored=tables.armor_named(UNARMORED_COLUMN),
        grapples=tuple(
            _look_up(f"{path}.grapples[{number}]", grappling.procedure, name)
            for number, name in enumerate(spec.grapples)
        ),
    )


def _shield(path: str, spec: Combatant, tables: EnergionTables) -> Shield | None:
    """Its shield; a force field keeps its size's parry plus at the weightless speed (E5, ruling 9)."""
    if not spec.shield:
        if spec.force_field:
            raise ScenarioError(
                f'{path}.force_field: no shield to make a force field; name its size, e.g. shield = "Medium"'
            )
        return None
    shield = _look_up(f"{path}.shield", tables.shield, spec.shield)
    if not spec.force_field:
        return shield
    return Shield(
        name=f"{shield.name} force field", parry=shield.parry, speed=tables.force_field_shield_speed
    )


def _arm(
    number: int,
    path: str,
    carried: WeaponCarried,
    weapon: Weapon,
    spec: Combatant,
    st: Decimal,
    co: Decimal,
    adjustment: Decimal,
    artist: bool,
) -> Arm:
    """The figures of carried weapon ``number``; ``artist`` when a martial artist's timing applies to every
    weapon it uses (E1, E13), else to its hands and feet only."""
    mode = _mode(path, carried, weapon)
    bonus_kind: BonusKind = "mechanical" if weapon.mechanical else "melee"
    bonus = (formulas.mechanical_bonus if weapon.mechanical else formulas.melee_bonus)(st, co)
    strength_damage_bonus = formulas.damage_bonus(st)
    martial = _martial(spec, weapon)
    level = spec.martial_arts_level
    hand_hit = close_combat.open_hand_hit_bonus(level) if martial == "punch" else Decimal(0)
    hand_damage = close_combat.open_hand_damage_bonus(level) if martial == "punch" else Decimal(0)
    potential = formulas.damage_potential(
        weapon.damage,
        strength_damage_bonus,
        Decimal(carried.damage_bonus),
        Decimal(spec.skill_damage_bonus) + hand_damage,
    )
    artist = artist or martial is not None
    speed_minimum = close_combat.martial_speed_minimum if artist else 1
    initiative_minimum = close_combat.martial_initiative_minimum if artist else 0
    types = {"punch": close_combat.open_hand_type, "kick": close_combat.kick_type}
    return Arm(
        index=number,
        carried=carried,
        weapon=weapon,
        mode=mode,
        weapon_type=types[martial] if martial else weapon.type,
        martial=martial,
        martial_bonus=hand_hit,
        artist=artist,
        speed_adjustment=adjustment,
        speed_ms=to_ms(formulas.modified_speed(weapon.speed, adjustment, speed_minimum)),
        initiative_ms=to_ms(formulas.modified_initiative(weapon.initiative, adjustment, initiative_minimum)),
        bonus=formulas.tidy(bonus),
        bonus_kind=bonus_kind,
        hit_chance=formulas.tidy(spec.skill + carried.proficiency + bonus + hand_hit),
        modifiers=modifiers.carried(carried.proficiency, hand_hit),
        strength_damage_bonus=formulas.tidy(strength_damage_bonus),
        damage_potential=formulas.tidy(potential),
        reach=Decimal(max(weapon.reach_m, 1)),
        uses=carried.count if mode == "hurled" else carried.ammunition,
    )


def _mode(path: str, carried: WeaponCarried, weapon: Weapon) -> Mode:
    """How a carried weapon is used: a mechanical one is fired, one marked ``hurled`` thrown (if the chart
    gives it a range beyond point blank), any other wielded; only a fired one takes ammunition."""
    mode: Mode = "missile" if weapon.mechanical else "hurled" if carried.hurled else "melee"
    if carried.hurled and weapon.mechanical:
        raise ScenarioError(
            f"{path}.hurled: {excerpt(weapon.name)!r} is a mechanical missile weapon, it is fired"
        )
    if carried.hurled and weapon.ranges[1] == 0:
        raise ScenarioError(
            f"{path}.hurled: {excerpt(weapon.name)!r} has no range beyond point blank on the chart"
        )
    if mode != "missile" and carried.ammunition is not None:
        raise ScenarioError(f"{path}.ammunition: only missile weapons take ammunition")
    return mode


def _martial(spec: Combatant, weapon: Weapon) -> Literal["punch", "kick"] | None:
    """A martial artist's open hand is a punch, its foot a kick (E13); others' are plain body weapons."""
    if spec.martial_arts_level == 0 or weapon.training_class != BODY_WEAPONS:
        return None
    return "kick" if weapon.name == "Foot" else "punch"


def _weapon(path: str, carried: WeaponCarried, tables: EnergionTables) -> Weapon:
    if carried.training_class is not None:
        _look_up(f"{path}.class", tables.training_class, carried.training_class)
    return _look_up(f"{path}.name", tables.weapon, carried.name, carried.training_class)


def _look_up(path: str, function: Callable[..., T], *args: Any) -> T:
    try:
        return function(*args)
    except UnknownTableEntry as exc:
        raise ScenarioError(f"{path}: {exc}") from None


_KEPT: dict[int, tuple[tuple[Combatant, ...], EnergionOptions, EnergionTables, dict[str, Loadout]]] = {}
LOADOUTS_KEPT = 16
"""How many scenarios' loadouts are kept (a batch fights one scenario under many seeds)."""


def loadouts_for(scenario: EnergionScenario, tables: EnergionTables) -> dict[str, Loadout]:
    """``build_loadouts``, worked out once for the same combatants, options and tables (the very objects:
    every run of a batch is its scenario with another seed) and shared: a loadout never changes."""
    combatants = tuple(scenario.combatants)
    key = id(scenario.combatants)
    kept = _KEPT.get(key)
    if (
        kept is not None
        and len(kept[0]) == len(combatants)
        and all(a is b for a, b in zip(kept[0], combatants, strict=True))
        and kept[1] is scenario.options
        and kept[2] is tables
    ):
        return dict(kept[3])
    built = build_loadouts(scenario, tables)
    if len(_KEPT) >= LOADOUTS_KEPT:
        _KEPT.clear()
    _KEPT[key] = (combatants, scenario.options, tables, built)
    return dict(built)


def build_loadouts(scenario: EnergionScenario, tables: EnergionTables) -> dict[str, Loadout]:
    """Loadouts for every combatant, in file order."""
    grappling = load_grappling()
    return {
        spec.id: build_loadout(spec, index, tables, scenario.options, grappling)
        for index, spec in enumerate(scenario.combatants)
    }
