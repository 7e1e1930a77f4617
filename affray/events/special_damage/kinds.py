"""The special_damage module's events (seed 001): special damage, conditions, losses, explosions, rulings,
and the aftermath's healing and repair (rules S1-S10)."""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar, Literal

import msgspec
from msgspec import UNSET, UnsetType

from affray.events.base import ActorId, CombatantId, Event, Roll


class SpecialModifier(msgspec.Struct, frozen=True, gc=False):
    """One modifier to the special damage roll (rule S9), and why."""

    reason: str
    value: int


class Injury(msgspec.Struct, frozen=True, kw_only=True, gc=False, omit_defaults=True):
    """What a special damage does to later rolls (rules S4, S5), in the host's units.

    Movement is in metres per second (the add-on's metres per turn over a 6 s turn); the skill, INT/LOG,
    DEX/RS and carrying penalties are kept for the referee and shown by ``affray state``.
    """

    name: str
    to_hit: int = 0
    movement: Decimal = Decimal(0)
    movement_max: Decimal | None = None
    cannot_move: bool = False
    skills: int = 0
    int_log: int = 0
    dex_rs: int = 0
    carry_kg: int = 0
    no_rifles: bool = False
    one_weapon_only: bool = False
    no_melee: bool = False
    melee_damage: int = 0
    malfunction_chance: int = 0
    repair_penalty: int = 0
    heals_as: str | None = None
    """How it heals (rule S7) or, for a robot, how it is repaired (rule S8)."""
    joints: int = 0
    brain_casing_hit: bool = False
    brain_and_body_cracked: bool = False


class SpecialDamage(Event, frozen=True, kw_only=True, tag="special_damage"):
    """A hit scored special damage (rules S1-S5): the chance, the type roll and its modifiers, the table
    row, and the injury it leaves."""

    attacker: ActorId
    target: CombatantId
    weapon: str
    skill_level: int
    aim_rounds: int
    chance: int
    hit_roll: int
    type_roll: Roll
    modifiers: tuple[SpecialModifier, ...]
    total: int
    table: Literal["living", "robot"]
    damage: str
    stamina: Decimal
    equipment: int
    injury: Injury | None = None
    dead: bool = False
    part: str | UnsetType = UNSET
    """Fivestep: the body part the hit struck, which takes the Stamina damage (left out under Energion)."""


class ConditionStarted(Event, frozen=True, kw_only=True, tag="condition_started"):
    """A special damage left its target unconscious, stunned or deactivated (rules S4, S5)."""

    MOVES_THE_FIELD: ClassVar[bool] = True

    combatant: ActorId
    condition: Literal["unconscious", "stunned", "deactivated"]
    cause: str
    chance: int | None = None
    chance_roll: Roll | None = None
    duration: Roll | None = None
    until_ms: int | None = None
    """None: for good (deactivation)."""


class ConditionEnded(Event, frozen=True, kw_only=True, tag="condition_ended"):
    """A timed condition is over: the combatant wakes or its systems restart."""

    MOVES_THE_FIELD: ClassVar[bool] = True

    combatant: ActorId
    condition: Literal["unconscious", "stunned"]


class LostItem(msgspec.Struct, frozen=True, gc=False):
    """Units of one piece of equipment destroyed (rule S3)."""

    name: str
    units: int


class EquipmentLost(Event, frozen=True, kw_only=True, tag="equipment_lost"):
    """Special damage destroyed equipment, or (one time in ten) a weapon instead (rule S3)."""

    combatant: ActorId
    weapon_roll: Roll
    weapon: str | None = None
    items: tuple[LostItem, ...] = ()


class ProgramsDestroyed(Event, frozen=True, kw_only=True, tag="programs_destroyed"):
    """Special damage to a computer (rule S6): programs lost lowest level first, alarms, explosion."""

    computer: ActorId
    total: int
    destroyed: tuple[str, ...]
    remaining: tuple[str, ...]
    alarms: tuple[str, ...] = ()
    explodes: bool = False
    type_roll: Roll | None = None
    """The special damage roll (1d10) whose total, with ``modifiers``, is ``total``."""
    modifiers: tuple[SpecialModifier, ...] = ()


class BlastHit(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One combatant caught in an explosion, with its Reaction Speed check (rules S5, S6)."""

    combatant: ActorId
    distance: Decimal
    rs_target: int
    rs_roll: Roll
    halved: bool
    damage: Decimal


class Exploded(Event, frozen=True, kw_only=True, tag="exploded"):
    """A robot or computer exploded (rules S5, S6), damaging everyone within the radius."""

    source: str
    roll: Roll
    radius_m: int
    hits: tuple[BlastHit, ...]


class RefereeRuling(Event, frozen=True, kw_only=True, tag="referee_ruling"):
    """The referee altered a special damage (rule S10); the record keeps what was rolled and why."""

    target: CombatantId
    nth: int
    rolled: str
    ruled: str
    stamina_rolled: Decimal
    stamina_ruled: Decimal
    reason: str


class AftermathStarted(Event, frozen=True, kw_only=True, tag="aftermath_started"):
    """The fight is over and the clock runs on for healing and repairs (rules S7, S8)."""

    days: int
    limbs_set_in_time: bool
    restored: tuple[str, ...] = ()
    """The living survivors whose damage points are taken as healed as it begins (ruling 21); a log written
    before affray listed them holds none, and folds as it did then."""


class HealingScheduled(Event, frozen=True, kw_only=True, tag="healing_scheduled"):
    """How long one injury takes to heal (rule S7) or to repair (rule S8), and what it costs."""

    combatant: ActorId
    injury: str
    heals_as: str
    roll: Roll
    extra_minutes: int = 0
    ready_ms: int
    cost: int = 0
    note: str = ""


class Healed(Event, frozen=True, kw_only=True, tag="healed"):
    """An injury's penalties are nullified: it has healed, or the robot is repaired."""

    combatant: ActorId
    injury: str


class NotHealed(Event, frozen=True, kw_only=True, tag="not_healed"):
    """An injury that cannot heal or be repaired here, and why."""

    combatant: ActorId
    injury: str
    reason: str


class AftermathEnded(Event, frozen=True, kw_only=True, tag="aftermath_ended"):
    """The aftermath's days have passed."""

    days: int
