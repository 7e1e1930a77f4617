"""Scenarios: TOML files decoded straight into typed Structs, so every mistake comes with its field path."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Literal, Protocol

import msgspec

from affray.errors import ScenarioError, read_user_file
from affray.kernel.dice import DiceSource, GeneratedDice, ManualDice, parse_expression

Stat = Annotated[int, msgspec.Meta(ge=1, le=300, description="a characteristic; 100 is average")]
Percent = Annotated[int, msgspec.Meta(ge=0, le=300)]
Seconds = Annotated[int, msgspec.Meta(ge=0, le=86400)] | Annotated[float, msgspec.Meta(ge=0, le=86400)] | str
"""A time in seconds (a number) or a dice expression rolled for it (``"1d10"``, read as seconds)."""
Location = Literal["head", "chest", "abdomen", "right arm", "left arm", "right leg", "left leg"]
Identifier = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,40}$")]


class Section(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Settings shared by every scenario Struct: unknown fields are errors, not silently ignored."""


class Stats(Section, frozen=True, kw_only=True):
    """The characteristics the Energion formulas read; 100 is the chart's average person."""

    ST: Stat = 100
    AG: Stat = 100
    CO: Stat = 100


class Equipment(Section, frozen=True, kw_only=True):
    """A piece of equipment a combatant carries, in units (special damage destroys it, rule S3)."""

    name: str
    count: Annotated[int, msgspec.Meta(ge=1, le=10000)] = 1


class Program(Section, frozen=True, kw_only=True):
    """A computer's program and its level (rule S6); a "Computer Security" program controls ``alarms``."""

    name: str
    level: Annotated[int, msgspec.Meta(ge=1, le=10)]
    alarms: list[str] = []


class SpecialWeaponTraits(Section, frozen=True, kw_only=True):
    """What the special_damage module reads of a weapon, whatever the ruleset (rules S7, S9)."""

    special_type: str | None = None
    """Special damage (S9): its Table 2 weapon type; by default one the host ruleset's weapon maps to."""
    electrical: bool = False
    """Special damage (S7): an electrostunner or other electrical weapon causes nerve damage, not breaks."""


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


class SpecialTraits(Section, frozen=True, kw_only=True):
    """What the special_damage module reads of a combatant, whatever the ruleset (rules S2-S9)."""

    kind: Literal["living", "robot", "computer"] = "living"
    """What special damage does to it (rules S3-S6); robots and computers need the special_damage module."""
    race: str = "human"
    """Special damage cares about Vrusk (two arms a side) and Dralasites (no bones) (rule S7)."""
    defensive_screen: bool = False
    """An active defensive screen: no special damage (rule S2)."""
    suit_defense: bool = False
    """A suit-type defense: -2 to the special damage roll (rule S9)."""
    equipment: list[Equipment] = []
    """Most valuable first: special damage takes the last listed first (the victim's pick, rule S3)."""
    programs: list[Program] = []
    """A computer's programs (rule S6)."""
    robotics_skill: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0
    computer_skill: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0


class Combatant(SpecialTraits, frozen=True, kw_only=True):
    """One fighter: who, which side, where, how good, and what it carries."""

    id: Identifier
    name: str
    side: Identifier
    controller: Literal["nearest", "tactician"] = "nearest"
    position: tuple[float, float] = (0.0, 0.0)
    move_rate: Annotated[float, msgspec.Meta(gt=0, le=50)] = 3.0
    damage_points: Annotated[int, msgspec.Meta(ge=1, le=10000)]
    skill: Percent
    parry: Percent = 0
    skill_damage_bonus: Annotated[int, msgspec.Meta(ge=0, le=50)] = 0
    stats: Stats = Stats()
    weapons: list[WeaponCarried] = []
    """At least one, except for a computer."""
    armor: str = "Cloth"
    shield: str | None = None
    size_m2: Annotated[float, msgspec.Meta(gt=0, le=1000)] = 0.75
    cover: Annotated[int, msgspec.Meta(ge=0, le=100)] = 0
    firing_cover: Annotated[int, msgspec.Meta(ge=0, le=100)] = 50
    """Rule E16: with full stable cover (100), the cover it keeps in the second of its own attack."""
    acrobatics_level: Annotated[int, msgspec.Meta(ge=0, le=50)] = 0
    """Rule E19: its Acrobatics level: it may dodge (AGbonus/4 + 1 % per level)."""
    random_cover: bool = False
    """Rule E16: it moves through random cover (woods): each shot at it rolls the part it presents."""
    spells: list[Spell] = []
    unarmored: list[Location] = []
    """Locations its armor does not cover (rule E22), with hit locations on."""
    subdue: bool = False
    """Its blows strike to subdue (rule E14)."""
    priority_targets: list[str] = []
    """Combatants its controller attacks first, while they stand."""
    martial_arts_level: Annotated[int, msgspec.Meta(ge=0, le=50)] = 0
    """Its level as a martial artist (rule E13); 0 for none."""
    grapples: list[str] = []
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


class SpecialDamageOptions(Section, frozen=True, kw_only=True):
    """How the special_damage module sits on its host ruleset (docs/rulesets/special_damage.md)."""

    level_divisor: Annotated[int, msgspec.Meta(ge=1, le=100)] = 10
    """A host's percentage skill to the add-on's skill level: level = skill // level_divisor."""
    limbs_set_in_time: bool = True
    """Rule S7: broken limbs are set within two hours (else the hospital)."""
    underwater: bool = False
    """Rule S9: the fight is underwater (-2 to every special damage roll)."""
    rs_divisor: Annotated[int, msgspec.Meta(ge=1, le=10)] = 2
    """Reaction Speed for RS checks is the host's AG / rs_divisor (100 AG -> RS 50, a ruling)."""


