"""What the Energion events establish (rules E1-E24): weapons in hand, aim, cover, spells, holds.

Live state and replayed state are built by the same appliers, through the vocabulary (:func:`vocabulary`).
"""

from __future__ import annotations

from decimal import Decimal

import msgspec

from affray.events.energion import upcasters
from affray.events.energion.kinds import (
    AimStarted,
    AttackResolved,
    CombatantJoined,
    GrappleResolved,
    HoldDamageDealt,
    HoldEscapeRolled,
    IntentChosen,
    LocationDisabled,
    Perceived,
    Reacted,
    SpellCast,
    SpellInterrupted,
    SpellStarted,
    StoodUp,
    TargetChosen,
    Waited,
    WeaponChanged,
    WeaponReadied,
)
from affray.events.energion.revealers import REVEALERS
from affray.events.shared import CombatantOut, Moved
from affray.events.special_damage.kinds import EquipmentLost
from affray.events.special_damage.revealers import revealers as special_revealers
from affray.events.special_damage.state import SPECIAL_DAMAGE, SpecialState
from affray.events.state import SHARED, CombatantState, EncounterState, joined_fields, unchanged
from affray.events.upcast import renamed
from affray.events.vocabulary import Part, Vocabularies

_ZERO = Decimal(0)
KICK_TYPE = 5
"""A martial artist's kick strikes as weapon type 5 (rule E13); its attacks mark the recovery second."""
WEAPON_ARM = "right arm"
"""The location whose loss leaves a combatant no weapon in hand (rule E20)."""


class EnergionCombatant(CombatantState, kw_only=True):
    """What is true of one Energion combatant at a moment."""

    weapon: str
    armor: str
    shield: str | None = None
    perceived: bool = False
    reacted: bool = False
    weapon_ready: bool = False
    readied: bool = False
    """Its battle initiative has run and its first weapon has been ready (E1, E3); a caster may cast first."""
    target: str | None = None
    last_parry_ms: dict[str, int] = msgspec.field(default_factory=dict)
    """When each parry device was last used, to parry or (a weapon) to attack: E5's one use per gap."""
    weapon_index: int = 0
    used: dict[str, int] = msgspec.field(default_factory=dict)
    """Throws or shots spent, by carried weapon number (as a string)."""
    aim_target: str | None = None
    aim_since_ms: int | None = None
    fleeing: bool = False
    """Its last move was a flight: it is maneuvering (E19)."""
    attacked_ms: int | None = None
    cover: int = 0
    """Percent of the body behind stable cover (rule E16); lost on moving."""
    casting: str | None = None
    casting_at: str | None = None
    """Whom the spell in progress is aimed at (E23): its own target, which may not be the combatant's."""
    spell_ended_ms: int | None = None
    held_by: str | None = None
    holding: str | None = None
    hold: str | None = None
    """The procedure of the hold it is in or keeps (E15)."""
    held_since_ms: int | None = None
    """When the hold it is in landed (E15)."""
    escape_rolled_ms: int | None = None
    """When it last rolled to break a hold (E15: once a second)."""
    knocked_down: bool = False
    kicked_ms: int | None = None
    """When it last kicked, as a martial artist (E13: the next second is recovery)."""
    special: SpecialState = msgspec.field(default_factory=SpecialState)
    """What the special_damage module left on it (empty without the module)."""


class EnergionState(EncounterState[EnergionCombatant], kw_only=True):
    """An Energion encounter's state: the shared one over Energion combatants."""


def _joined(state: EnergionState, e: CombatantJoined) -> None:
    state.combatants[e.combatant] = EnergionCombatant(
        **joined_fields(e),
        weapon=e.weapon,
        armor=e.armor,
        shield=e.shield,
        cover=e.cover,
        special=SpecialState(body=e.body),
    )


def _perceived(state: EnergionState, e: Perceived) -> None:
    state.combatants[e.combatant].perceived = True


def _reacted(state: EnergionState, e: Reacted) -> None:
    state.combatants[e.combatant].reacted = True


