"""What the special_damage module reads of its host ruleset (rules S1-S9): a landed hit, and a combatant.

An Energion or fivestep battle turns its own attack into a :class:`SpecialHit`, its own combatant into a
:class:`SpecialProfile`, and offers the :class:`SpecialHost` calls that settle what damage does.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from affray.handlers.special_damage.scenario import SpecialDamageOptions, SpecialTraits

if TYPE_CHECKING:
    from affray.kernel.encounter import Encounter


class SpecialHit(msgspec.Struct, frozen=True, kw_only=True):
    """A landed hit as the module reads it, whatever the host: the add-on's skill level (S1), its aim, the
    to-hit roll and chance, the Table 2 weapon type, a Table 1 range modifier, and the part it struck."""

    attacker: str
    target: str
    weapon: str
    weapon_type: str
    electrical: bool = False
    level: int
    aim_rounds: int = 0
    hit_roll: int
    hit_chance: Decimal
    range_modifier: str | None = None
    part: str | None = None
    """The body part struck (fivestep): its Stamina damage goes there."""
    target_aware: bool = True
    """Whether the target knows it is in a fight (Energion: it has reacted; fivestep: it is not surprised),
    so that it may make the RS check of Table 1."""


class SpecialProfile(msgspec.Struct, frozen=True, kw_only=True):
    """What the module reads of a combatant: its scenario traits, size, Reaction Speed and weapons."""

    traits: SpecialTraits
    size_m2: Decimal
    reaction_speed: int
    weapons: tuple[str, ...]


class SpecialHost(Protocol):
    """The battle the module rides on. Its encounter's combatants are module ``Carrier`` states."""

    @property
    def special_options(self) -> SpecialDamageOptions:
        """How the module sits on this host (the scenario's ``special_damage``)."""
        ...

    @property
    def controllers(self) -> Mapping[str, object]:
        """Each combatant's controller (one may pick the equipment it gives up, S3)."""
        ...

    def profile(self, combatant: str) -> SpecialProfile:
        """What the module reads of ``combatant``."""
        ...

    def put_out(self, encounter: Encounter[Any], target_id: str, reason: str) -> None:
        """The target is out."""
        ...

    def after_damage(self, encounter: Encounter[Any], target_id: str) -> None:
        """What damage taken does under the host's rules (out at no points left, say)."""
        ...

    def check_end(self, encounter: Encounter[Any]) -> None:
        """End the encounter when at most one side can fight."""
        ...