class Ruling(Section, frozen=True, kw_only=True):
    """Rule S10: the referee alters a special damage outcome; the ruling is recorded with its reason."""

    target: str
    nth: Annotated[int, msgspec.Meta(ge=1)] = 1
    """Which special damage to the target it alters: the first, the second, ..."""
    replace_with: str | None = None
    """A damage of the same table (e.g. "Leg wound") instead of the one rolled."""
    stamina: Annotated[int, msgspec.Meta(ge=0)] | None = None
    """The extra Stamina damage instead of the table's."""
    reason: str


class Dice(Section, frozen=True, kw_only=True):
    """Where the dice come from: generated from the seed, or the faces a referee rolled, in order."""

    source: Literal["generated", "manual"] = "generated"
    rolls: list[Annotated[int, msgspec.Meta(ge=1)]] = []

    def source_for(self, seed: int) -> DiceSource:
        """Generated streams from ``seed``, or the referee's rolls in order."""
        if self.source == "manual":
            return ManualDice(self.rolls)
        return GeneratedDice(seed)


class Scenario(Section, frozen=True, kw_only=True):
    """A whole encounter: the ruleset, the seed, the dice, the options and the combatants in file order."""

    ruleset: Literal["energion"]
    seed: Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
    name: str = ""
    max_seconds: Annotated[int, msgspec.Meta(ge=1, le=86400)] = 600
    dice: Dice = Dice()
    options: EnergionOptions = EnergionOptions()
    modules: list[Literal["special_damage"]] = []
    """Add-ons over the ruleset: "special_damage" (seed 001)."""
    special_damage: SpecialDamageOptions = SpecialDamageOptions()
    rulings: list[Ruling] = []
    combatants: Annotated[list[Combatant], msgspec.Meta(min_length=2)]


def parse_toml(data: bytes | str, source: str) -> dict[str, object]:
    """A scenario file's TOML as a mapping, for any ruleset; errors name ``source`` and the line."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{source}: invalid TOML: {exc}") from None


def decode_scenario(data: bytes | str, source: str) -> Scenario:
    """Decode TOML text into a Scenario; errors name ``source`` and the line or field path."""
    return convert_scenario(parse_toml(data, source), source)


def convert_scenario(raw: object, source: str) -> Scenario:
    """Turn a decoded mapping (from TOML or a log header) into a checked Scenario."""
    try:
        scenario = msgspec.convert(raw, Scenario)
    except msgspec.ValidationError as exc:
        raise ScenarioError(f"{source}: {path_first(str(exc))}") from None
    _check_ids(scenario, source)
    return scenario


def path_first(message: str) -> str:
    """msgspec says "Expected X - at `$.a.b`"; put the path first: "$.a.b: expected X"."""
    what, sep, where = message.rpartition(" - at ")
    if not sep:
        return f"$: {message[0].lower()}{message[1:]}"
    return f"{where.strip('`')}: {what[0].lower()}{what[1:]}"


def _check_ids(scenario: Scenario, source: str) -> None:
    seen: set[str] = set()
    for index, combatant in enumerate(scenario.combatants):
        if combatant.id in seen:
            raise ScenarioError(f"{source}: $.combatants[{index}].id: {combatant.id!r} is used twice")
        seen.add(combatant.id)
    if len({c.side for c in scenario.combatants}) < 2:
        raise ScenarioError(f"{source}: $.combatants: every combatant is on one side; a fight needs two")
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
    check_combatants(scenario.combatants, scenario.modules, scenario.rulings, source)
    check_dice(scenario.dice, source)


class _Fighting(Protocol):
    """What every ruleset's combatant has that the shared checks read."""

    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def programs(self) -> Sequence[Program]: ...
    @property
    def priority_targets(self) -> Sequence[str]: ...
    @property
    def weapons(self) -> Sequence[object]: ...


def check_combatants(
    combatants: Sequence[_Fighting], modules: Sequence[str], rulings: Sequence[Ruling], source: str
) -> None:
    """The checks every ruleset's combatants share: robots and computers need the special_damage module,
    only a computer goes unarmed or has programs, priority targets and rulings name combatants (S10)."""
    special = "special_damage" in modules
    ids = {c.id for c in combatants}
    for index, combatant in enumerate(combatants):
        path = f"$.combatants[{index}]"
        if combatant.kind != "living" and not special:
            raise ScenarioError(
                f'{source}: {path}.kind: a {combatant.kind} target needs modules = ["special_damage"]'
            )
        if combatant.kind != "computer" and not combatant.weapons:
            raise ScenarioError(f"{source}: {path}.weapons: at least one weapon is needed")
        if combatant.kind != "computer" and combatant.programs:
            raise ScenarioError(f"{source}: {path}.programs: only a computer has programs")
        for number, target in enumerate(combatant.priority_targets):
            if target not in ids:
                raise ScenarioError(f"{source}: {path}.priority_targets[{number}]: no combatant {target!r}")
    for number, ruling in enumerate(rulings):
        if not special:
            raise ScenarioError(f"{source}: $.rulings[{number}]: rulings alter special damage; none is on")
        if ruling.target not in ids:
            raise ScenarioError(f"{source}: $.rulings[{number}].target: no combatant {ruling.target!r}")


def check_dice(dice: Dice, source: str) -> None:
    """Manual rolls only with manual dice."""
    if dice.source == "generated" and dice.rolls:
        raise ScenarioError(f"{source}: $.dice.rolls: rolls are given but dice.source is 'generated'")


def load_scenario(path: Path) -> Scenario:
    """Read and decode the scenario at ``path``."""
    return decode_scenario(read_user_file(path, ScenarioError, "a scenario file"), str(path))
