"""Energion equipment tables (seed 002): armor, weapons, weapon types and shields.

The figures live in the packaged ``data/*.toml`` files, transcribed as printed (rules E5, E9,
E10, E11, E12). :func:`load_tables` reads and validates them once and returns
:class:`EnergionTables`.
"""

import functools
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

import msgspec
import msgspec.toml

from affray.errors import TableError, UnknownTableEntry
from affray.names import name_key
from affray.rules.tabledata import decode_table as _decode
from affray.rules.tabledata import find_named, require_unique
from affray.rules.tabledata import table_error as _fail

__all__ = [
    "ARMOR_FILE",
    "SHIELDS_FILE",
    "WEAPONS_FILE",
    "WEAPON_TYPES_FILE",
    "WEAPON_TYPE_COUNT",
    "Armor",
    "EnergionTables",
    "Shield",
    "TrainingClass",
    "Weapon",
    "WeaponType",
    "load_tables",
    "parse_tables",
]

ARMOR_FILE = "armor.toml"
"""Packaged data file of the armor chart (rule E9)."""
WEAPONS_FILE = "weapons.toml"
"""Packaged data file of the weapon chart and training costs (rules E10, E12)."""
WEAPON_TYPES_FILE = "weapon_types.toml"
"""Packaged data file of the weapon types (rule E11)."""
SHIELDS_FILE = "shields.toml"
"""Packaged data file of the shields table (rule E5)."""

WEAPON_TYPE_COUNT = 17
"""Energion weapons are divided into 17 types, numbered from 1 (rule E11)."""


