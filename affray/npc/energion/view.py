"""What an Energion controller sees: frozen copies of its own combatant and of those it looks at, its
weapons and spells, and the roster of the field. Nothing in a view is the live state, so a controller can
change the encounter only through the intent it returns."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Literal

import msgspec

from affray.events.base import Position
from affray.events.energion.state import EnergionCombatant
from affray.npc.field import Roster


class Seen(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One Energion combatant as a controller sees it at a moment."""

    id: str
    side: str
    position: Position
    damage_points: Decimal
    damage_left: Decimal
    weapon_ready: bool
    readied: bool
    """Its first weapon has had its battle initiative (a caster may cast before it readies it)."""
    weapon_index: int
    cover: int
    """Percent behind stable cover (E16)."""
    attacked_ms: int | None
    aim_target: str | None
    aim_since_ms: int | None
    course_changed_ms: int | None
    """When its movement last changed (E17: it spoils aim at it)."""
    kicked_ms: int | None
    held_by: str | None
    holding: str | None
    hold: str | None
    knocked_down: bool


def seen(combatant: EnergionCombatant) -> Seen:
    """A frozen copy of what a controller may know of ``combatant``."""
    c = combatant
    return Seen(
        id=c.id,
        side=c.side,
        position=c.position,
        damage_points=c.damage_points,
        damage_left=c.damage_points - c.damage_taken,
        weapon_ready=c.weapon_ready,
        readied=c.readied,
        weapon_index=c.weapon_index,
        cover=c.cover,
        attacked_ms=c.attacked_ms,
        aim_target=c.aim_target,
        aim_since_ms=c.aim_since_ms,
        course_changed_ms=c.course_changed_ms,
        kicked_ms=c.kicked_ms,
        held_by=c.held_by,
        holding=c.holding,
        hold=c.hold,
        knocked_down=c.knocked_down,
    )


class SpellView(msgspec.Struct, frozen=True, kw_only=True):
    """What a combatant knows of one of its spells."""

    index: int
    name: str
    range_m: Decimal
    total_ms: int
    """Preparation (when fixed), initiation and casting: how long it takes at the least."""


class ArmView(msgspec.Struct, frozen=True, kw_only=True):
    """What a combatant knows of one of its weapons."""

    index: int
    name: str
    mode: Literal["melee", "hurled", "missile"]
    reach: Decimal
    ranges: tuple[int, int, int, int, int]
    speed_ms: int
    initiative_ms: int = 0
    """Its modified initiative (E1): grabbing it takes 1 s more (E3)."""
    uses_left: int | None
    """Throws or shots left; None when unlimited (melee, or ammunition not counted)."""
    martial: Literal["punch", "kick"] | None = None

    @property
    def usable(self) -> bool:
        """Whether it can still be used: not thrown away, not out of ammunition."""
        return self.uses_left is None or self.uses_left > 0


def _unseen(combatant: str) -> Seen:
    raise KeyError(combatant)


class View(msgspec.Struct, frozen=True, kw_only=True):
    """What a controller sees at ``now``: itself, its weapons, the roster, and a look at anyone on it."""

    me: Seen
    arms: tuple[ArmView, ...]
    field: Roster
    now: int
    look: Callable[[str], Seen] = _unseen
    """``look(id)``: a frozen copy of that combatant as it is now."""
    spells: tuple[SpellView, ...] = ()
    grapples: tuple[str, ...] = ()
    pace: Decimal = Decimal(0)
    """How far it moves in a second, in metres."""
    priority: tuple[str, ...] = ()
    """Combatants to attack first while they stand (the scenario's ``priority_targets``)."""
    parries: bool = False
    """Whether it has a way to parry or dodge (a shield, a parrying weapon, its own parry, martial arts)."""

    @property
    def arm(self) -> ArmView:
        """The weapon in hand."""
        return self.arms[self.me.weapon_index]
