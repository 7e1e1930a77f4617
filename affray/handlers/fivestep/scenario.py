"""Fivestep scenarios (``ruleset = "fivestep"``, seed 000): the procedure chosen for each step, the options,
the user-supplied tables, bodies, sides and characters (docs/scenario-format.md, docs/rulesets/fivestep.md).

A scenario file names its tables by path; loading it reads them, and the scenario recorded in a log's
header holds each table's text, so a log re-simulates without the files.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal

import msgspec

from affray.errors import QUOTE_LIMIT, ScenarioError, TableError, excerpt, read_user_file
from affray.handlers.orders import Orders, check_orders, given
from affray.handlers.rulings import Ruling, check_rulings
from affray.handlers.special_damage.scenario import (
    SpecialDamageOptions,
    SpecialTraits,
    SpecialWeaponTraits,
    check_special,
)
from affray.kernel.dice import MAX_DICE, MAX_MODIFIER
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
)
from affray.npc.outside import check_controllers
from affray.rules.fivestep.damage import dice_needed, parse_damage_die_roll
from affray.rules.tabledata import NUMBER_LIMIT

Percent = Annotated[int, msgspec.Meta(ge=0, le=100)]
WepMod = Annotated[int, msgspec.Meta(ge=-NUMBER_LIMIT, le=NUMBER_LIMIT)]
"""A WEP MOD, read on Table 3-3, whose numbers are within ``NUMBER_LIMIT`` of 0 like every table's."""
_LONG_NUMBER = re.compile(rf"[0-9]{{{len(str(MAX_MODIFIER)) + 1},}}")
AdversityTableId = Literal["3-7.0", "3-7.1", "3-7.2", "3-7.3", "3-7.4"]
OrganSystemName = Literal["circulatory", "respiratory", "nervous-endocrine", "digestive-excretory"]


class Procedures(Section, frozen=True, kw_only=True):
    """The procedure the referee chose for each of the five steps (rule F4); recorded in the log."""

    surprise: Literal[1, 2, 3] = 1
    primary_attack: Literal[1, 2, 3] = 1
    primary_each_round: Literal[1, 2] = 1
    """Primary attack procedure 3 performs procedure 1 or 2, the GM's choice, every round (F6)."""
    action: Literal[1, 2] = 1
    to_hit: Literal[1, 2, 3] = 1
    damage: Literal[2, 3] = 2
    """Damage procedure 1 (titles and severity rolls on Tables 3-16 to 3-21) is only outlined by the text."""


class Options(Section, frozen=True, kw_only=True):
    """Rulings players may set otherwise (docs/rulesets/fivestep.md)."""

    sub_turns: Annotated[int, msgspec.Meta(ge=1, le=50)] = 1
    """Rule F7: cut every turn and its points into this many pieces (1: whole turns; the text suggests 5)."""
    borrowing: bool = False
    """Rule F7: characters whose ``borrows`` is set may borrow points from their next turn at 3:1."""
    grazing: bool = False
    """Rule F10: scale every hit's damage by %UNDER / the figure rolled under."""
    need_under: bool = False
    """Rule F5: the side with the best margin gets surprise only if it rolled under its figure."""
    damage_slows: bool = False
    """Rule F6, procedure 2: add half the damage % instead of subtracting it."""
    at_or_under: bool = False
    """Rule F8, procedures 1 and 2: a roll equal to the chance hits too."""
    over_misses: bool = False
    """Rule F8, procedure 3: a roll at or over the result misses instead of hitting at random."""
    rounding: Literal["half_up", "down", "up"] = "half_up"
    """Rule F10: how fractional damage points are made whole."""
    alertness_rise: Annotated[int, msgspec.Meta(ge=1, le=100)] = 10
    """Rule F5: how much an attack raises the alertness of the side or character attacked."""
    sight_m: Annotated[float, msgspec.Meta(gt=0, le=100000)] | None = None
    """Rule F5: sides farther apart than this have lost sight of each other (None: they never do)."""
    locate_hits: Literal["aimed", "random"] = "aimed"
    """Rule F8: where a hit of procedure 1 or 2 lands: the part aimed at, or a roll on Table 3-3.4."""
    discretion_actions: Annotated[int, msgspec.Meta(ge=1, le=20)] = 2
    """Action procedure 1: the actions the referee allows in a turn, each taking an equal share of 5 s."""
    discretion_move_m: Annotated[float, msgspec.Meta(gt=0, le=100)] = 5.0
    """Action procedure 1: how far one action of moving goes."""
    move_action: str = ""
    """Action procedure 2: the Table 3-6 action that moves a character 1 m (a combatant may override it)."""


