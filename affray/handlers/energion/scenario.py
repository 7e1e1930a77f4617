"""Energion scenarios (``ruleset = "energion"``, seed 002): the options, the modules and the combatants,
decoded straight into typed Structs so every mistake comes with its field path (docs/scenario-format.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import msgspec

from affray.errors import ScenarioError, read_user_file
from affray.handlers.orders import Orders, check_orders, given
from affray.handlers.rulings import Ruling, check_rulings
from affray.handlers.special_damage.scenario import (
    SpecialDamageOptions,
    SpecialTraits,
    SpecialWeaponTraits,
    check_special,
)
from affray.kernel.dice import parse_expression
from affray.kernel.fairseed import FairSeed
from affray.kernel.referee import Effect
from affray.kernel.scenario import (
    Coordinate,
    Dice,
    Identifier,
    Section,
    Seed,
    check_dice,
    check_fighters,
    convert,
    parse_toml,
)
from affray.npc.outside import check_controllers

Stat = Annotated[int, msgspec.Meta(ge=1, le=300, description="a characteristic; 100 is average")]
Percent = Annotated[int, msgspec.Meta(ge=0, le=300)]
Seconds = Annotated[int, msgspec.Meta(ge=0, le=86400)] | Annotated[float, msgspec.Meta(ge=0, le=86400)] | str
"""A time in seconds (a number) or a dice expression rolled for it (``"1d10"``, read as seconds)."""
Location = Literal["head", "chest", "abdomen", "right arm", "left arm", "right leg", "left leg"]


CONTROLLERS = ("auto", "nearest", "tactician")
"""The controllers a combatant may be played by."""


class Stats(Section, frozen=True, kw_only=True):
    """The characteristics the Energion formulas read; 100 is the chart's average person."""

    ST: Stat = 100
    AG: Stat = 100
    CO: Stat = 100


class WeaponCarried(SpecialWeaponTraits, frozen=True, kw_only=True):
    """A weapon by its chart name, the training class whose row applies, and where it is (rule E3)."""

    name: str
    training_class: str | None = msgspec.field(default=None, name="class")
    readiness: Literal["in_hand", "at_hand", "unready"] = "in_hand"
    damage_bonus: Annotated[int, msgspec.Meta(ge=-50, le=50)] = 0
    proficiency: Annotated[int, msgspec.Meta(ge=0, le=40)] = 0
    """Rule E12: its plus to skill with this weapon, up to 40 %."""
    hurled: bool = False
    count: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 1
    ammunition: Annotated[int, msgspec.Meta(ge=0, le=100000)] | None = None


class Spell(Section, frozen=True, kw_only=True):
    """A spell a combatant can cast (rule E23). The text gives only its timing; its effect is the
    scenario's: damage dice against one target within range."""

    name: str
    preparation: Seconds = 0
    """Battle initiative for the spell, fetching focuses included (E23), as seconds or dice."""
    casting_seconds: Annotated[int, msgspec.Meta(ge=1, le=10)]
    damage: str
    range_m: Annotated[float, msgspec.Meta(gt=0, le=10000)] = 30.0


class Combatant(SpecialTraits, frozen=True, kw_only=True):
    """One fighter: who, which side, where, how good, and what it carries."""

    id: Identifier
    name: str
    side: Identifier
    controller: str = "auto"
    """Who decides its actions: one of CONTROLLERS ("auto" is the tactician for a combatant with spells,
    grappling, martial arts, a missile or hurled weapon or several weapons, which nearest would never use,
    else nearest: ruling 50), a controller from outside affray as ``package.module:factory``, or
    ``external`` for one played step by step (the PettingZoo environment; docs/controllers.md)."""
    cornered: Literal["surrender", "stand"] = "surrender"
    """What its tactician does when fleeing gains it no ground for 10 s: give up the fight, or turn and
    fight on (ruling 48)."""
    position: tuple[Coordinate, Coordinate] = (0.0, 0.0)
    move_rate: Annotated[float, msgspec.Meta(gt=0, le=50)] = 3.0
    damage_points: Annotated[int, msgspec.Meta(ge=1, le=10000)]
    skill: Percent
    parry: Percent = 0
    skill_damage_bonus: Annotated[int, msgspec.Meta(ge=0, le=50)] = 0
    stats: Stats = Stats()
    weapons: list[WeaponCarried] = msgspec.field(default_factory=list)
    """At least one, except for a computer."""
    armor: str = "Cloth"
    shield: str | None = None
    """Its shield's size, by its name in the shields table ("Buckler" ... "Large"; rule E5)."""
    force_field: bool = False
    """Its shield is a force field: weightless, it stays at speed 2 whatever its size (rule E5, ruling 9)."""
    size_m2: Annotated[float, msgspec.Meta(gt=0, le=1000)] = 0.75
    cover: Annotated[int, msgspec.Meta(ge=0, le=100)] = 0
    firing_cover: Annotated[int, msgspec.Meta(ge=0, le=100)] = 50
    """Rule E16: with full stable cover (100), the cover it keeps in the second of its own attack."""
    acrobatics_level: Annotated[int, msgspec.Meta(ge=0, le=50)] = 0
    """Rule E19: its Acrobatics level: it may dodge (AGbonus/4 + 1 % per level)."""
    random_cover: bool = False
    """Rule E16: it moves through random cover (woods): each shot at it rolls the part it presents."""
    spells: list[Spell] = msgspec.field(default_factory=list)
    unarmored: list[Location] = msgspec.field(default_factory=list)
    """Locations its armor does not cover (rule E22), with hit locations on."""
    subdue: bool = False
    """Its blows strike to subdue (rule E14)."""
    priority_targets: list[str] = msgspec.field(default_factory=list)
    """Combatants its controller attacks first, while they stand."""
    martial_arts_level: Annotated[int, msgspec.Meta(ge=0, le=50)] = 0
    """Its level as a martial artist (rule E13); 0 for none."""
    grapples: list[str] = msgspec.field(default_factory=list)
    """The grappling procedures it uses (rule E15), by their names in the procedures table."""
    luck_armor: Annotated[int, msgspec.Meta(ge=0, le=200)] = 0
    """Luck armor: god blessings, charms, non-tangible armor (rule E15's "AG/Luck" armor)."""
    perception: Seconds = 0
    reaction: Seconds = 0
    prepared: bool = False


