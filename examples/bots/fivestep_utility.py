"""An example fivestep controller from outside affray: it declares its turn step by step, scoring every
legal step and taking the best, until declaring nothing more scores best.

A fivestep scenario names it as ``controller = "bots.fivestep_utility:utility"``; affray imports it
from the scenario's folder and calls ``utility(seat)`` once per character and run. At each declaration
(rule F7) it is asked for one step at a time, with the steps the rules allow after those it has
declared: a move step toward an enemy, a strike with a weapon, a borrow of 3 points, or None. Each
answer is recorded with its reason and the best scores, so ``affray verify`` re-plays the log without
this file.

The weights are an example, not a tuned tactic: copy this file and change them.
"""

from __future__ import annotations

from decimal import Decimal

from affray.events.fivestep.steps import Advance, Borrow, Step, Strike
from affray.kernel.space import distance
from affray.npc.fivestep.controllers import TurnView
from affray.npc.outside import Decision, Seat

KEPT_SCORES = 3
"""How many of the best options' scores each answer records."""
ENOUGH = 0.2
"""What declaring nothing more scores: a step must beat it to be declared."""


class Utility:
    """Scores each legal step from the view and answers with the best (the first listed on a tie)."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    def decide(self, view: TurnView, legal: tuple[Step | None, ...]) -> Decision:
        """The best-scoring legal step, or nothing more, with the scores of the best few."""
        scored = sorted(
            ((self.score(view, s), n, s) for n, s in enumerate(legal)), key=lambda x: (-x[0], x[1])
        )
        best_score, _, best = scored[0]
        scores = {_words(step): round(score, 3) for score, _, step in scored[:KEPT_SCORES]}
        return Decision(best, reason=f"best of {len(legal)} options ({best_score:.2f})", scores=scores)

    def score(self, view: TurnView, step: Step | None) -> float:
        """Strike the nearest enemy within reach first, with the cheapest weapon; else close in on the
        nearest; borrow only when no strike is left to afford; stop when nothing beats ``ENOUGH``."""
        if step is None:
            return ENOUGH
        if isinstance(step, Borrow):
            return 0.1
        gap = _gap(view, step.target)
        if isinstance(step, Strike):
            return 2.0 - float(gap) / 100 - step.cost / 100
        assert isinstance(step, Advance)
        return 1.0 - float(gap) / 1000


def _gap(view: TurnView, target: str) -> Decimal:
    contact = view.field.get(target)
    return distance(view.me.position, contact.position) if contact is not None else Decimal(9999)


def _words(step: Step | None) -> str:
    return "nothing more" if step is None else step.words()


def utility(seat: Seat) -> Utility:
    """The factory a scenario names: one controller per character and run."""
    return Utility(seat)
