"""The encounter's state and ``apply``: the only function that changes it.

Live state and replayed state are built by the same ``apply``; a replay is
``functools.reduce(apply, events, EncounterState())``. ``apply`` updates the state in place and returns it,
so a fold costs one small function call per event.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

import msgspec

from affray.errors import LogError
from affray.events.base import Event
from affray.events.kinds import (
    ActionRefused,
    AimStarted,
    AttackResolved,
    CombatantJoined,
    CombatantOut,
    EncounterEnded,
    GrappleResolved,
    HoldDamage,
    HoldEscapeRolled,
    LocationDisabled,
    Moved,
    Perceived,
    Position,
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
from affray.events.special import (
    AftermathEnded,
    AftermathStarted,
    CheckRolled,
    ConditionEnded,
    ConditionStarted,
    EquipmentLost,
    Exploded,
    Healed,
    HealingScheduled,
    Injury,
    NotHealed,
    ProgramsDestroyed,
    RefereeRuling,
    SpecialDamage,
)
from affray.kernel.fivestep_state import FIVESTEP_APPLIERS, FivestepState, TurnState

_ZERO = Decimal(0)
KICK_TYPE = 5
"""A martial artist's kick strikes as weapon type 5 (rule E13); its attacks mark the recovery second."""


class CombatantState(msgspec.Struct, kw_only=True):
    """What is true of one combatant at a moment."""

    id: str
    name: str
    side: str
    damage_points: Decimal
    position: Position
    weapon: str
    armor: str
    shield: str | None = None
    damage_taken: Decimal = _ZERO
    perceived: bool = False
    reacted: bool = False
    weapon_ready: bool = False
    target: str | None = None
    attacks: int = 0
    hits: int = 0
    damage_dealt: Decimal = _ZERO
    last_parry_ms: dict[str, int] = msgspec.field(default_factory=dict)
    """When each parry device was last used, to parry or (a weapon) to attack: E5's one use per gap."""
    weapon_index: int = 0
    used: dict[str, int] = msgspec.field(default_factory=dict)
    """Throws or shots spent: by carried weapon number as a string (Energion), by weapon name (fivestep)."""
    aim_target: str | None = None
    aim_since_ms: int | None = None
    velocity: Position = (_ZERO, _ZERO)
    moved_ms: int | None = None
    fleeing: bool = False
    """Its last move was a flight: it is maneuvering (E19)."""
    attacked_ms: int | None = None
    cover: int = 0
    """Percent of the body behind stable cover (rule E16); lost on moving."""
    casting: str | None = None
    spell_ended_ms: int | None = None
    held_by: str | None = None
    holding: str | None = None
    hold: str | None = None
    """The procedure of the hold it is in or keeps (E15)."""
    knocked_down: bool = False
    kicked_ms: int | None = None
    """When it last kicked, as a martial artist (E13: the next second is recovery)."""
    kind: str = "living"
    injuries: list[Injury] = msgspec.field(default_factory=list)
    """Special damage it carries (rules S4, S5); healed ones are dropped (rules S7, S8)."""
    special_hits: int = 0
    unconscious_until_ms: int | None = None
    stunned_until_ms: int | None = None
    deactivated: bool = False
    lost: dict[str, int] = msgspec.field(default_factory=dict)
    """Units of equipment destroyed, by name (rule S3)."""
    destroyed_weapons: list[str] = msgspec.field(default_factory=list)
    programs_lost: list[str] = msgspec.field(default_factory=list)
    alarms: list[str] = msgspec.field(default_factory=list)
    location_damage: dict[str, Decimal] = msgspec.field(default_factory=dict)
    disabled: list[str] = msgspec.field(default_factory=list)
    """Locations made unusable (rule E20); body parts without function (fivestep, rule F11)."""
    parts: dict[str, int] = msgspec.field(default_factory=dict)
    """Fivestep (rule F11): its body parts' damage points; their damage is in ``location_damage``."""
    turn: TurnState | None = None
    """Fivestep (rule F7): its current turn's Agility Points."""
    out: bool = False
    out_reason: str | None = None

    @property
    def damage_left(self) -> Decimal:
        """Damage points not yet lost."""
        return self.damage_points - self.damage_taken

    def incapacitated(self, now: int) -> bool:
        """Out, deactivated, or unconscious or stunned at ``now``: it can neither act nor react."""
        if self.out or self.deactivated:
            return True
        if self.unconscious_until_ms is None and self.stunned_until_ms is None:
            return False
        return (self.unconscious_until_ms is not None and now < self.unconscious_until_ms) or (
            self.stunned_until_ms is not None and now < self.stunned_until_ms
        )

    def injury_to_hit(self) -> int:
        """The sum of its injuries' penalties to hit (rules S4, S5)."""
        return sum(injury.to_hit for injury in self.injuries) if self.injuries else 0


