"""The special_damage module over Energion: an Energion hit as the module reads it (rules S1, S9).

docs/rulesets/special_damage.md ("Mapping onto Energion") gives the rulings behind each figure.
"""

from __future__ import annotations

from affray.events.energion.kinds import AttackResolved
from affray.handlers.energion.loadout import Arm, Loadout
from affray.handlers.special_damage.host import SpecialHit
from affray.handlers.special_damage.module import TURN_MS

ENERGION_WEAPON_TYPES = {
    1: "Short melee",
    2: "Long melee",
    3: "Long melee",
    4: "Short melee",
    5: "Long melee",
    6: "Short melee",
    7: "Long melee",
    8: "Long melee",
    9: "Long melee",
    10: "Long melee",
    11: "Long melee",
    12: "Long melee",
    13: "Bow or crossbow",
    14: "Bow or crossbow",
    15: "Other thrown weapon",
    16: "Other thrown weapon",
    17: "Fist",
}
"""Table 2's weapon type for each Energion weapon type (E11), unless a weapon names its own."""
RANGE_MODIFIERS = {
    "PTB": "Point blank range",
    "SHT": "Short range",
    "LNG": "Long range",
    "EXT": "Extreme range",
}


def energion_hit(
    event: AttackResolved, attacker: Loadout, arm: Arm, level_divisor: int, target_reacted: bool
) -> SpecialHit:
    """An Energion attack as the module reads it: level = skill // level_divisor; aim beyond the weapon's
    gap in 6 s rounds; the E8 range band as Table 1's range modifier; Table 2's type from the weapon type."""
    shot = event.hit.ranged
    aim_rounds = max(shot.aim_ms - shot.gap_ms, 0) // TURN_MS if shot and not shot.unaimed_penalty else 0
    return SpecialHit(
        attacker=attacker.id,
        target=event.target,
        weapon=arm.weapon.name,
        weapon_type=arm.carried.special_type or ENERGION_WEAPON_TYPES[arm.weapon.type],
        electrical=arm.carried.electrical,
        level=attacker.spec.skill // level_divisor,
        aim_rounds=aim_rounds,
        hit_roll=event.hit.roll.total,
        hit_chance=event.hit.hit_chance,
        range_modifier=RANGE_MODIFIERS.get(shot.band) if shot is not None else None,
        target_aware=target_reacted,
    )
