"""The Energion ruleset's event kinds (seed 002, rules E1-E24): one frozen Struct per kind.

Outcome events carry their derivation (inputs, modifiers, table values, rolls) so that a replay can explain
them without re-running any rule.
"""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar, Literal

import msgspec

from affray.events.base import ActorId, CombatantId, Event, Roll
from affray.events.energion.intents import Intent
from affray.events.shared import CombatantJoined as Joined
from affray.events.shared import Score

Readiness = Literal["in_hand", "at_hand", "unready"]
Outcome = Literal["hit", "miss", "parried"]
RangeBand = Literal["PTB", "SHT", "MED", "LNG", "EXT"]


class CombatantJoined(Joined, frozen=True, kw_only=True, tag="combatant_joined", omit_defaults=True):
    """An Energion combatant enters the encounter with everything the fold needs to know about it."""

    weapon: str
    armor: str
    shield: str | None = None
    cover: int = 0
    body: Literal["living", "robot", "computer"] = "living"
    """What special damage does to it (its scenario ``kind``): a living being, a robot or a computer."""
    perception_roll: Roll | None = None
    """Rule E1: the roll of its perception time, made as the encounter begins."""


class Perceived(Event, frozen=True, kw_only=True, tag="perceived", omit_defaults=True):
    """A combatant spots the other party (rule E1); the clock starts at the first of these. ``reaction_roll``
    is the roll of its reaction time, made now. ``perception_roll`` is only in logs written before the
    perception roll moved to ``combatant_joined`` (version 1 called it ``roll``)."""

    VERSION: ClassVar[int] = 2
    combatant: ActorId
    after_ms: int
    reaction_roll: Roll | None = None
    perception_roll: Roll | None = None


class Reacted(Event, frozen=True, kw_only=True, tag="reacted", omit_defaults=True):
    """A combatant's reaction time has run after its perception (rule E1). ``reaction_roll`` is only in logs
    written before the reaction roll moved to ``perceived`` (version 1 called it ``roll``, and wrote it and
    ``prepared`` even when null and false)."""

    VERSION: ClassVar[int] = 2
    combatant: ActorId
    reaction_ms: int
    prepared: bool = False
    reaction_roll: Roll | None = None


class WeaponReadied(Event, frozen=True, kw_only=True, tag="weapon_readied"):
    """Battle initiative has run and the weapon is ready for its first attack (rules E1, E2, E3)."""

    combatant: ActorId
    weapon: str
    readiness: Readiness
    chart_initiative: int
    chart_speed: int
    speed_adjustment: Decimal
    initiative_ms: int
    speed_ms: int


class TargetChosen(Event, frozen=True, kw_only=True, tag="target_chosen"):
    """A controller picked a target, with its reason."""

    combatant: ActorId
    target: CombatantId
    controller: str
    reason: str
    distance: Decimal


class IntentChosen(Event, frozen=True, kw_only=True, tag="intent_chosen", omit_defaults=True):
    """A combatant played from outside affray chose what to do next: its controller (the scenario's
    ``package.module:factory``, or ``external``), the intent with its reason (None: nothing more to do),
    and the scores it gave its options. A re-simulation takes the recorded intent instead of asking."""

    combatant: ActorId
    controller: str
    intent: Intent | None
    scores: tuple[Score, ...] = ()