class EncounterState(msgspec.Struct, kw_only=True):
    """Everything the log has established up to ``seq`` at game time ``t`` (milliseconds)."""

    seq: int = 0
    t: int = 0
    combatants: dict[str, CombatantState] = msgspec.field(default_factory=dict)
    ended: bool = False
    winner: str | None = None
    end_reason: str | None = None
    fivestep: FivestepState | None = None
    """The round, order and alertness of a fivestep encounter (rules F4-F6)."""

    def standing_sides(self) -> list[str]:
        """Sides with at least one combatant still in the fight, in order of first appearance."""
        sides: list[str] = []
        for c in self.combatants.values():
            if not c.incapacitated(self.t) and c.side not in sides:
                sides.append(c.side)
        return sides


def _joined(state: EncounterState, e: CombatantJoined) -> None:
    state.combatants[e.combatant] = CombatantState(
        id=e.combatant,
        name=e.name,
        side=e.side,
        damage_points=e.damage_points,
        position=e.position,
        weapon=e.weapon,
        armor=e.armor,
        shield=e.shield,
        cover=e.cover,
        kind=e.body,
        parts={part.name: part.points for part in e.parts},
    )


def _perceived(state: EncounterState, e: Perceived) -> None:
    state.combatants[e.combatant].perceived = True


def _reacted(state: EncounterState, e: Reacted) -> None:
    state.combatants[e.combatant].reacted = True


def _readied(state: EncounterState, e: WeaponReadied) -> None:
    combatant = state.combatants[e.combatant]
    combatant.weapon = e.weapon
    combatant.weapon_ready = True


def _target(state: EncounterState, e: TargetChosen) -> None:
    combatant = state.combatants[e.combatant]
    combatant.target = e.target
    if combatant.aim_target != e.target:
        combatant.aim_target = combatant.aim_since_ms = None


def _moved(state: EncounterState, e: Moved) -> None:
    combatant = state.combatants[e.combatant]
    combatant.position = e.end
    combatant.velocity = (e.end[0] - e.start[0], e.end[1] - e.start[1])
    combatant.moved_ms = e.t
    combatant.fleeing = e.fleeing
    combatant.cover = 0
    combatant.aim_target = combatant.aim_since_ms = None


def _weapon_changed(state: EncounterState, e: WeaponChanged) -> None:
    combatant = state.combatants[e.combatant]
    combatant.weapon = e.to_weapon
    combatant.weapon_index = e.to_index
    combatant.weapon_ready = True
    combatant.aim_target = combatant.aim_since_ms = None


def _aim_started(state: EncounterState, e: AimStarted) -> None:
    combatant = state.combatants[e.combatant]
    combatant.aim_target = e.target
    combatant.aim_since_ms = e.t


def _spell_started(state: EncounterState, e: SpellStarted) -> None:
    state.combatants[e.combatant].casting = e.spell


def _spell_cast(state: EncounterState, e: SpellCast) -> None:
    caster = state.combatants[e.combatant]
    caster.casting = None
    caster.spell_ended_ms = e.t
    caster.attacks += 1
    if e.damage:
        caster.hits += 1
        caster.damage_dealt += e.damage
        state.combatants[e.target].damage_taken += e.damage


def _spell_interrupted(state: EncounterState, e: SpellInterrupted) -> None:
    caster = state.combatants[e.combatant]
    caster.casting = None
    caster.spell_ended_ms = e.t


def _grapple(state: EncounterState, e: GrappleResolved) -> None:
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
        target.held_by, target.hold = e.attacker, e.procedure
        attacker.holding, attacker.hold = e.target, e.procedure


def _release(state: EncounterState, combatant: CombatantState) -> None:
    """End any hold the combatant is in or keeps."""
    if combatant.held_by is not None:
        holder = state.combatants[combatant.held_by]
        holder.holding = holder.hold = None
    if combatant.holding is not None:
        held = state.combatants[combatant.holding]
        held.held_by = held.hold = None
    combatant.held_by = combatant.holding = combatant.hold = None


def _escape(state: EncounterState, e: HoldEscapeRolled) -> None:
    if e.avoidance.avoided:
        _release(state, state.combatants[e.combatant])


def _hold_damage(state: EncounterState, e: HoldDamage) -> None:
    holder = state.combatants[e.holder]
    holder.damage_dealt += e.damage
    state.combatants[e.target].damage_taken += e.damage


def _stood_up(state: EncounterState, e: StoodUp) -> None:
    state.combatants[e.combatant].knocked_down = False


def _location_disabled(state: EncounterState, e: LocationDisabled) -> None:
    combatant = state.combatants[e.combatant]
    combatant.disabled.append(e.location)
    if e.location == "right arm":
        combatant.weapon_ready = False


def _special(state: EncounterState, e: SpecialDamage) -> None:
    attacker = state.combatants[e.attacker]
    target = state.combatants[e.target]
    attacker.damage_dealt += e.stamina
    target.damage_taken += e.stamina
    if isinstance(e.part, str):
        target.location_damage[e.part] = target.location_damage.get(e.part, _ZERO) + e.stamina
    target.special_hits += 1
    if e.injury is not None:
        target.injuries.append(e.injury)


