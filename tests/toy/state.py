"""What the toy's events establish: the shared state, and each fighter's swings."""

from __future__ import annotations

from affray.events.state import SHARED, CombatantState, EncounterState, joined_fields
from affray.events.vocabulary import Part, Vocabularies
from tests.toy.kinds import FighterJoined, Swung


class ToyFighter(CombatantState, kw_only=True):
    """A toy fighter at a moment."""

    skill: int
    speed_ms: int


class ToyState(EncounterState[ToyFighter], kw_only=True):
    """A toy encounter's state."""


def _joined(state: ToyState, e: FighterJoined) -> None:
    state.combatants[e.combatant] = ToyFighter(**joined_fields(e), skill=e.skill, speed_ms=e.speed_ms)


def _swung(state: ToyState, e: Swung) -> None:
    attacker, target = state.combatants[e.attacker], state.combatants[e.target]
    attacker.attacks += 1
    if e.damage_roll is not None:
        attacker.hits += 1
        attacker.damage_dealt += e.damage
        target.damage_taken += e.damage


TOY = Part(name="toy", appliers={FighterJoined: _joined, Swung: _swung})
vocabulary = Vocabularies(ToyState, (SHARED, TOY), {})