class Adversity(Section, frozen=True, kw_only=True):
    """Rule F8 (procedure 3b): a condition of a Table 3-7.x."""

    table: AdversityTableId
    condition: str


class AdversityConditions(Section, frozen=True, kw_only=True):
    """Rule F8 (procedure 3b): which Table 3-7.x conditions apply to an attack."""

    always: list[Adversity] = msgspec.field(default_factory=list)
    """The environment: weather, light, cover the referee rules for the whole fight."""
    attacker_moved: Adversity | None = None
    """Applies when the attacker moved earlier in the same turn."""
    target_moved: Adversity | None = None
    """Applies when the target has moved in the current round."""


class TableFile(Section, frozen=True, kw_only=True):
    """A user-supplied table as a log records it: the path the scenario gave, and the file's text."""

    path: str
    text: str


class Part(Section, frozen=True, kw_only=True):
    """A body part and its damage points (character generation's damage record, rule F11)."""

    name: Annotated[str, msgspec.Meta(min_length=1)]
    points: Annotated[int, msgspec.Meta(ge=1, le=5000)]
    vital: bool = False
    """Without function in a vital part (head, chest, ...) the character is out of the fight (a ruling)."""
    organ_row: str = ""
    """The Table 3-3.1 row its organ damage reads (rule F12), when not its own name ("arm" for "left
    arm"; the chest for a race whose "head" is there)."""


class Side(Section, frozen=True, kw_only=True):
    """A side (rule F2): its Alertness % (surprise procedure 2), whether it passes primary attack, and
    when it joins the fight."""

    id: Identifier
    alertness: Percent = 50
    passes: bool = False
    """Rule F6: with primary attack it passes, and acts last."""
    joins_at: Annotated[int, msgspec.Meta(ge=0, le=86400)] = 0
    """Seconds into the fight when it joins; it is slotted into the order at the next round (F6)."""


class Poison(Section, frozen=True, kw_only=True):
    """A poison or drug a weapon carries (rule F12): its WEP MOD and the organ systems it affects."""

    wep_mod: WepMod
    systems: Annotated[list[OrganSystemName], msgspec.Meta(min_length=1)]


class Weapon(SpecialWeaponTraits, frozen=True, kw_only=True):
    """A weapon or attack from the data sheets: its kind of combat (F1), WEP DIF or ATTACK DIF (F8), its
    DAMAGE DIE ROLL or WEP MOD (F10), its DAMage TYPE (F11) and the Table 3-6 action that uses it (F7)."""

    name: Annotated[str, msgspec.Meta(min_length=1)]
    combat: Literal["hand_to_hand", "weaponry", "grenade"]
    difficulty: Annotated[int, msgspec.Meta(ge=-100, le=200)] = 0
    """WEP DIF (weaponry, grenades) or ATTACK DIF (hand to hand)."""
    damage: str | None = None
    """DAMAGE DIE ROLL "X+Y" (damage procedure 2)."""
    wep_mod: WepMod | None = None
    """WEP MOD (damage procedure 3, Table 3-3)."""
    damage_type: str = ""
    action: str = ""
    """The Table 3-6 action one use costs (action procedure 2)."""
    ammunition: Annotated[int, msgspec.Meta(ge=0, le=100000)] | None = None
    count: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 1
    """Grenades: how many are carried."""
    weight_kg: Annotated[float, msgspec.Meta(gt=0, le=1000)] = 0.5
    """Grenades: the weight read on Table 3-4.0 for the throw's distance."""
    blast_m: Annotated[float, msgspec.Meta(ge=0, le=1000)] = 0.0
    """Grenades: everyone within this many metres of where it lands takes its damage."""
    poison: Poison | None = None
    """A poison or drug it delivers with every hit (rule F12)."""


