"""Energion close combat (seed 002): martial artists, striking to subdue and grappling procedures.

The procedures table lives in the packaged ``data/grappling.toml``, transcribed as printed (rule E15);
:func:`load_grappling` reads and validates it once. Rulings:

- Avoidance (E15) succeeds on a d100 roll *at or under* the target number (.5 x AG, AG or the parry chance)
  plus the procedure's Mod, which is added to that number (so -20 makes avoiding harder). A target unable
  to react (E24: unaware or unconscious) has no avoidance roll.
- Striking to subdue (E14): the "damage point total" is this blow's full damage plus the damage the target
  has already taken; it knocks out when *greater than* the target's damage points (equal does not). A
  knock-out blow does no further damage (the target is out, not killed); a failed one does half its damage.
- Martial artists (E13): initiative at least 1 s as printed, for martial artists only (E1's 0 s minimum
  stays for everyone else); the damage bonus counts full levels (level 4 gives 0, level 5 gives 1).
"""

from __future__ import annotations

import functools
from decimal import Decimal
from importlib.resources import files
from typing import Annotated, Literal

import msgspec
import msgspec.toml

from affray.rules.energion.formulas import ZERO, tidy
from affray.rules.tabledata import decode_table, find_named, require_unique, table_error

__all__ = [
    "DOUBLE_KICK_RECOVERY_SECONDS",
    "FALL_DIE",
    "GRAPPLING_FILE",
    "HOLD_DOWN_DAMAGE_PER_SECOND",
    "KICK_RECOVERY_SECONDS",
    "MAX_ATTACKS_PER_SECOND",
    "Avoidance",
    "Effect",
    "GrapplingArmor",
    "GrapplingProcedure",
    "GrapplingTable",
    "SubdueResult",
    "avoidance_target",
    "avoided",
    "kick_type",
    "load_grappling",
    "martial_dodge",
    "martial_initiative_minimum",
    "martial_speed_minimum",
    "open_hand_damage_bonus",
    "open_hand_hit_bonus",
    "open_hand_type",
    "parse_grappling",
    "subdue_outcome",
]

GRAPPLING_FILE = "grappling.toml"
"""Packaged data file of the grappling procedures table (rule E15)."""

# --- martial artists (E13) -------------------------------------------------------------------------

martial_speed_minimum = 0
"""Rules E1, E13: a martial artist's speed (gap between attacks) is at least 0 s, others' at least 1 s."""
martial_initiative_minimum = 1
"""Rule E13: a martial artist's initiative is at least 1 s as printed (ruling: E1's 0 s stays for others)."""
open_hand_type = 4
"""Rule E13: open hand attacks are weapon type 4, one handed bludgeon, against armor."""
kick_type = 5
"""Rule E13: kicks are weapon type 5, two handed bludgeon, against armor."""
MAX_ATTACKS_PER_SECOND = 2
"""Rule E13: kick or punch in any second, but at most two attacks in any one second."""
KICK_RECOVERY_SECONDS = 1
"""Rule E13: the second after a kick is recovery: punches only, each needing an AGbonus roll."""
DOUBLE_KICK_RECOVERY_SECONDS = 2
"""Rule E13: a double kick needs two seconds of recovery (and knocks down, E15)."""

# --- grappling (E15) -------------------------------------------------------------------------------

HOLD_DOWN_DAMAGE_PER_SECOND = Decimal("0.5")
"""Rule E15: a successful hold down may inflict 1/2 point per second if desired (holding alone does none)."""
FALL_DIE = "1d10"
"""Rule E15: the damage of an uncontrolled fall of one to three metres, such as in a trip."""

GrapplingArmor = Literal["normal", "ag_luck"]
"""Rule E15: the armor that applies: "normal" or "ag_luck" (agility plus luck, non-tangible armor)."""
Effect = Literal["KD", "Pin", "Disable"]
"""Rule E15: a procedure's effect: KD (knock down), Pin (printed P) or Disable."""
Avoidance = Literal["half_ag", "ag", "parry_roll"]
"""Rule E15: how the target avoids: under .5 x AG, under AG, or a standard parry roll."""
SubdueResult = Literal["knocked_out", "half_damage"]
"""Rule E14: the outcome of a blow struck to subdue."""