class EnergionOptions(Section, frozen=True, kw_only=True):
    """Rulings on the Energion text that players may reasonably set otherwise (docs/rulesets/energion.md)."""

    stat_bonus_base: Annotated[int, msgspec.Meta(ge=0, le=300)] = 100
    two_hand_co_divisor: Annotated[int, msgspec.Meta(ge=1, le=100)] = 30
    hit_locations: bool = False
    """Rules E20 and E22: roll where each attack lands. Off by default, as the text itself advises."""
    martial_minimums: Literal["character", "body_weapons"] = "character"
    """Rules E1, E13: a martial artist's speed minimum of 0 s, initiative minimum of 1 s and two attacks a
    second apply to every weapon it uses ("character", as the text reads), or to its hands and feet only."""


class EnergionScenario(Section, frozen=True, kw_only=True):
    """A whole encounter: the ruleset, the seed, the dice, the options and the combatants in file order."""

    ruleset: Literal["energion"]
    seed: Seed
    name: str = ""
    max_seconds: Annotated[int, msgspec.Meta(ge=1, le=86400)] = 600
    dice: Dice = Dice()
    fair_seed: FairSeed | msgspec.UnsetType = msgspec.UNSET
    """Commitments and reveals that give the seed (kernel/fairseed.py); not written when absent."""
    options: EnergionOptions = EnergionOptions()
    modules: list[Literal["special_damage"]] = msgspec.field(default_factory=list)
    """Add-ons over the ruleset: "special_damage" (seed 001)."""
    special_damage: SpecialDamageOptions = SpecialDamageOptions()
    rulings: list[Ruling] = msgspec.field(default_factory=list)
    combatants: Annotated[list[Combatant], msgspec.Meta(min_length=2)]
    orders: Orders = msgspec.UNSET
    """Standing orders from a time on (handlers/orders.py); not written when absent."""


def decode_scenario(data: bytes | str, source: str) -> EnergionScenario:
    """Decode TOML text into an EnergionScenario; errors name ``source`` and the line or field path."""
    return convert_scenario(parse_toml(data, source), source)


def convert_scenario(raw: object, source: str) -> EnergionScenario:
    """Turn a decoded mapping (from TOML or a log header) into a checked EnergionScenario."""
    scenario = convert(raw, EnergionScenario, source)
    _check(scenario, source)
    return scenario


def _check(scenario: EnergionScenario, source: str) -> None:
    check_fighters(scenario.combatants, source)
    for index, combatant in enumerate(scenario.combatants):
        path = f"$.combatants[{index}]"
        expressions = {f"{path}.{field}": getattr(combatant, field) for field in ("perception", "reaction")}
        for number, spell in enumerate(combatant.spells):
            expressions[f"{path}.spells[{number}].preparation"] = spell.preparation
            expressions[f"{path}.spells[{number}].damage"] = spell.damage
        for where, value in expressions.items():
            if isinstance(value, str):
                try:
                    parse_expression(value)
                except ScenarioError as exc:
                    raise ScenarioError(f"{source}: {where}: {exc}") from None
    check_controllers([c.controller for c in scenario.combatants], CONTROLLERS, source)
    check_special(scenario.combatants, scenario.modules, scenario.rulings, source)
    ids = [c.id for c in scenario.combatants]
    check_rulings(scenario.rulings, ids, source)
    check_orders(given(scenario.orders), ids, CONTROLLERS, source)
    check_dice(scenario.dice, source)


def load_scenario(path: Path) -> EnergionScenario:
    """Read and decode the scenario at ``path``."""
    return decode_scenario(read_user_file(path, ScenarioError, "a scenario file"), str(path))


RULES_ON: dict[Effect, str] = {
    "outcome": "attack_resolved",
    "damage": "attack_resolved",
    "modifier": "attack_resolved",
    "leaves": "combatant_out",
}
"""The kind of event each effect of a referee's ruling overrules in Energion."""