def _condition(state: EncounterState, e: ConditionStarted) -> None:
    combatant = state.combatants[e.combatant]
    if e.condition == "deactivated":
        combatant.deactivated = True
    elif e.condition == "unconscious":
        combatant.unconscious_until_ms = e.until_ms
    else:
        combatant.stunned_until_ms = e.until_ms


def _condition_ended(state: EncounterState, e: ConditionEnded) -> None:
    combatant = state.combatants[e.combatant]
    if e.condition == "unconscious":
        combatant.unconscious_until_ms = None
    else:
        combatant.stunned_until_ms = None


def _equipment(state: EncounterState, e: EquipmentLost) -> None:
    combatant = state.combatants[e.combatant]
    for item in e.items:
        combatant.lost[item.name] = combatant.lost.get(item.name, 0) + item.units
    if e.weapon is not None:
        combatant.destroyed_weapons.append(e.weapon)
        if combatant.weapon == e.weapon:
            combatant.weapon_ready = False


def _programs(state: EncounterState, e: ProgramsDestroyed) -> None:
    computer = state.combatants[e.computer]
    computer.programs_lost.extend(e.destroyed)
    computer.alarms.extend(e.alarms)


def _exploded(state: EncounterState, e: Exploded) -> None:
    for hit in e.hits:
        state.combatants[hit.combatant].damage_taken += hit.damage


def _healed(state: EncounterState, e: Healed) -> None:
    combatant = state.combatants[e.combatant]
    for index, injury in enumerate(combatant.injuries):
        if injury.name == e.injury:
            del combatant.injuries[index]
            return


def _unchanged(state: EncounterState, e: Event) -> None:
    """Refusals and waits change nothing but the clock."""


def _attack(state: EncounterState, e: AttackResolved) -> None:
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


def _out(state: EncounterState, e: CombatantOut) -> None:
    combatant = state.combatants[e.combatant]
    combatant.out = True
    combatant.out_reason = e.reason
    combatant.casting = None
    _release(state, combatant)


def _ended(state: EncounterState, e: EncounterEnded) -> None:
    state.ended = True
    state.winner = e.winner
    state.end_reason = e.reason


_APPLIERS: dict[type[Event], Callable[[EncounterState, Any], None]] = {
    CombatantJoined: _joined,
    Perceived: _perceived,
    Reacted: _reacted,
    WeaponReadied: _readied,
    TargetChosen: _target,
    Moved: _moved,
    AttackResolved: _attack,
    WeaponChanged: _weapon_changed,
    AimStarted: _aim_started,
    ActionRefused: _unchanged,
    Waited: _unchanged,
    SpellStarted: _spell_started,
    SpellCast: _spell_cast,
    SpellInterrupted: _spell_interrupted,
    LocationDisabled: _location_disabled,
    GrappleResolved: _grapple,
    HoldEscapeRolled: _escape,
    HoldDamage: _hold_damage,
    StoodUp: _stood_up,
    SpecialDamage: _special,
    ConditionStarted: _condition,
    ConditionEnded: _condition_ended,
    EquipmentLost: _equipment,
    ProgramsDestroyed: _programs,
    Exploded: _exploded,
    RefereeRuling: _unchanged,
    CheckRolled: _unchanged,
    AftermathStarted: _unchanged,
    HealingScheduled: _unchanged,
    Healed: _healed,
    NotHealed: _unchanged,
    AftermathEnded: _unchanged,
    CombatantOut: _out,
    EncounterEnded: _ended,
    **FIVESTEP_APPLIERS,
}


def apply(state: EncounterState, event: Event) -> EncounterState:
    """Apply one event to ``state`` (in place) and return it."""
    _APPLIERS[type(event)](state, event)
    state.seq = event.seq
    state.t = event.t
    return state


def apply_checked(state: EncounterState, event: Event) -> EncounterState:
    """``apply`` for events read from a file: an event that does not fit the state raises LogError."""
    try:
        return apply(state, event)
    except KeyError as exc:
        raise LogError(f"seq {event.seq}: {_kind(event)} names combatant {exc} who never joined") from None
    except (TypeError, ValueError, ArithmeticError) as exc:
        raise LogError(f"seq {event.seq}: {_kind(event)} cannot be applied ({exc})") from None


def _kind(event: Event) -> str:
    return str(type(event).__struct_config__.tag)


def fold(events: Iterable[Event], state: EncounterState | None = None) -> EncounterState:
    """Fold events into a fresh state (or onto ``state``): the replay of a log.

    Raises LogError naming the seq of an event that does not fit (one naming a combatant who never joined).
    """
    if state is None:
        state = EncounterState()
    for event in events:
        apply_checked(state, event)
    return state


_STATE_ENCODER = msgspec.json.Encoder(decimal_format="number", order="deterministic")


def encode_state(state: EncounterState) -> bytes:
    """The state as deterministic JSON bytes."""
    return _STATE_ENCODER.encode(state)


def digest(state: EncounterState) -> str:
    """A short hash of the state's deterministic JSON: live and folded states of one log always agree.

    Decimals are hashed as written, so ``3`` and ``3.0`` damage points give different digests.
    """
    return hashlib.blake2b(encode_state(state), digest_size=16).hexdigest()