class ParryAttempt(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A defender's parry roll against one attack (rule E5)."""

    device: str
    chance: Decimal
    roll: Roll
    parried: bool
    gap_ms: int


class RangedDerivation(msgspec.Struct, frozen=True, kw_only=True, gc=False, omit_defaults=True):
    """What range, target size, cover, relative speed and aiming did to a shot's hit chance (E8, E16-E19)."""

    mode: Literal["hurled", "missile"]
    distance: Decimal
    band: RangeBand
    range_factor: Decimal
    chance_before: Decimal
    target_area: Decimal
    cover: int
    visible_area: Decimal
    size_percentage: Decimal
    size_penalty: Decimal
    relative_speed: Decimal
    speed_penalty: Decimal
    aim_ms: int
    gap_ms: int
    aim_bonus: Decimal
    unaimed_penalty: Decimal
    presented: str | None = None
    """Rule E16: in random cover, the part of the body the target presents (rolled on the E20 chart)."""
    presented_roll: Roll | None = None
    maneuvering: bool = False
    """Rule E19: the target was maneuvering (fleeing): the speed penalty is multiplied by its AGB/8."""
    firing_from_cover: bool = False
    """Rule E16: a target in full cover, shot at in the second of its own attack."""
    aim_restarted_ms: int | None = None
    """Rule E17: when the target's unusual movement (setting off, turning, a change of pace, a flight)
    ruined the aim, which counts again from then."""


class Modifier(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One modifier to a chance to hit: what it is, its points, and the rule or ruling it comes from."""

    name: str
    value: Decimal
    rule: str


PROFICIENCY = "proficiency"
"""The modifier of a weapon's proficiency (E12)."""
MARTIAL_ARTS = "martial arts"
"""The modifier of a martial artist's open-hand bonus (E13)."""
INJURIES = "injuries"
"""The modifier of the attacker's injuries' penalties (S4, S5)."""
RULING = "referee's ruling"
"""The modifier a referee's ruling adds."""


class HitDerivation(msgspec.Struct, frozen=True, kw_only=True, gc=False, omit_defaults=True):
    """How the hit quality came about (rules E4, E5, E6; E8 and E16-E19 for shots in ``ranged``)."""

    skill: Decimal
    bonus: Decimal
    bonus_kind: Literal["melee", "mechanical"]
    hit_chance: Decimal
    armor: str
    weapon_type: int
    armor_value: int
    shield_bonus: int
    roll: Roll
    quality: Decimal
    ranged: RangedDerivation | None = None
    location: str | None = None
    location_roll: Roll | None = None
    location_armored: bool | None = None
    recovery_roll: Roll | None = None
    """A martial artist's AGbonus roll to punch in the second after a kick (E13)."""
    modifiers: tuple[Modifier, ...] = ()
    """What the chance adds to skill and bonus, each already in ``hit_chance``, in this order: the weapon
    proficiency (E12), a martial artist's open-hand bonus (E13), the attacker's injuries (S4, S5), a
    referee's ruling; only those that are not zero."""
    ruled_miss: bool = False
    """A referee's ruling: the attack is a miss whatever its rolls (its outcome is then "miss")."""


class DamageDerivation(msgspec.Struct, frozen=True, kw_only=True, gc=False, omit_defaults=True):
    """How a hit's damage came about (rule E7; E8's range factor for shots)."""

    base: int
    strength_bonus: Decimal
    weapon_bonus: Decimal
    skill_bonus: Decimal
    potential: Decimal
    multiplier: Decimal
    damage: Decimal
    range_factor: Decimal | None = None
    subdue: Literal["knocked_out", "half_damage"] | None = None
    full_damage: Decimal | None = None
    charge_speed: Decimal | None = None
    """Rule E21: the relative speed of a charge, m/s."""
    charge_multiple: Decimal | None = None
    ruled_points: Decimal | None = None
    """What a referee's ruling added to the blow's damage (taken off, if negative; never below 0 dealt),
    already in ``damage``."""


class AttackResolved(Event, frozen=True, kw_only=True, tag="attack_resolved"):
    """One attack from roll to damage: the hit, the parry if any, and the damage if it landed. Version 1
    wrote the hit's modifiers as fields of their own (``proficiency``, ``martial_bonus``,
    ``injury_penalty``, ``ruled_modifier``)."""

    VERSION: ClassVar[int] = 2
    CHANGES_THE_WORLD: ClassVar[bool] = False
    attacker: ActorId
    target: CombatantId
    weapon: str
    hit: HitDerivation
    parry: ParryAttempt | None = None
    outcome: Outcome
    damage: DamageDerivation | None = None


class WeaponChanged(Event, frozen=True, kw_only=True, tag="weapon_changed"):
    """A combatant changed weapons (rule E3): dropped (or had thrown) one and grabbed another, or put one
    away safely and drew another."""

    combatant: ActorId
    from_weapon: str | None
    to_weapon: str
    to_index: int
    method: Literal["drop_and_grab", "put_away"]
    took_ms: int


class Waited(Event, frozen=True, kw_only=True, tag="waited"):
    """A combatant held its position on purpose, and why."""

    combatant: ActorId
    seconds: int
    reason: str


class SpellStarted(Event, frozen=True, kw_only=True, tag="spell_started"):
    """A combatant begins a spell (rule E23): its preparation, one second of initiation, then casting."""

    combatant: ActorId
    spell: str
    target: CombatantId
    preparation_ms: int
    initiation_ms: int
    casting_ms: int
    roll: Roll | None = None


class SpellCast(Event, frozen=True, kw_only=True, tag="spell_cast"):
    """A spell completes and takes effect on its target (its effect is the scenario's, E23)."""

    combatant: ActorId
    spell: str
    target: CombatantId
    roll: Roll
    damage: Decimal


class SpellInterrupted(Event, frozen=True, kw_only=True, tag="spell_interrupted"):
    """A spell in progress is lost: its caster took damage or had to react to something else (E23)."""

    combatant: ActorId
    spell: str
    reason: str


class AimStarted(Event, frozen=True, kw_only=True, tag="aim_started"):
    """A combatant began aiming at a target, holding still (rule E17)."""

    combatant: ActorId
    target: CombatantId
    weapon: str


class AvoidanceRoll(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A held or grappled combatant's avoidance roll (rule E15): at or under the number avoids."""

    basis: Literal["half_ag", "ag", "parry_roll"]
    target_number: Decimal
    roll: Roll
    avoided: bool


class GrappleResolved(Event, frozen=True, kw_only=True, tag="grapple_resolved"):
    """A grappling procedure (rule E15): its attack roll against the applicable armor, the target's
    avoidance, and what it did. Version 1 wrote the injuries' penalty as ``injury_penalty``."""

    VERSION: ClassVar[int] = 2
    attacker: ActorId
    target: CombatantId
    procedure: str
    hit_chance: Decimal
    armor: Literal["normal", "ag_luck"]
    armor_value: Decimal
    roll: Roll
    quality: Decimal
    avoidance: AvoidanceRoll | None
    outcome: Literal["miss", "avoided", "landed"]
    effects: tuple[str, ...] = ()
    damage: Decimal = Decimal(0)
    damage_roll: Roll | None = None
    recovery_ms: int = 0
    modifiers: tuple[Modifier, ...] = ()
    """What the chance adds to skill and melee bonus: the attacker's injuries (S4, S5, ruling 8)."""


class HoldEscapeRolled(Event, frozen=True, kw_only=True, tag="hold_escape_rolled"):
    """A held combatant's avoidance roll for the second (rule E15); success breaks the hold."""

    combatant: ActorId
    holder: CombatantId
    procedure: str
    avoidance: AvoidanceRoll


class HoldDamageDealt(Event, frozen=True, kw_only=True, tag="hold_damage_dealt"):
    """A holder inflicts half a point for a second of holding down (rule E15). Called ``hold_damage``
    before every kind was named for what happened; read under that name through Energion's aliases."""

    holder: ActorId
    target: CombatantId
    damage: Decimal


class StoodUp(Event, frozen=True, kw_only=True, tag="stood_up"):
    """A knocked-down combatant is on its feet again."""

    combatant: ActorId
    took_ms: int


class LocationDisabled(Event, frozen=True, kw_only=True, tag="location_disabled"):
    """Damage to one part of the body reached its share of the damage points (rule E20)."""

    combatant: ActorId
    location: str
    effect: Literal["unusable", "dead"]
    damage: Decimal
    share: Decimal
