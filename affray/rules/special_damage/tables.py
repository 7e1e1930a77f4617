"""Special damage tables (seed 001): modifiers, weapon modifiers and the two damage results tables.

The figures live in the packaged ``data/*.toml`` files, transcribed as printed (rules S3, S4, S5, S9);
:func:`load_modifiers`, :func:`load_weapon_modifiers`, :func:`load_living` and :func:`load_robots` read
and validate them once. Look-ups by name ignore case (:func:`affray.rules.tabledata.find_named`).

RULINGS (each also a comment beside the row in the data file):

- Roll ranges: "1 or less" ("1 or lower") is ``low = OR_LESS`` (-1000) and "23+" is ``high = OR_MORE``
  (1000); a total beyond either sentinel still reads the first or last row (rule S2).
- "Abdomen deeply cut" (Table 3) has the effects list's "Abdomen wound" (the only abdomen entry, in the
  row's place in the list); it heals as a deep cut, as the table names it.
- "Shoulder wound *" (Table 3, secondary side) has the effects list's "Primary-side shoulder wound": that
  entry sits between the two arm wounds, where the row sits in the table, and reading the row as a plain
  secondary-side arm wound would make it identical to row 4. The table's side mark is kept as printed.
- "Shoulder deeply cut **" (Table 3) has no entry; it is the primary-side shoulder wound too (same side),
  healing as a deep cut.
- "Arm wound *" / "**" and "Arm broken *" / "**" are the secondary- and primary-side entries.
- "Head removed, body falls apart, target vaporized, etc. (pick one)" is "Dead", whichever is picked.
- "Primary-side shoulder wound", "Primary-side arm broken" and the robots' "Arm joint broken" copy the
  entry they name ("same as") and replace what they restate; "-10% to hit with all other weapons" is a
  ``to_hit`` (rifles cannot be fired at all).
- "Body and brain casing cracked" combines "Body cracked" and "Brain casing cracked": "All damage and
  penalties are cumulative", so the numbers add, chances included (20% + 35% = 55% malfunction, as for a
  broken brain casing), and the stun comes from the cracked brain casing.
- "Stunned for d100+20 minutes" (brain casing cracked) gives no chance: it always happens (100%).
- Robot "Leg damage" spares an alternate movement system (``alternate_movement = 0``); "Leg broken" costs
  it 5 m/turn.
- To-hit and skill figures are percentage points whether printed "-5" or "-5%".
"""

from __future__ import annotations

import functools
from importlib.resources import files
from typing import Annotated, Any, Generic, Literal, TypeVar

import msgspec
import msgspec.toml

from affray.rules.tabledata import decode_table as _decode
from affray.rules.tabledata import find_named, require_unique
from affray.rules.tabledata import table_error as _fail

__all__ = [
    "LIVING_FILE",
    "MODIFIERS_FILE",
    "OR_LESS",
    "OR_MORE",
    "ROBOTS_FILE",
    "WEAPON_MODIFIERS_FILE",
    "DamageTable",
    "Dice",
    "Effect",
    "Explosion",
    "HealingKindName",
    "LivingRow",
    "Modifier",
    "ModifierTable",
    "RepairKindName",
    "RobotRow",
    "Side",
    "TargetKind",
    "TimeUnit",
    "WeaponModifier",
    "WeaponModifierTable",
    "load_living",
    "load_modifiers",
    "load_robots",
    "load_weapon_modifiers",
    "parse_living",
    "parse_modifiers",
    "parse_robots",
    "parse_weapon_modifiers",
]

MODIFIERS_FILE = "modifiers.toml"
"""Packaged data file of Table 1, special damage modifiers (rule S9)."""
WEAPON_MODIFIERS_FILE = "weapon_modifiers.toml"
"""Packaged data file of Table 2, weapon modifiers (rule S9)."""
LIVING_FILE = "living.toml"
"""Packaged data file of Table 3 and its effects, living beings (rules S3, S4)."""
ROBOTS_FILE = "robots.toml"
"""Packaged data file of Table 4 and its effects, robots (rules S5, S8)."""

OR_LESS = -1000
"""Rules S3/S5: the ``low`` of the first row, printed "1 or less": a sentinel meaning "or less"."""
OR_MORE = 1000
"""Rules S3/S5: the ``high`` of the last row, printed "23+": a sentinel meaning "or more"."""

