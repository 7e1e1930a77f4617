"""What the fivestep events establish (rules F3-F12): the round, the order, turns and Agility Points,
alertness, and damage to body parts; the appliers.

Live state and replayed state are built by the same appliers, through the vocabulary (:func:`vocabulary`).
"""

from __future__ import annotations

from decimal import Decimal

import msgspec

from affray.errors import excerpt
from affray.events.fivestep.kinds import (
    ActionTaken,
    AlertnessRaised,
    ApBorrowed,
    CombatantJoined,
    DamageResolved,
    GrenadeThrown,
    PoisonResolved,
    PrimaryAttackRolled,
    RoundStarted,
    StepChosen,
    SurpriseChecked,
    ToHitResolved,
    TurnStarted,
)
from affray.events.fivestep.revealers import REVEALERS, TO_HIT
from affray.events.special_damage.kinds import AftermathStarted
from affray.events.special_damage.revealers import revealers as special_revealers
from affray.events.special_damage.state import SPECIAL_DAMAGE, SpecialState
from affray.events.state import SHARED, CombatantState, EncounterState, joined_fields, unchanged
from affray.events.vocabulary import Part, Vocabularies


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


class Rounds(msgspec.Struct, kw_only=True):
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


class FivestepCombatant(CombatantState, kw_only=True):
    """What is true of one fivestep character at a moment; its body parts' damage is ``location_damage``
    and the parts without function are ``disabled`` (rule F11)."""

    parts: dict[str, int] = msgspec.field(default_factory=dict)
    """Rule F11: its body parts' damage points."""
    destroyed: list[str] = msgspec.field(default_factory=list)
    """Rule F11: its parts destroyed (five times their points taken): no healing restores them."""
    turn: TurnState | None = None
    """Rule F7: its current turn's Agility Points."""
    used: dict[str, int] = msgspec.field(default_factory=dict)
    """Shots and grenades spent, by weapon name."""
    special: SpecialState = msgspec.field(default_factory=SpecialState)
    """What the special_damage module left on it (empty without the module)."""


class FivestepState(EncounterState[FivestepCombatant], kw_only=True):
    """A fivestep encounter's state: the shared one over fivestep characters, and the rounds."""

    rounds: Rounds = msgspec.field(default_factory=Rounds)


def _joined(state: FivestepState, e: CombatantJoined) -> None:
    state.combatants[e.combatant] = FivestepCombatant(
        **joined_fields(e),
        parts={part.name: part.points for part in e.parts},
        special=SpecialState(body=e.body),
    )


def _surprise(state: FivestepState, e: SurpriseChecked) -> None:
    if e.outcome != "tie":
        state.rounds.surprise = e.winner


def _primary(state: FivestepState, e: PrimaryAttackRolled) -> None:
    if e.outcome == "order":
        rounds = state.rounds
        rounds.order = list(e.order)
        rounds.sole_attack = e.sole_attack
        rounds.passed = e.passed


def _round(state: FivestepState, e: RoundStarted) -> None:
    rounds = state.rounds
    rounds.round = e.round
    rounds.acting = list(e.acting)


def _turn(state: FivestepState, e: TurnStarted) -> None:
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


def _turn_of(state: FivestepState, combatant: str) -> TurnState:
    turn = state.combatants[combatant].turn
    if turn is None:
        raise ValueError(f"{combatant} has no turn under way")
    return turn


def _borrowed(state: FivestepState, e: ApBorrowed) -> None:
    turn = _turn_of(state, e.combatant)
    turn.available += e.gained
    turn.borrowed += e.points


def _action(state: FivestepState, e: ActionTaken) -> None:
    turn = _turn_of(state, e.combatant)
    turn.available = e.available
    turn.spent += e.cost


def _to_hit(state: FivestepState, e: ToHitResolved) -> None:
    attacker = state.combatants[e.attacker]
    attacker.attacks += 1
    if e.combat == "weaponry" and e.outcome != "out_of_reach":
        attacker.used[e.weapon] = attacker.used.get(e.weapon, 0) + 1
    if e.outcome in ("hit", "direct", "random"):
        attacker.hits += 1


def _grenade(state: FivestepState, e: GrenadeThrown) -> None:
    thrower = state.combatants[e.thrower]
    thrower.attacks += 1
    thrower.used[e.weapon] = thrower.used.get(e.weapon, 0) + 1


def _damage(state: FivestepState, e: DamageResolved) -> None:
    attacker = state.combatants[e.attacker]
    target = state.combatants[e.target]
    if e.part not in target.parts:
        raise ValueError(f"{e.target} has no body part {excerpt(e.part)!r}")
    points = Decimal(e.points)
    attacker.damage_dealt += points
    target.damage_taken += points
    target.location_damage[e.part] = target.location_damage.get(e.part, Decimal(0)) + points
    if not e.functional and e.part not in target.disabled:
        target.disabled.append(e.part)
    if e.destroyed and e.part not in target.destroyed:
        target.destroyed.append(e.part)


def _alertness(state: FivestepState, e: AlertnessRaised) -> None:
    rounds = state.rounds
    rounds.alertness[e.who] = e.after
    rounds.alerted[e.who] = rounds.round


FIVESTEP = Part(
    name="fivestep",
    appliers={
        CombatantJoined: _joined,
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
        PoisonResolved: unchanged,
        StepChosen: unchanged,
    },
    folds={
        ToHitResolved: ("attacker", "combat", "outcome", "weapon"),
        DamageResolved: ("attacker", "target", "part", "points", "functional", "destroyed"),
    },
    revealers=REVEALERS,
)
"""The fivestep kinds (rules F3-F12). Poison effects are told, not kept: the text gives them no rule that
later rolls read."""


def _destroyed_stay(state: FivestepState, e: AftermathStarted) -> None:
    for combatant_id in e.restored:
        combatant = state.combatants[combatant_id]
        combatant.disabled.extend(combatant.destroyed)


FIVESTEP_SPECIAL_DAMAGE = Part(
    name="fivestep+special_damage",
    appliers={},
    extends={AftermathStarted: _destroyed_stay},
    revealers=special_revealers(TO_HIT),
)
"""Ruling 21 under fivestep: the aftermath heals damage points, but a part destroyed (F11) stays so."""
vocabulary = Vocabularies(
    FivestepState, (SHARED, FIVESTEP), {"special_damage": (SPECIAL_DAMAGE, FIVESTEP_SPECIAL_DAMAGE)}
)
"""The fivestep vocabulary for a scenario's modules: ``vocabulary(scenario.modules)``."""