def _readied(state: EnergionState, e: WeaponReadied) -> None:
    combatant = state.combatants[e.combatant]
    combatant.weapon = e.weapon
    combatant.weapon_ready = combatant.readied = True


def _target(state: EnergionState, e: TargetChosen) -> None:
    combatant = state.combatants[e.combatant]
    combatant.target = e.target
    if combatant.aim_target != e.target:
        combatant.aim_target = combatant.aim_since_ms = None


def _moved(state: EnergionState, e: Moved) -> None:
    """Beyond the shared move: E19's flight, E16's cover lost, E17's aim spoiled."""
    combatant = state.combatants[e.combatant]
    combatant.fleeing = e.fleeing
    combatant.cover = 0
    combatant.aim_target = combatant.aim_since_ms = None


def _weapon_changed(state: EnergionState, e: WeaponChanged) -> None:
    combatant = state.combatants[e.combatant]
    combatant.weapon = e.to_weapon
    combatant.weapon_index = e.to_index
    combatant.weapon_ready = True
    combatant.aim_target = combatant.aim_since_ms = None


def _aim_started(state: EnergionState, e: AimStarted) -> None:
    combatant = state.combatants[e.combatant]
    combatant.aim_target = e.target
    combatant.aim_since_ms = e.t


def _spell_started(state: EnergionState, e: SpellStarted) -> None:
    caster = state.combatants[e.combatant]
    caster.casting, caster.casting_at = e.spell, e.target


def _spell_cast(state: EnergionState, e: SpellCast) -> None:
    caster = state.combatants[e.combatant]
    caster.casting = caster.casting_at = None
    caster.spell_ended_ms = e.t
    caster.attacks += 1
    if e.damage:
        caster.hits += 1
        caster.damage_dealt += e.damage
        state.combatants[e.target].damage_taken += e.damage


def _spell_interrupted(state: EnergionState, e: SpellInterrupted) -> None:
    caster = state.combatants[e.combatant]
    caster.casting = caster.casting_at = None
    caster.spell_ended_ms = e.t


def _grapple(state: EnergionState, e: GrappleResolved) -> None:
    attacker = state.combatants[e.attacker]
    target = state.combatants[e.target]
    attacker.attacks += 1
    if e.outcome != "landed":
        return
    attacker.hits += 1
    attacker.damage_dealt += e.damage
    target.damage_taken += e.damage
    if "KD" in e.effects:
        target.knocked_down = True
    if "Pin" in e.effects or "Disable" in e.effects:
        _release(state, target)
        target.held_by, target.hold, target.held_since_ms = e.attacker, e.procedure, e.t
        attacker.holding, attacker.hold = e.target, e.procedure


def _release(state: EnergionState, combatant: EnergionCombatant) -> None:
    """End any hold the combatant is in or keeps."""
    if combatant.held_by is not None:
        holder = state.combatants[combatant.held_by]
        holder.holding = holder.hold = None
    if combatant.holding is not None:
        held = state.combatants[combatant.holding]
        held.held_by = held.hold = None
    combatant.held_by = combatant.holding = combatant.hold = None


def _escape(state: EnergionState, e: HoldEscapeRolled) -> None:
    held = state.combatants[e.combatant]
    held.escape_rolled_ms = e.t
    if e.avoidance.avoided:
        _release(state, held)


def _hold_damage_dealt(state: EnergionState, e: HoldDamageDealt) -> None:
    holder = state.combatants[e.holder]
    holder.damage_dealt += e.damage
    state.combatants[e.target].damage_taken += e.damage


def _stood_up(state: EnergionState, e: StoodUp) -> None:
    state.combatants[e.combatant].knocked_down = False


def _location_disabled(state: EnergionState, e: LocationDisabled) -> None:
    combatant = state.combatants[e.combatant]
    combatant.disabled.append(e.location)
    if e.location == WEAPON_ARM:
        combatant.weapon_ready = False