class _Row(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every table row: immutable, keyword-only, strict about unknown fields."""


class Armor(_Row, frozen=True):
    """One armor column of the armor chart (rule E9)."""

    name: str
    values: tuple[int, ...]
    weight: float
    encumbrance_factor: float
    damage: int
    maneuver_factor: float

    def value_against(self, weapon_type: int) -> int:
        """Return the armor value against a weapon type (1..17)."""
        if not 1 <= weapon_type <= len(self.values):
            raise UnknownTableEntry(
                f"weapon type {weapon_type} is not in the armor chart "
                f"(types 1..{len(self.values)}) for {self.name!r}"
            )
        return self.values[weapon_type - 1]


class Weapon(_Row, frozen=True):
    """One weapon row of the weapon chart, as printed for its training class (rule E10)."""

    name: str
    training_class: str
    type: int
    hands: int
    mechanical: bool
    initiative: int
    speed: int
    ranges: tuple[int, int, int, int, int]
    damage: int
    parry: int
    note: str = ""

    @property
    def reach_m(self) -> int:
        """Return the point-blank range (PTB) in metres: the weapon's melee reach."""
        return self.ranges[0]

    @property
    def two_handed(self) -> bool:
        """Return whether the chart lists two or more hands for the weapon."""
        return self.hands >= 2


class TrainingClass(_Row, frozen=True):
    """A weapon training class with its training point cost and weapons (rules E10, E12)."""

    name: str
    training_cost: int
    weapons: tuple[Weapon, ...]


class WeaponType(_Row, frozen=True):
    """A weapon type for armor resistance (rule E11)."""

    number: int
    name: str
    note: str


class Shield(_Row, frozen=True):
    """A shield size: parry bonus in percent and speed in seconds (rule E5)."""

    name: str
    parry: int
    speed: int


class EnergionTables(msgspec.Struct, frozen=True, kw_only=True):
    """All Energion equipment tables, validated; look entries up by name."""

    armor: dict[str, Armor]
    classes: tuple[TrainingClass, ...]
    weapon_types: dict[int, WeaponType]
    shields: dict[str, Shield]
    force_field_shield_speed: int

    def armor_named(self, name: str) -> Armor:
        """Return the armor of that name (case-insensitive); raise UnknownTableEntry if none."""
        return find_named("armor", name, self.armor.values())

    def training_class(self, name: str) -> TrainingClass:
        """Return the training class of that name (case-insensitive); raise UnknownTableEntry if none."""
        return find_named("training class", name, self.classes)

    def weapon(self, name: str, training_class: str | None = None) -> Weapon:
        """Return the weapon of that name (case-insensitive).

        Without ``training_class`` the row of the first class in chart order that lists the
        name is returned; with it (also case-insensitive), the row printed under that class.
        Raise UnknownTableEntry, naming close matches, when there is no such row.
        """
        if training_class is None:
            return find_named("weapon", name, self._all_weapons())
        cls = self.training_class(training_class)
        listed_in = [
            c.name for c in self.classes if any(name_key(w.name) == name_key(name) for w in c.weapons)
        ]
        where = f" in training class {cls.name!r}"
        if listed_in:
            where += f" (listed in: {', '.join(map(repr, listed_in))})"
        return find_named("weapon", name, cls.weapons, where=where)

    def shield(self, name: str) -> Shield:
        """Return the shield of that name (case-insensitive); raise UnknownTableEntry if none."""
        return find_named("shield", name, self.shields.values())

    def _all_weapons(self) -> list[Weapon]:
        return [w for cls in self.classes for w in cls.weapons]


# --- file formats -------------------------------------------------------------------------


class _ArmorFile(_Row, frozen=True):
    armor: list[Armor]


class _WeaponRow(_Row, frozen=True):
    name: str
    type: int
    hands: int
    mechanical: bool
    initiative: int
    speed: int
    ranges: tuple[int, int, int, int, int]
    damage: int
    parry: int
    note: str = ""


class _ClassRow(_Row, frozen=True):
    name: str
    training_cost: int
    weapons: list[_WeaponRow]


class _WeaponsFile(_Row, frozen=True):
    classes: list[_ClassRow] = msgspec.field(name="class")


class _WeaponTypesFile(_Row, frozen=True):
    types: list[WeaponType] = msgspec.field(name="type")


class _ShieldsFile(_Row, frozen=True):
    force_field_speed: int
    shield: list[Shield]


def _check_type(source: str, path: str, number: int) -> None:
    if not 1 <= number <= WEAPON_TYPE_COUNT:
        raise _fail(source, path, f"weapon type {number} is outside 1..{WEAPON_TYPE_COUNT}")


def _parse_armor(text: str | bytes) -> dict[str, Armor]:
    rows = _decode(ARMOR_FILE, text, _ArmorFile).armor
    for index, armor in enumerate(rows):
        if len(armor.values) != WEAPON_TYPE_COUNT:
            raise _fail(
                ARMOR_FILE,
                f"$.armor[{index}].values",
                f"expected {WEAPON_TYPE_COUNT} armor values, got {len(armor.values)}",
            )
    require_unique(ARMOR_FILE, "$.armor[{}].name", (a.name for a in rows))
    return {a.name: a for a in rows}


def _parse_classes(text: str | bytes) -> tuple[TrainingClass, ...]:
    rows = _decode(WEAPONS_FILE, text, _WeaponsFile).classes
    require_unique(WEAPONS_FILE, "$.class[{}].name", (c.name for c in rows))
    classes: list[TrainingClass] = []
    for c_index, row in enumerate(rows):
        require_unique(WEAPONS_FILE, f"$.class[{c_index}].weapons[{{}}].name", (w.name for w in row.weapons))
        weapons: list[Weapon] = []
        for w_index, weapon in enumerate(row.weapons):
            path = f"$.class[{c_index}].weapons[{w_index}]"
            _check_type(WEAPONS_FILE, f"{path}.type", weapon.type)
            fields: dict[str, Any] = msgspec.structs.asdict(weapon)
            weapons.append(Weapon(training_class=row.name, **fields))
        classes.append(TrainingClass(name=row.name, training_cost=row.training_cost, weapons=tuple(weapons)))
    return tuple(classes)


def _parse_weapon_types(text: str | bytes) -> dict[int, WeaponType]:
    rows = _decode(WEAPON_TYPES_FILE, text, _WeaponTypesFile).types
    types: dict[int, WeaponType] = {}
    for index, row in enumerate(rows):
        path = f"$.type[{index}].number"
        _check_type(WEAPON_TYPES_FILE, path, row.number)
        if row.number in types:
            raise _fail(WEAPON_TYPES_FILE, path, f"duplicate weapon type {row.number}")
        types[row.number] = row
    return types


def _parse_shields(text: str | bytes) -> tuple[dict[str, Shield], int]:
    data = _decode(SHIELDS_FILE, text, _ShieldsFile)
    require_unique(SHIELDS_FILE, "$.shield[{}].name", (s.name for s in data.shield))
    return {s.name: s for s in data.shield}, data.force_field_speed


def parse_tables(texts: Mapping[str, str | bytes]) -> EnergionTables:
    """Decode and validate the four table files, given by file name (e.g. ``"armor.toml"``).

    Raise TableError naming the file and field path of the first problem found.
    """
    missing = [
        name for name in (ARMOR_FILE, WEAPONS_FILE, WEAPON_TYPES_FILE, SHIELDS_FILE) if name not in texts
    ]
    if missing:
        raise TableError(f"missing table files: {', '.join(missing)}")
    shields, force_field_speed = _parse_shields(texts[SHIELDS_FILE])
    return EnergionTables(
        armor=_parse_armor(texts[ARMOR_FILE]),
        classes=_parse_classes(texts[WEAPONS_FILE]),
        weapon_types=_parse_weapon_types(texts[WEAPON_TYPES_FILE]),
        shields=shields,
        force_field_shield_speed=force_field_speed,
    )


@functools.cache
def load_tables() -> EnergionTables:
    """Read, validate and cache the packaged tables; the result is shared, so never mutate it."""
    data = files("affray.rules.energion") / "data"
    names = (ARMOR_FILE, WEAPONS_FILE, WEAPON_TYPES_FILE, SHIELDS_FILE)
    return parse_tables({name: (data / name).read_bytes() for name in names})
