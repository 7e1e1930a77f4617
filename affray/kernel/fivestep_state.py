"""What the fivestep events establish (rules F3-F12): the round, the order, turns and Agility Points,
alertness, and damage to body parts; the appliers that ``kernel.state.apply`` dispatches to."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import msgspec

from affray.events.base import Event
from affray.events.fivestep import (
    ActionTaken,
    AlertnessRaised,
    ApBorrowed,
    DamageResolved,
    GrenadeThrown,
    PoisonResolved,
    PrimaryAttackRolled,
    RoundStarted,
    SurpriseChecked,
    ToHitResolved,
    TurnStarted,
)

if TYPE_CHECKING:
    from affray.kernel.state import EncounterState


class TurnState(msgspec.Struct, kw_only=True):
    """Rule F7: a character's current turn (or sub-turn): points left to spend, and points borrowed from
    its next turn."""

    round: int
    piece: int
    pieces: int
    available: int
    spent: int = 0
    borrowed: int = 0
    no_move: bool = False


class FivestepState(msgspec.Struct, kw_only=True):
    """Rules F4-F6: the round, who has surprise, the attack order and who acts this round."""

    round: int = 0
    order: list[str] = msgspec.field(default_factory=list)
    sole_attack: bool = False
    passed: str | None = None
    surprise: str | None = None
    """The side with surprise in the last check (it alone acted that round)."""
    acting: list[str] = msgspec.field(default_factory=list)
    alertness: dict[str, int] = msgspec.field(default_factory=dict)
    """Raised alertness by side (surprise procedure 2) or character (procedure 3)."""
    alerted: dict[str, int] = msgspec.field(default_factory=dict)
    """The round in which each side or character last had its alertness raised (once a round)."""


def _rounds(state: EncounterState) -> FivestepState:
    if state.fivestep is None:
        state.fivestep = FivestepState()
    return state.fivestep


def _surprise(state: EncounterState, e: SurpriseChecked) -> None:
    if e.outcome != "tie":
        _rounds(state).surprise = e.winner


def _primary(state: EncounterState, e: PrimaryAttackRolled) -> None:
    if e.outcome == "order":
        rounds = _rounds(state)
        rounds.order = list(e.order)
        rounds.sole_attack = e.sole_attack
        rounds.passed = e.passed


def _round(state: EncounterState, e: RoundStarted) -> None:
    rounds = _rounds(state)
    rounds.round = e.round
    rounds.acting = list(e.acting)


def _turn(state: EncounterState, e: TurnStarted) -> None:
    combatant = state.combatants[e.combatant]
    earlier = combatant.turn
    borrowed = earlier.borrowed if earlier is not None and earlier.round == e.round and e.piece > 1 else 0
    combatant.turn = TurnState(
        round=e.round,
        piece=e.piece,
        pieces=e.pieces,
        available=e.available,
        borrowed=borrowed,
        no_move=e.no_move,
    )


def _turn_of(state: EncounterState, combatant: str) -> TurnState:
    turn = state.combatants[combatant].turn
    if turn is None:
        raise ValueError(f"{combatant} has no turn under way")
    return turn


def _borrowed(state: EncounterState, e: ApBorrowed) -> None:
    turn = _turn_of(state, e.combatant)
    turn.available += e.gained
    turn.borrowed += e.points


def _action(state: EncounterState, e: ActionTaken) -> None:
    turn = _turn_of(state, e.combatant)
    turn.available = e.available
    turn.spent += e.cost


def _to_hit(state: EncounterState, e: ToHitResolved) -> None:
    attacker = state.combatants[e.attacker]
    attacker.attacks += 1
    attacker.attacked_ms = e.t
    if e.combat == "weaponry" and e.outcome != "out_of_reach":
        attacker.used[e.weapon] = attacker.used.get(e.weapon, 0) + 1
    if e.outcome in ("hit", "direct", "random"):
        attacker.hits += 1


def _grenade(state: EncounterState, e: GrenadeThrown) -> None:
    thrower = state.combatants[e.thrower]
    thrower.attacks += 1
    thrower.attacked_ms = e.t
    thrower.used[e.weapon] = thrower.used.get(e.weapon, 0) + 1


def _damage(state: EncounterState, e: DamageResolved) -> None:
    attacker = state.combatants[e.attacker]
    target = state.combatants[e.target]
    points = Decimal(e.points)
    attacker.damage_dealt += points
    target.damage_taken += points
    target.location_damage[e.part] = target.location_damage.get(e.part, Decimal(0)) + points
    if not e.functional and e.part not in target.disabled:
        target.disabled.append(e.part)


def _alertness(state: EncounterState, e: AlertnessRaised) -> None:
    rounds = _rounds(state)
    rounds.alertness[e.who] = e.after
    rounds.alerted[e.who] = rounds.round


def _told(state: EncounterState, e: Event) -> None:
    """Poison effects are told, not kept: the text gives them no rule that later rolls read."""


FIVESTEP_APPLIERS: dict[type[Event], Callable[[EncounterState, Any], None]] = {
    SurpriseChecked: _surprise,
    PrimaryAttackRolled: _primary,
    RoundStarted: _round,
    TurnStarted: _turn,
    ApBorrowed: _borrowed,
    ActionTaken: _action,
    ToHitResolved: _to_hit,
    GrenadeThrown: _grenade,
    DamageResolved: _damage,
    AlertnessRaised: _alertness,
    PoisonResolved: _told,
}
"""The appliers of the fivestep event kinds (rules F3-F12)."""