Dice = Annotated[str, msgspec.Meta(pattern=r"^[1-9][0-9]*d[1-9][0-9]*(\+[1-9][0-9]*)?$")]
"""A dice expression as the text prints it, normalised to ``NdF`` or ``NdF+M`` ("d100" is "1d100")."""
Side = Literal["secondary", "primary"]
"""Rule S3: * is the secondary side (the left of a right-handed person), ** the primary side."""
TimeUnit = Literal["minutes", "hours", "days"]
TargetKind = Literal["robot", "computer"]
"""Rule S9: the kinds of target the Robotics/Computer skill row counts against."""
HealingKindName = Literal[
    "wound", "cut", "deep cut", "broken limb", "concussion", "back wound", "dralasite limb", "nerve damage"
]
"""Rule S7: the kinds of damage the text gives healing times for."""
RepairKindName = Literal["damage", "broken part", "cracked"]
"""Rule S8: the kinds of robot damage the text gives repair times for."""

_Percent = Annotated[int, msgspec.Meta(ge=0, le=100)]


class _Row(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every table row: immutable, keyword-only, strict about unknown fields."""


# --- Tables 1 and 2 (S9) ---------------------------------------------------------------------------


class Modifier(_Row, frozen=True):
    """Rule S9: one row of Table 1; ``per`` and ``max`` for the counted rows, ``once`` for moving target."""

    reason: str
    modifier: int
    per: str | None = None
    max: int | None = None
    applies_to: tuple[TargetKind, ...] = ()
    once: bool = False
    footnote: str = ""

    @property
    def name(self) -> str:
        """The reason, so rows can be found by name."""
        return self.reason

    def contribution(self, count: int = 1) -> int:
        """Rule S9: the row's total for ``count`` units (rounds, levels, 5 SEU), capped at ``max``.

        A row without ``per`` (and the ``once`` row) counts at most once, whatever ``count``; 0 gives 0.
        """
        if count < 0:
            raise ValueError(f"a count is 0 or more, got {count}")
        if self.per is None or self.once:
            count = min(count, 1)
        value = self.modifier * count
        return value if self.max is None else min(value, self.max)

    def applies(self, target: Literal["living", "robot", "computer"]) -> bool:
        """Rule S9: whether the row counts against that kind of target (``applies_to`` empty: all)."""
        return not self.applies_to or target in self.applies_to


class ModifierTable(msgspec.Struct, frozen=True, kw_only=True):
    """Rule S9: Table 1 in printed order."""

    modifiers: tuple[Modifier, ...]

    def named(self, reason: str) -> Modifier:
        """The row of that reason (case-insensitive); UnknownTableEntry with close matches if none."""
        return find_named("special damage modifier", reason, self.modifiers)


class WeaponModifier(_Row, frozen=True):
    """Rule S9: one row of Table 2, with its footnote's examples or grenade restriction."""

    name: str
    modifier: int
    examples: tuple[str, ...] = ()
    only: tuple[str, ...] = ()
    counts_as: str | None = None
    footnote: str = ""


class WeaponModifierTable(msgspec.Struct, frozen=True, kw_only=True):
    """Rule S9: Table 2 in printed order."""

    weapons: tuple[WeaponModifier, ...]

    def named(self, name: str) -> WeaponModifier:
        """The weapon type of that name (case-insensitive); UnknownTableEntry with close matches if none."""
        return find_named("weapon type", name, self.weapons)


# --- Tables 3 and 4 (S3, S4, S5) -------------------------------------------------------------------


class Explosion(_Row, frozen=True):
    """Rules S5/S6: damage dice to everyone within ``radius_m`` meters, with a ``defense`` check (RS)."""

    dice: Dice
    radius_m: int
    defense: Literal["RS"]


class Effect(_Row, frozen=True):
    """Rules S4/S5: one entry of a "Special Damage Effects" list, as structured data.

    Every field is optional: None (or False, or empty) means the sentence does not say it. to_hit,
    rifle_to_hit and skills are percentage points; movement and alternate_movement are meters per turn;
    movement_max caps movement ("Only 2 meters/turn"); the ``*_chance`` fields are percent.
    """

    name: str
    text: str
    same_as: str | None = None
    combines: tuple[str, ...] = ()
    to_hit: int | None = None
    rifle_to_hit: int | None = None
    no_rifles: bool = False
    one_weapon_only: bool = False
    skills: int | None = None
    skills_named: tuple[str, ...] = ()
    int_log: int | None = None
    dex_rs: int | None = None
    movement: int | None = None
    movement_max: int | None = None
    carry_kg: int | None = None
    unconscious_chance: _Percent | None = None
    unconscious: Dice | None = None
    unconscious_unit: TimeUnit | None = None
    dead: bool = False
    attacker_picks_arm: bool = False
    that_arm_only: bool = False
    arm_cannot_fire: bool = False
    stun_chance: _Percent | None = None
    stun: Dice | None = None
    stun_unit: TimeUnit | None = None
    deactivation_chance: _Percent | None = None
    deactivated: bool = False
    malfunction_chance: _Percent | None = None
    repair_penalty: int | None = None
    melee_damage: int | None = None
    no_melee: bool = False
    cannot_move: bool = False
    alternate_movement: int | None = None
    explosion: Explosion | None = None
    unrepairable: bool = False


class _DamageRow(_Row, frozen=True):
    low: int
    high: int
    stamina: Annotated[int, msgspec.Meta(ge=0)]
    damage: str
    equipment: Annotated[int, msgspec.Meta(ge=0)]
    effect: str | None = None

    def covers(self, total: int) -> bool:
        """Whether a modified roll falls in this row's range."""
        return self.low <= total <= self.high


class LivingRow(_DamageRow, frozen=True):
    """Rule S3: one row of Table 3; ``heals_as`` names its healing kind (rule S7)."""

    side: Side | None = None
    heals_as: HealingKindName | None = None


class RobotRow(_DamageRow, frozen=True):
    """Rule S5: one row of Table 4, with what its repair needs (rule S8)."""

    repair: RepairKindName | None = None
    joints: Annotated[int, msgspec.Meta(ge=0)] = 0
    brain_casing_hit: bool = False
    brain_and_body_cracked: bool = False


_R = TypeVar("_R", bound=_DamageRow)


class DamageTable(msgspec.Struct, Generic[_R], frozen=True, kw_only=True):
    """Rules S3-S5: a damage results table in printed order and its effects list (resolved)."""

    rows: tuple[_R, ...]
    effects: tuple[Effect, ...]

    def row_for(self, total: int) -> _R:
        """Rule S2: the row a modified roll reads; below the first row the first, above the last the last."""
        if total < self.rows[0].low:
            return self.rows[0]
        for row in self.rows:
            if row.covers(total):
                return row
        return self.rows[-1]

    def effect_named(self, name: str) -> Effect:
        """The effect entry of that name (case-insensitive); UnknownTableEntry if none."""
        return find_named("special damage effect", name, self.effects)

    def effect_of(self, row: _R) -> Effect | None:
        """The effect entry a row maps to (see the rulings), or None for the "None" row."""
        return None if row.effect is None else self.effect_named(row.effect)


# --- file formats ----------------------------------------------------------------------------------


class _ModifiersFile(_Row, frozen=True):
    modifier: list[Modifier]


class _WeaponModifiersFile(_Row, frozen=True):
    weapon: list[WeaponModifier]


class _LivingFile(_Row, frozen=True):
    row: list[LivingRow]
    effect: list[Effect]


class _RobotsFile(_Row, frozen=True):
    row: list[RobotRow]
    effect: list[Effect]


def parse_modifiers(text: str | bytes) -> ModifierTable:
    """Decode and validate Table 1 (rule S9); TableError names the file and field path of a problem."""
    rows = _decode(MODIFIERS_FILE, text, _ModifiersFile).modifier
    require_unique(MODIFIERS_FILE, "$.modifier[{}].reason", (m.reason for m in rows))
    for index, row in enumerate(rows):
        if row.max is not None and row.per is None:
            raise _fail(MODIFIERS_FILE, f"$.modifier[{index}].max", "a max needs a `per`")
    return ModifierTable(modifiers=tuple(rows))


def parse_weapon_modifiers(text: str | bytes) -> WeaponModifierTable:
    """Decode and validate Table 2 (rule S9); TableError names the file and field path of a problem."""
    rows = _decode(WEAPON_MODIFIERS_FILE, text, _WeaponModifiersFile).weapon
    require_unique(WEAPON_MODIFIERS_FILE, "$.weapon[{}].name", (w.name for w in rows))
    return WeaponModifierTable(weapons=tuple(rows))


_NOT_COPIED = frozenset({"name", "text", "same_as", "combines"})


def _is_set(value: Any) -> bool:
    return value is not None and value is not False and value != ()


def _combined(source: str, path: str, field: str, values: list[Any]) -> Any:
    present = [v for v in values if _is_set(v)]
    if not present:
        return values[0]
    if isinstance(present[0], bool):
        return True
    if isinstance(present[0], int):
        return sum(present)
    if isinstance(present[0], tuple):
        return tuple(dict.fromkeys(item for v in present for item in v))
    if len(set(present)) > 1:
        raise _fail(source, f"{path}.combines", f"the combined entries disagree on {field}: {present}")
    return present[0]


def _resolve(source: str, effects: list[Effect]) -> tuple[Effect, ...]:
    """Resolve ``same_as`` and ``combines``; each must name an entry printed earlier."""
    require_unique(source, "$.effect[{}].name", (e.name for e in effects))
    done: dict[str, Effect] = {}
    for index, entry in enumerate(effects):
        resolved = _resolved(source, f"$.effect[{index}]", entry, done)
        done[resolved.name.strip().casefold()] = resolved
    return tuple(done.values())


def _resolved(source: str, path: str, entry: Effect, done: dict[str, Effect]) -> Effect:
    """One effect with what it takes from the earlier ones it is the same as, or combines."""

    def earlier(name: str, field: str) -> Effect:
        try:
            return done[name.strip().casefold()]
        except KeyError:
            raise _fail(source, f"{path}.{field}", f"{name!r} is not an effect printed before") from None

    own = msgspec.structs.asdict(entry)
    if entry.same_as is not None and entry.combines:
        raise _fail(source, path, "an effect has either `same_as` or `combines`, not both")
    if entry.same_as is not None:
        base = msgspec.structs.asdict(earlier(entry.same_as, "same_as"))
        fields = {k: (own[k] if _is_set(own[k]) else base[k]) for k in own if k not in _NOT_COPIED}
        return msgspec.structs.replace(entry, **fields)
    if not entry.combines:
        return entry
    if any(_is_set(own[k]) for k in own if k not in _NOT_COPIED):
        raise _fail(source, path, "an effect that `combines` others has no fields of its own")
    parts = [msgspec.structs.asdict(earlier(n, "combines")) for n in entry.combines]
    fields = {k: _combined(source, path, k, [p[k] for p in parts]) for k in own if k not in _NOT_COPIED}
    return msgspec.structs.replace(entry, **fields)


def _check_rows(source: str, rows: list[_R], effects: tuple[Effect, ...]) -> None:
    if not rows:
        raise _fail(source, "$.row", "expected at least one row")
    names = {e.name.strip().casefold() for e in effects}
    expected_low = OR_LESS
    for index, row in enumerate(rows):
        path = f"$.row[{index}]"
        if row.low != expected_low:
            raise _fail(source, f"{path}.low", f"expected {expected_low} (rows cover {OR_LESS}..{OR_MORE})")
        if row.high < row.low:
            raise _fail(source, f"{path}.high", f"high {row.high} is below low {row.low}")
        if row.effect is not None and row.effect.strip().casefold() not in names:
            raise _fail(source, f"{path}.effect", f"no effect named {row.effect!r}")
        expected_low = row.high + 1
    if rows[-1].high != OR_MORE:
        raise _fail(source, f"$.row[{len(rows) - 1}].high", f"the last row must end at {OR_MORE}")


def parse_living(text: str | bytes) -> DamageTable[LivingRow]:
    """Decode and validate Table 3 and its effects (rules S3, S4); TableError names file and path."""
    data = _decode(LIVING_FILE, text, _LivingFile)
    effects = _resolve(LIVING_FILE, data.effect)
    _check_rows(LIVING_FILE, data.row, effects)
    return DamageTable(rows=tuple(data.row), effects=effects)


def parse_robots(text: str | bytes) -> DamageTable[RobotRow]:
    """Decode and validate Table 4 and its effects (rule S5); TableError names file and path."""
    data = _decode(ROBOTS_FILE, text, _RobotsFile)
    effects = _resolve(ROBOTS_FILE, data.effect)
    _check_rows(ROBOTS_FILE, data.row, effects)
    return DamageTable(rows=tuple(data.row), effects=effects)


def _read(name: str) -> bytes:
    return (files("affray.rules.special_damage") / "data" / name).read_bytes()


@functools.cache
def load_modifiers() -> ModifierTable:
    """Read, validate and cache Table 1 (rule S9); the result is shared, so never mutate it."""
    return parse_modifiers(_read(MODIFIERS_FILE))


@functools.cache
def load_weapon_modifiers() -> WeaponModifierTable:
    """Read, validate and cache Table 2 (rule S9); the result is shared, so never mutate it."""
    return parse_weapon_modifiers(_read(WEAPON_MODIFIERS_FILE))


@functools.cache
def load_living() -> DamageTable[LivingRow]:
    """Read, validate and cache Table 3 and its effects (rules S3, S4); the result is shared."""
    return parse_living(_read(LIVING_FILE))


@functools.cache
def load_robots() -> DamageTable[RobotRow]:
    """Read, validate and cache Table 4 and its effects (rule S5); the result is shared."""
    return parse_robots(_read(ROBOTS_FILE))
