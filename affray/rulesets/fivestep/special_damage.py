"""The five-step ruleset as the special_damage module reads its log (docs/rulesets/special_damage.md,
"Mapping onto fivestep"): a to-hit and the damage it did are the hit that may score special damage (S1),
its roll made under the to-hit's chance (F8), the Stamina going to the part the damage struck; the
module's steps cite the rulings that seat it on fivestep."""

from __future__ import annotations

from decimal import Decimal

from affray.events.base import Event
from affray.events.fivestep.kinds import DamageResolved, ToHitResolved
from affray.events.fivestep.state import FivestepState
from affray.events.shared import kind_of
from affray.rulesets.special_damage.hosting import HostRulings, SpecialDamageHost


def _hit_chance(hit: Event) -> Decimal | None:
    """F8: the chance a to-hit's d100 was rolled under (None for the damage, and for a to-hit with none)."""
    return hit.chance if isinstance(hit, ToHitResolved) else None


def _hit_reason(hit: Event) -> str | None:
    """F10 (ruling 15): the hit's damage is to the part that takes the Stamina too."""
    if isinstance(hit, DamageResolved):
        return f"the hit's damage to the {hit.part}, which takes the Stamina too"
    return None


SPECIAL_DAMAGE_HOST = SpecialDamageHost(
    ruleset="fivestep",
    state=FivestepState,
    rulings=HostRulings(
        level="level = MARKS or BRAWL // level_divisor, ruling 14",
        roll="fivestep's d100 to hit, ruling 14",
        stamina="to the part struck, ruling 15",
        table_1="ruling 16",
        reaction_speed="RS = Agility // rs_divisor, ruling 16",
        table_2="ruling 17",
    ),
    hit_kinds=(kind_of(ToHitResolved), kind_of(DamageResolved)),
    hit_chance=_hit_chance,
    hit_reason=_hit_reason,
)
"""What the special_damage module reads of fivestep: its to-hit and damage, and the rulings 14-17 of the
add-on over it."""
