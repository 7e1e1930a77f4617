"""The toy's Ruleset value: everything affray's tools need from it."""

from __future__ import annotations

from decimal import Decimal

import msgspec

from affray.kernel.ruleset import Ruleset
from affray.replays.telling import number, rolled
from tests.toy.battle import ToyBattle, load
from tests.toy.kinds import FighterJoined, Swung
from tests.toy.state import ToyFighter, ToyState, vocabulary


def _joined(event: FighterJoined, state: ToyState) -> str:
    return (
        f"{event.combatant} joins side {event.side}: {number(event.damage_points)} points, skill "
        f"{event.skill}"
    )


def _swung(event: Swung, state: ToyState) -> str:
    target = state.combatants[event.target]
    if event.damage_roll is None:
        return f"{event.attacker} swings at {event.target}: {rolled(event.roll)} over {event.skill}, a miss"
    return (
        f"{event.attacker} swings at {event.target}: {rolled(event.roll)} at or under {event.skill}, hits "
        f"for "
        f"{rolled(event.damage_roll)}; {event.target} has {number(target.damage_left)} points"
    )


class ToyDisplay:
    """The toy's columns of ``affray state``."""

    def overview(self, state: ToyState) -> list[str]:
        """No rounds, no order."""
        return []

    def status(self, c: ToyFighter) -> str:
        """How often it has swung."""
        return f"{c.attacks} swings, {c.hits} hits"

    def target(self, c: ToyFighter) -> str | None:
        """The toy keeps no target."""
        return None

    def details(self, c: ToyFighter) -> list[str]:
        """Nothing more."""
        return []

    def left(self, c: ToyFighter) -> str:
        """Its points left of its total."""
        return f"{c.damage_left}/{c.damage_points} points"

    def stock(self, scenario: msgspec.Raw) -> None:
        """The toy uses nothing up."""
        return None

    def supplies(self, c: ToyFighter, stock: None) -> str:
        """Nothing to use up."""
        return ""

    health_name = "points left"

    def health(self, c: ToyFighter, stock: None) -> tuple[Decimal, Decimal]:
        """Its points left of its total."""
        return c.damage_left, Decimal(c.damage_points)

    def harm(self, c: ToyFighter) -> str:
        """The points it took."""
        return f"took {c.damage_taken} of {c.damage_points} points"


RULESET = Ruleset(
    name="toy",
    version="1",
    description="a toy duel: a d20 under skill hits for a d6",
    vocabularies=vocabulary,
    load=load,
    battle=ToyBattle,
    tellers={FighterJoined: _joined, Swung: _swung},
    display=ToyDisplay(),
    unseated="its two fighters only swing at each other: there is nothing to choose",
)
