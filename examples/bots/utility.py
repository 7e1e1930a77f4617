"""An example controller from outside affray: it scores every legal intent and takes the best.

A scenario names it as ``controller = "bots.utility:utility"`` (examples/ambush.toml); affray imports
``bots.utility`` from the scenario's folder and calls ``utility(seat)`` once per combatant and run. Each
decision is recorded with its reason and the scores of the best options, so ``affray explain`` and
``affray replay`` show why it did what it did, and ``affray verify`` re-plays the log without this file.

The weights are an example, not a tuned tactic: copy this file and change them.
"""

from __future__ import annotations

from decimal import Decimal

from affray.kernel.space import distance
from affray.npc.energion.intents import Aim, Approach, Attack, Cast, ChangeWeapon, Flee, Intent
from affray.npc.energion.view import Seen, View
from affray.npc.outside import Decision, Seat
from affray.rules.energion.ranged import aim_start

KEPT_SCORES = 4
"""How many of the best options' scores each decision records."""
BADLY_HURT = Decimal("0.2")
"""At or below this share of its damage points left, running away scores highest."""


class Utility:
    """Scores each legal intent from what the view shows and answers with the best (the first listed on
    a tie, so that a run is reproducible)."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    def decide(self, view: View, legal: tuple[Intent, ...]) -> Decision | None:
        """The best-scoring legal intent, with the scores of the best few."""
        scored = sorted(
            ((self.score(view, i), n, i) for n, i in enumerate(legal)), key=lambda x: (-x[0], x[1])
        )
        best_score, _, best = scored[0]
        scores = {intent.words(): round(score, 3) for score, _, intent in scored[:KEPT_SCORES]}
        return Decision(best, reason=f"best of {len(legal)} options ({best_score:.2f})", scores=scores)

    def score(self, view: View, intent: Intent) -> float:
        """How good ``intent`` looks now: finish the weakest enemy, close in on it, flee when near death."""
        me = view.me
        hurt = me.damage_left / me.damage_points
        target = _target(view, intent)
        if isinstance(intent, Flee):
            return 20.0 if hurt <= BADLY_HURT else -10.0
        if target is None:
            return _untargeted(view, intent)
        gap = float(distance(me.position, target.position))
        weakness = float(1 - target.damage_left / target.damage_points)
        if isinstance(intent, Attack) and view.arm.mode != "melee" and not _aimed(view, target):
            return 3.0 + weakness  # an unaimed shot: worth little (E17)
        if isinstance(intent, Attack | Cast):
            return 10.0 + 5.0 * weakness
        if isinstance(intent, Aim):
            return 8.0 + weakness if gap > 5 else 2.0
        if isinstance(intent, Approach):
            return 6.0 + 3.0 * weakness - gap / 20
        return 4.0 + weakness - gap / 20  # a charge or a grapple


def _target(view: View, intent: Intent) -> Seen | None:
    target = getattr(intent, "target", None)
    return view.look(target) if target is not None else None


def _aimed(view: View, target: Seen) -> bool:
    """Aimed at ``target`` for at least the weapon's gap between shots, counting from its last change of
    course, which spoils an aim (rule E17: the same reckoning as the rules')."""
    me = view.me
    since, _ = aim_start(me.aim_target, me.aim_since_ms, target.id, target.course_changed_ms)
    return since is not None and view.now - since >= view.arm.speed_ms


def _untargeted(view: View, intent: Intent) -> float:
    """A weapon change is worth it when the weapon in hand is spent; waiting and surrender score least."""
    if isinstance(intent, ChangeWeapon):
        return 9.0 if not view.arm.usable and view.arms[intent.index].usable else 0.0
    return -5.0


def utility(seat: Seat) -> Utility:
    """The factory a scenario names: one Utility controller for ``seat``'s combatant."""
    return Utility(seat)
