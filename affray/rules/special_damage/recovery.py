"""Healing special damage and repairing robots (seed 001), rules S7 and S8.

The times live in the packaged ``data/healing.toml`` and ``data/repair.toml``, transcribed as printed;
:func:`load_healing` and :func:`load_repair` read and validate them once. The functions return dice
expressions and costs; the caller (a handler) rolls them.

RULINGS:

- Which table damage heals as which kind is the ``heals_as`` of each Table 3 row, read from the damage's
  name ("... wound" a wound, "... deeply cut" a deep cut, "... broken" a broken limb, "Head concussion" a
  concussion, "Back wound, leg paralyzed" a back wound). No row is a plain "cut"; the kind is kept.
- "Healing times are not cumulative": each damage heals on its own clock, all started together, so a
  character with a chest wound and a broken leg still needs the leg's 3d10+1 days (the text's "1d10+1
  days" there is read as the broken limb's time: ruling 22 of docs/rulesets/special_damage.md);
  everything is healed when the longest clock ends (:func:`healed_after`), never the sum.
- ``treated`` is the condition of the kind's alternative: a broken limb (and nerve damage) set in a cast or
  splint within 2 hours, a back wound repaired by major surgery. It is required for those kinds and
  ignored for the others.
- The back wound's 200 Credits are charged for the surgery; healing "otherwise" in 3d10 days costs nothing.
- An electrostunner (or other electrical damage) turns a broken limb into nerve damage, before the
  Dralasite rule: a limb that is not broken needs no regrowing. A Dralasite's broken limb heals as a
  "dralasite limb" (3d10 days, same penalties).
- A Vrusk's damaged arm is the left on a 1d10 roll of 1-5, the right on 6-10.
- Robot repair extras add up: a joint count of 2 adds 20 min, and a row with both a hit brain casing and a
  cracked brain casing and body adds 20 min + 1 h. One repair roll is made per damage row.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from decimal import Decimal
from importlib.resources import files
from typing import Annotated, Literal

import msgspec
import msgspec.toml

from affray.errors import TableError
from affray.rules.special_damage.tables import Dice, HealingKindName, RepairKindName, TimeUnit
from affray.rules.tabledata import find_named
from affray.rules.tabledata import table_error as _fail

__all__ = [
    "HEALING_FILE",
    "HEALING_TIMES_CUMULATIVE",
    "REPAIR_FILE",
    "HealingKind",
    "HealingTable",
    "HealingTime",
    "RepairKind",
    "RepairTable",
    "RepairTime",
    "healed_after",
    "healing_kind",
    "healing_time",
    "load_healing",
    "load_repair",
    "parse_healing",
    "parse_repair",
    "repair_time",
    "to_hours",
    "vrusk_arm",
]

HEALING_FILE = "healing.toml"
"""Packaged data file of the healing times (rule S7)."""
REPAIR_FILE = "repair.toml"
"""Packaged data file of the robot repair times (rule S8)."""
HEALING_TIMES_CUMULATIVE = False
"""Rule S7: "Healing times are not cumulative": each damage heals on its own clock (see the rulings)."""

_NonNegative = Annotated[int, msgspec.Meta(ge=0)]
_HOURS_PER = {"minutes": Decimal(1) / 60, "hours": Decimal(1), "days": Decimal(24)}


class _Row(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every table row: immutable, keyword-only, strict about unknown fields."""


class HealingTime(_Row, frozen=True):
    """Rule S7: the time until a damage's penalties are nullified, and what it costs."""

    dice: Dice
    unit: TimeUnit
    after_stamina: bool = False
    rest_hours_per_day: _NonNegative | None = None
    cost_per_day: _NonNegative = 0
    flat_cost: _NonNegative = 0


class HealingKind(_Row, frozen=True):
    """Rule S7: a kind of damage: its normal course (``time``) and, treatment missed, ``otherwise``."""

    name: HealingKindName
    text: str
    time: HealingTime | None = None
    treatment: str | None = None
    otherwise: HealingTime | None = None
    same_as: HealingKindName | None = None


class HealingTable(msgspec.Struct, frozen=True, kw_only=True):
    """Rule S7: the healing kinds in printed order (``same_as`` resolved, so every ``time`` is set)."""

    kinds: tuple[HealingKind, ...]

    def kind(self, name: str) -> HealingKind:
        """The healing kind of that name (case-insensitive); UnknownTableEntry with close matches if none."""
        return find_named("healing kind", name, self.kinds)


class RepairKind(_Row, frozen=True):
    """Rule S8: a kind of robot damage and its repair dice, in minutes."""

    name: RepairKindName
    dice: Dice
    text: str


class RepairTable(_Row, frozen=True):
    """Rule S8: the repair kinds and the minutes added per joint and for the brain casing."""

    robotics_skill_required: bool
    per_joint_minutes: _NonNegative
    brain_casing_hit_minutes: _NonNegative
    brain_and_body_cracked_minutes: _NonNegative
    kinds: tuple[RepairKind, ...] = msgspec.field(name="kind")

    def kind(self, name: str) -> RepairKind:
        """The repair kind of that name (case-insensitive); UnknownTableEntry with close matches if none."""
        return find_named("repair kind", name, self.kinds)


class RepairTime(msgspec.Struct, frozen=True, kw_only=True):
    """Rule S8: roll ``dice`` minutes and add ``extra_minutes``."""

    dice: str
    extra_minutes: int
    unit: Literal["minutes"] = "minutes"


# --- file formats ----------------------------------------------------------------------------------


