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
    Moved,
    Perceived,
    Position,
    Reacted,
    TargetChosen,
    Waited,
    WeaponChanged,
    WeaponReadied,
)

_ZERO = Decimal(0)


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
    weapon_index: int = 0
    used: dict[str, int] = msgspec.field(default_factory=dict)
    """Throws or shots spent, by carried weapon number (as a string, for JSON)."""
    aim_target: str | None = None
    aim_since_ms: int | None = None
    velocity: Position = (_ZERO, _ZERO)
    moved_ms: int | None = None
    cover: int = 0
    """Percent of the body behind stable cover (rule E16); lost on moving."""
    out: bool = False
    out_reason: str | None = None

    @property
    def damage_left(self) -> Decimal:
        """Damage points not yet lost."""
        return self.damage_points - self.damage_taken


class EncounterState(msgspec.Struct, kw_only=True):
    """Everything the log has established up to ``seq`` at game time ``t`` (milliseconds)."""

    seq: int = 0
    t: int = 0
    combatants: dict[str, CombatantState] = msgspec.field(default_factory=dict)
    ended: bool = False
    winner: str | None = None
    end_reason: str | None = None

    def standing_sides(self) -> list[str]:
        """Sides with at least one combatant still in the fight, in order of first appearance."""
        sides: list[str] = []
        for c in self.combatants.values():
            if not c.out and c.side not in sides:
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


def _unchanged(state: EncounterState, e: Event) -> None:
    """Refusals and waits change nothing but the clock."""


def _attack(state: EncounterState, e: AttackResolved) -> None:
    attacker = state.combatants[e.attacker]
    target = state.combatants[e.target]
    attacker.attacks += 1
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


def _out(state: EncounterState, e: CombatantOut) -> None:
    combatant = state.combatants[e.combatant]
    combatant.out = True
    combatant.out_reason = e.reason


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
    CombatantOut: _out,
    EncounterEnded: _ended,
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