_ATTACK_READS = (
    "attacker",
    "target",
    "weapon",
    "hit.weapon_type",
    "hit.ranged.mode",
    "hit.location",
    "parry.device",
    "damage.damage",
)
"""What ``_attack`` reads of an ``attack_resolved``: a reading that only folds decodes no more of it."""


def _attack(state: EnergionState, e: AttackResolved) -> None:
    attacker = state.combatants[e.attacker]
    target = state.combatants[e.target]
    attacker.attacks += 1
    attacker.attacked_ms = e.t
    attacker.last_parry_ms[f"weapon:{e.weapon}"] = e.t
    if e.weapon == "Foot" and e.hit.weapon_type == KICK_TYPE:
        attacker.kicked_ms = e.t
    if e.hit.ranged is not None:
        key = str(attacker.weapon_index)
        attacker.used[key] = attacker.used.get(key, 0) + 1
        if e.hit.ranged.mode == "hurled":
            attacker.weapon_ready = False
            attacker.aim_target = attacker.aim_since_ms = None
        else:
            attacker.aim_target, attacker.aim_since_ms = e.target, e.t
    if e.parry is not None:
        target.last_parry_ms[e.parry.device] = e.t
    if e.damage is not None:
        attacker.hits += 1
        attacker.damage_dealt += e.damage.damage
        target.damage_taken += e.damage.damage
        if e.hit.location is not None:
            target.location_damage[e.hit.location] = (
                target.location_damage.get(e.hit.location, _ZERO) + e.damage.damage
            )


def _out(state: EnergionState, e: CombatantOut) -> None:
    """Beyond the shared fall: a spell in progress is lost, and any hold ends."""
    combatant = state.combatants[e.combatant]
    combatant.casting = combatant.casting_at = None
    _release(state, combatant)


def _weapon_lost(state: EnergionState, e: EquipmentLost) -> None:
    """S3 under Energion: a destroyed weapon in hand is no longer ready."""
    combatant = state.combatants[e.combatant]
    if e.weapon is not None and combatant.weapon == e.weapon:
        combatant.weapon_ready = False


ENERGION = Part(
    name="energion",
    appliers={
        CombatantJoined: _joined,
        Perceived: _perceived,
        Reacted: _reacted,
        WeaponReadied: _readied,
        TargetChosen: _target,
        IntentChosen: unchanged,
        AttackResolved: _attack,
        WeaponChanged: _weapon_changed,
        AimStarted: _aim_started,
        Waited: unchanged,
        SpellStarted: _spell_started,
        SpellCast: _spell_cast,
        SpellInterrupted: _spell_interrupted,
        LocationDisabled: _location_disabled,
        GrappleResolved: _grapple,
        HoldEscapeRolled: _escape,
        HoldDamageDealt: _hold_damage_dealt,
        StoodUp: _stood_up,
    },
    extends={Moved: _moved, CombatantOut: _out},
    folds={AttackResolved: _ATTACK_READS},
    upcasters={
        ("perceived", 1): renamed("roll", "perception_roll"),
        ("reacted", 1): renamed("roll", "reaction_roll"),
        ("attack_resolved", 1): upcasters.attack_v1,
        ("grapple_resolved", 1): upcasters.grapple_v1,
    },
    aliases={"hold_damage": "hold_damage_dealt"},
    revealers=REVEALERS,
)
"""The Energion kinds (rules E1-E24), and what Energion adds to the shared moves and falls; how
``perceived``, ``reacted``, ``attack_resolved`` and ``grapple_resolved`` of version 1 read today, and
the kinds' former names."""
ENERGION_SPECIAL_DAMAGE = Part(
    name="energion+special_damage",
    appliers={},
    extends={EquipmentLost: _weapon_lost},
    revealers=special_revealers("hit"),
)
"""What the special_damage module's kinds do to Energion's own fields."""
vocabulary = Vocabularies(
    EnergionState, (SHARED, ENERGION), {"special_damage": (SPECIAL_DAMAGE, ENERGION_SPECIAL_DAMAGE)}
)
"""The energion vocabulary for a scenario's modules: ``vocabulary(scenario.modules)``."""