class _HealingFile(_Row, frozen=True):
    kind: list[HealingKind]


def parse_healing(text: str | bytes) -> HealingTable:
    """Decode and validate the healing times (rule S7); TableError names the file and field path."""
    try:
        rows = msgspec.toml.decode(text, type=_HealingFile).kind
    except msgspec.DecodeError as exc:
        raise TableError(f"{HEALING_FILE}: {exc}") from exc
    done: dict[str, HealingKind] = {}
    for index, row in enumerate(rows):
        path = f"$.kind[{index}]"
        if row.name in done:
            raise _fail(HEALING_FILE, f"{path}.name", f"duplicate name {row.name!r}")
        if row.same_as is not None:
            if row.same_as not in done or row.time is not None:
                problem = (
                    f"`same_as` must name a kind printed before, with no `time` of its own: {row.same_as!r}"
                )
                raise _fail(HEALING_FILE, f"{path}.same_as", problem)
            base = done[row.same_as]
            row = msgspec.structs.replace(
                row, time=base.time, treatment=base.treatment, otherwise=base.otherwise
            )
        if row.time is None:
            raise _fail(HEALING_FILE, f"{path}.time", "expected a time (or `same_as`)")
        if (row.treatment is None) != (row.otherwise is None):
            raise _fail(HEALING_FILE, f"{path}.otherwise", "`treatment` and `otherwise` go together")
        done[row.name] = row
    return HealingTable(kinds=tuple(done.values()))


def parse_repair(text: str | bytes) -> RepairTable:
    """Decode and validate the robot repair times (rule S8); TableError names the file and field path."""
    try:
        table = msgspec.toml.decode(text, type=RepairTable)
    except msgspec.DecodeError as exc:
        raise TableError(f"{REPAIR_FILE}: {exc}") from exc
    names = [k.name for k in table.kinds]
    for index, name in enumerate(names):
        if name in names[:index]:
            raise _fail(REPAIR_FILE, f"$.kind[{index}].name", f"duplicate name {name!r}")
    return table


@functools.cache
def load_healing() -> HealingTable:
    """Read, validate and cache the healing times (rule S7); the result is shared, so never mutate it."""
    return parse_healing((files("affray.rules.special_damage") / "data" / HEALING_FILE).read_bytes())


@functools.cache
def load_repair() -> RepairTable:
    """Read, validate and cache the robot repair times (rule S8); the result is shared."""
    return parse_repair((files("affray.rules.special_damage") / "data" / REPAIR_FILE).read_bytes())


# --- rules -----------------------------------------------------------------------------------------


def healing_time(kind: str, treated: bool | None = None, table: HealingTable | None = None) -> HealingTime:
    """Rule S7: the dice, unit and costs for healing a kind of damage.

    ``treated`` says whether the kind's treatment was given (a limb set within 2 hours, surgery on a back
    wound); it is required for those kinds (ValueError if None) and ignored for the others.
    """
    entry = (table or load_healing()).kind(kind)
    assert entry.time is not None  # resolved by parse_healing
    if entry.otherwise is None:
        return entry.time
    if treated is None:
        raise ValueError(
            f"healing a {entry.name} depends on whether it was {entry.treatment}: pass `treated`"
        )
    return entry.time if treated else entry.otherwise


def healing_kind(
    heals_as: HealingKindName, *, dralasite: bool = False, electrical: bool = False
) -> HealingKindName:
    """Rule S7: the kind a table damage heals as for this victim and weapon.

    An electrostunner (or other electrical damage) makes a broken limb nerve damage; a Dralasite's
    broken limb is a "dralasite limb". Other kinds are unchanged.
    """
    if heals_as != "broken limb":
        return heals_as
    if electrical:
        return "nerve damage"
    return "dralasite limb" if dralasite else "broken limb"


def vrusk_arm(roll_1d10: int) -> Literal["left", "right"]:
    """Rule S7: which arm of a Vrusk is hit: 1-5 the left, 6-10 the right; ValueError outside 1..10."""
    if not 1 <= roll_1d10 <= 10:
        raise ValueError(f"a 1d10 roll is 1..10, got {roll_1d10}")
    return "left" if roll_1d10 <= 5 else "right"


def to_hours(amount: int | Decimal, unit: TimeUnit) -> Decimal:
    """Rule S7: a rolled healing time in hours (a day is 24 hours, so "3 days" is 72)."""
    return Decimal(amount) * _HOURS_PER[unit]


def healed_after(durations_hours: Iterable[Decimal]) -> Decimal:
    """Rule S7: when every damage is healed: the longest clock, not the sum (0 for no damage)."""
    return max(durations_hours, default=Decimal(0))


def repair_time(
    kind: RepairKindName,
    damaged_joints: int = 0,
    brain_casing_hit: bool = False,
    brain_and_body_cracked: bool = False,
    table: RepairTable | None = None,
) -> RepairTime:
    """Rule S8: the repair dice in minutes, plus 10 min per damaged or broken joint, plus 20 min if the brain
    casing was hit, plus 60 min if the brain casing and the body are cracked (all add: a ruling)."""
    if damaged_joints < 0:
        raise ValueError(f"a joint count is 0 or more, got {damaged_joints}")
    repair = table or load_repair()
    extra = damaged_joints * repair.per_joint_minutes
    if brain_casing_hit:
        extra += repair.brain_casing_hit_minutes
    if brain_and_body_cracked:
        extra += repair.brain_and_body_cracked_minutes
    return RepairTime(dice=repair.kind(kind).dice, extra_minutes=extra)