class Character(SpecialTraits, frozen=True, kw_only=True):
    """One character: its side, place, attributes, body and weapons."""

    id: Identifier
    name: str
    side: Identifier
    position: tuple[Coordinate, Coordinate] = (0.0, 0.0)
    body: str
    """A body of the scenario's ``bodies``."""
    perception: Percent
    alertness: Percent = 50
    """Surprise procedure 3: its own Alertness Condition %."""
    agility: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 55
    aim: Percent = 50
    brawl: Percent = 50
    strength: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 50
    weapons: list[Weapon] = msgspec.field(default_factory=list)
    """At least one, except for a computer (a target of the special_damage module)."""
    aim_at: str = ""
    """The part its attacks aim at (a direct hit lands there); by default its body's first vital part."""
    move_action: str = ""
    exoskeleton: bool = False
    """Aracnians, Fenbin, Sooaacoli: descriptions read bone first (rule F11)."""
    decentralized: list[OrganSystemName] = msgspec.field(default_factory=list)
    """Organ systems spread over the whole body (Aracnian, Eebek: circulatory, respiratory; rule F12)."""
    borrows: bool = False
    """With ``options.borrowing``, it borrows points from its next turn to afford one more attack."""
    controller: str = "nearest"
    """Who declares its steps: ``nearest`` (affray's own), ``external`` (played step by step from
    outside, affray.envs) or a ``package.module:factory`` of a controller from outside affray
    (docs/controllers.md)."""
    priority_targets: list[str] = msgspec.field(default_factory=list)


CONTROLLERS = ("nearest",)
"""The controllers of affray's own a fivestep character may have."""


class FivestepScenario(Section, frozen=True, kw_only=True):
    """A fivestep encounter: procedures, options, tables, bodies, sides and characters in file order."""

    ruleset: Literal["fivestep"]
    seed: Seed
    name: str = ""
    max_seconds: Annotated[int, msgspec.Meta(ge=5, le=86400)] = 600
    dice: Dice = Dice()
    fair_seed: FairSeed | msgspec.UnsetType = msgspec.UNSET
    """Commitments and reveals that give the seed (kernel/fairseed.py); not written when absent."""
    procedures: Procedures = Procedures()
    options: Options = Options()
    adversity: AdversityConditions = AdversityConditions()
    modules: list[Literal["special_damage"]] = msgspec.field(default_factory=list)
    """Add-ons over the ruleset: "special_damage" (seed 001, docs/rulesets/special_damage.md)."""
    special_damage: SpecialDamageOptions = SpecialDamageOptions()
    rulings: list[Ruling] = msgspec.field(default_factory=list)
    tables: dict[str, str | TableFile] = msgspec.field(default_factory=dict)
    """Table id to file path (relative to the scenario file); a log's header holds the files' text."""
    bodies: dict[str, Annotated[list[Part], msgspec.Meta(min_length=1)]]
    sides: list[Side] = msgspec.field(default_factory=list)
    combatants: Annotated[list[Character], msgspec.Meta(min_length=2, max_length=999)]
    orders: Orders = msgspec.UNSET
    """Standing orders from a time on (handlers/orders.py); not written when absent."""


def convert_fivestep(raw: object, source: str) -> FivestepScenario:
    """A decoded mapping made into a checked FivestepScenario; errors name ``source`` and the field path."""
    scenario = convert(raw, FivestepScenario, source)
    _check(scenario, source)
    return scenario


def _check(scenario: FivestepScenario, source: str) -> None:
    check_fighters(scenario.combatants, source)
    _check_characters(scenario, source)
    _check_bodies(scenario, source)
    _check_sides(scenario, source)
    check_special(scenario.combatants, scenario.modules, scenario.rulings, source)
    ids = [c.id for c in scenario.combatants]
    check_rulings(scenario.rulings, ids, source)
    check_orders(given(scenario.orders), ids, CONTROLLERS, source)
    check_controllers([c.controller for c in scenario.combatants], CONTROLLERS, source)
    _check_options(scenario, source)
    check_dice(scenario.dice, source)


def _check_characters(scenario: FivestepScenario, source: str) -> None:
    """Each character has a body of the scenario's, names each weapon once and rolls damage within the
    bounds of any dice."""
    for index, c in enumerate(scenario.combatants):
        path = f"{source}: $.combatants[{index}]"
        if c.body not in scenario.bodies:
            raise ScenarioError(f"{path}.body: no body {excerpt(c.body)!r} in [bodies]")
        names = [w.name.casefold() for w in c.weapons]
        for number, name in enumerate(names):
            if name in names[:number]:
                raise ScenarioError(
                    f"{path}.weapons[{number}].name: {excerpt(c.weapons[number].name)!r} is listed twice"
                )
            damage = c.weapons[number].damage
            if damage is not None:
                _check_damage(damage, f"{path}.weapons[{number}].damage")