_HALF = Decimal("0.5")


class GrapplingProcedure(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Rule E15: one row of the procedures table; ``damage`` and ``note`` are the printed strings."""

    name: str
    armor: GrapplingArmor
    damage: str
    effects: tuple[Effect, ...]
    avoidance: Avoidance
    modifier: int
    recovery_seconds: Annotated[int, msgspec.Meta(ge=0)]
    note: str


class GrapplingTable(msgspec.Struct, frozen=True, kw_only=True):
    """Rule E15: the grappling procedures in printed order."""

    procedures: tuple[GrapplingProcedure, ...]

    def procedure(self, name: str) -> GrapplingProcedure:
        """Return the procedure of that name (case-insensitive); UnknownTableEntry if none (rule E15)."""
        return find_named("grappling procedure", name, self.procedures)


# --- file format -----------------------------------------------------------------------------------


class _GrapplingFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    procedure: list[GrapplingProcedure]


def parse_grappling(text: str | bytes) -> GrapplingTable:
    """Decode and validate a grappling procedures table (rule E15).

    Names must be unique and each procedure must list its effects at most once.
    Raise TableError naming the file and field path of the first problem found.
    """
    data = decode_table(GRAPPLING_FILE, text, _GrapplingFile)
    require_unique(GRAPPLING_FILE, "$.procedure[{}].name", (row.name for row in data.procedure))
    for index, row in enumerate(data.procedure):
        if len(set(row.effects)) != len(row.effects):
            problem = f"an effect is listed twice in {list(row.effects)}"
            raise table_error(GRAPPLING_FILE, f"$.procedure[{index}].effects", problem)
    return GrapplingTable(procedures=tuple(data.procedure))


@functools.cache
def load_grappling() -> GrapplingTable:
    """Read, validate and cache the packaged grappling procedures (rule E15); the result is shared."""
    return parse_grappling((files("affray.rules.energion") / "data" / GRAPPLING_FILE).read_bytes())


# --- rules -----------------------------------------------------------------------------------------


def avoidance_target(
    procedure: GrapplingProcedure, ag: int, parry_chance: Decimal, *, able_to_react: bool = True
) -> Decimal:
    """Rule E15: .5 x AG, AG or the parry chance, plus the Mod (ruling); 0 if unable to react (E24)."""
    if not able_to_react:
        return ZERO
    if procedure.avoidance == "half_ag":
        base = Decimal(ag) * _HALF
    elif procedure.avoidance == "ag":
        base = Decimal(ag)
    else:
        base = parry_chance
    return tidy(base + procedure.modifier)


def avoided(roll: int, target: Decimal) -> bool:
    """Rule E15: the d100 avoidance roll succeeds "under" the target, read as at or under (ruling)."""
    return roll <= target


def subdue_outcome(
    blow_damage: Decimal, damage_points: Decimal, damage_taken: Decimal = ZERO
) -> tuple[SubdueResult, Decimal]:
    """Rule E14: knocked out, dealing 0, if taken + blow > DP (ruling); else half the blow is dealt."""
    if damage_taken + blow_damage > damage_points:
        return "knocked_out", ZERO
    return "half_damage", tidy(blow_damage * _HALF)


def _check_level(level: int) -> None:
    if level < 0:
        raise ValueError(f"a level is 0 or more, got {level}")


def martial_dodge(ag_bonus: Decimal, level: int) -> Decimal:
    """Rule E13: a martial artist's dodge, as per Acrobatics: ``AGbonus/4 + 1%`` per level."""
    _check_level(level)
    return tidy(ag_bonus / 4 + level)


def open_hand_hit_bonus(level: int) -> Decimal:
    """Rule E13: +1% per level to hit with open hand attacks (not added to the level factor)."""
    _check_level(level)
    return Decimal(level)


def open_hand_damage_bonus(level: int) -> Decimal:
    """Rule E13: +1 damage point per 5 full levels with open hand attacks (ruling: level 4 gives 0)."""
    _check_level(level)
    return Decimal(level // 5)
