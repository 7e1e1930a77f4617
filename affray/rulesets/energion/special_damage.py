"""The Energion ruleset as the special_damage module reads its log (docs/rulesets/special_damage.md,
"Mapping onto Energion"): an attack is the hit that may score special damage (S1), its roll made under
the attack's hit chance (E4), and the module's steps cite the rulings that seat it on Energion."""

from __future__ import annotations

from decimal import Decimal

from affray.events.base import Event
from affray.events.energion.kinds import AttackResolved
from affray.events.energion.state import EnergionState
from affray.events.shared import kind_of
from affray.rulesets.special_damage.hosting import HostRulings, SpecialDamageHost


def _hit_chance(hit: Event) -> Decimal | None:
    """E4: the chance an attack's hit roll was made under."""
    return hit.hit.hit_chance if isinstance(hit, AttackResolved) else None


SPECIAL_DAMAGE_HOST = SpecialDamageHost(
    ruleset="energion",
    state=EnergionState,
    rulings=HostRulings(
        level="level = skill % // level_divisor, ruling 1",
        roll="Energion's d100 hit roll, ruling 2",
        stamina="as damage points, ruling 3",
        table_1="ruling 5",
        reaction_speed="RS = AG // rs_divisor, ruling 6",
        table_2="ruling 7",
    ),
    hit_kinds=(kind_of(AttackResolved),),
    hit_chance=_hit_chance,
)
"""What the special_damage module reads of Energion: its attack, and the rulings 1-7 of the add-on over it."""