def _check_damage(text: str, where: str) -> None:
    """A DAMAGE DIE ROLL "X+Y" (F10) rolls at most MAX_DICE d10 and adds at most MAX_MODIFIER; one that is
    not X+Y at all is the battle's to refuse, when damage procedure 2 reads it."""
    if not _LONG_NUMBER.search(text):
        try:
            roll = parse_damage_die_roll(text)
        except ValueError:
            return
        if dice_needed(roll) <= MAX_DICE and roll.bonus <= MAX_MODIFIER:
            return
    raise ScenarioError(
        f"{where}: damage die roll {excerpt(text)!r}: X is at most {MAX_DICE:,} "
        f"and Y at most {MAX_MODIFIER:,}"
    )


def _check_bodies(scenario: FivestepScenario, source: str) -> None:
    """Each body names each part once and has a vital part (ruling 45)."""
    for name, parts in scenario.bodies.items():
        seen = [p.name.casefold() for p in parts]
        for number, part in enumerate(seen):
            if part in seen[:number]:
                raise ScenarioError(
                    f"{source}: $.bodies.{name}[{number}].name: {excerpt(part)!r} is listed twice"
                )
        if not any(p.vital for p in parts):
            raise ScenarioError(f"{source}: $.bodies.{name}: no part is vital, so nothing could put it out")


def _check_sides(scenario: FivestepScenario, source: str) -> None:
    """Sides listed are sides of combatants, each once, and two of them are there from the start (F6)."""
    sides = {c.side for c in scenario.combatants}
    listed: set[str] = set()
    for index, side in enumerate(scenario.sides):
        if side.id not in sides:
            raise ScenarioError(f"{source}: $.sides[{index}].id: no combatant is on side {side.id!r}")
        if side.id in listed:
            raise ScenarioError(f"{source}: $.sides[{index}].id: side {side.id!r} is listed twice")
        listed.add(side.id)
    late = {side.id for side in scenario.sides if side.joins_at > 0}
    if len(sides - late) < 2:
        raise ScenarioError(
            f"{source}: $.sides: a fight begins with two sides or more; only {len(sides - late)} joins at 0 s"
        )


def _check_options(scenario: FivestepScenario, source: str) -> None:
    """Sub-turns and borrowing count Agility Points, which only action procedure 2 has (F7)."""
    if scenario.options.sub_turns > 1 and scenario.procedures.action == 1:
        raise ScenarioError(
            f"{source}: $.options.sub_turns: sub-turns cut a turn's Agility Points, which action procedure 1 "
            "does not count; choose procedures.action = 2"
        )
    if scenario.options.borrowing and scenario.procedures.action == 1:
        raise ScenarioError(
            f"{source}: $.options.borrowing: borrowing trades Agility Points, which action procedure 1 does "
            "not count; choose procedures.action = 2"
        )


def embed_tables(scenario: FivestepScenario, folder: Path, source: str) -> FivestepScenario:
    """The scenario with every table path replaced by the file's text (paths are relative to ``folder``);
    an unreadable file names the table and the path."""
    tables: dict[str, str | TableFile] = {}
    for table, path in scenario.tables.items():
        if isinstance(path, TableFile):
            tables[table] = path
            continue
        full = Path(path) if Path(path).is_absolute() else folder / path
        named = str(full) if len(path) <= QUOTE_LIMIT else excerpt(path)
        named = named if named.isprintable() else repr(named)
        try:
            data = read_user_file(full, TableError, "a table file", named=named)
            tables[table] = TableFile(path=path, text=data.decode("utf-8"))
        except TableError as exc:
            raise TableError(f"{source}: $.tables.{table}: {exc}") from None
        except UnicodeDecodeError as exc:
            raise TableError(
                f"{source}: $.tables.{table}: {named}: not UTF-8 text (byte {exc.start})"
            ) from None
    return msgspec.structs.replace(scenario, tables=tables)


RULES_ON: dict[Effect, str] = {
    "outcome": "to_hit_resolved",
    "damage": "damage_resolved",
    "modifier": "to_hit_resolved",
    "leaves": "combatant_out",
}
"""The kind of event each effect of a referee's ruling overrules in fivestep."""
