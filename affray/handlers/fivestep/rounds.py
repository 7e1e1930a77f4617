"""Rounds of 5 s (rules F3-F6): sides join, surprise is checked when due, the attack order is rolled, and
the acting sides' characters take their turns, all starting at the round's first instant."""

from __future__ import annotations

from collections.abc import Generator
from decimal import Decimal
from typing import Any

import msgspec

from affray.errors import AffrayError
from affray.events.fivestep.kinds import (
    PrimaryAttackRolled,
    RoundStarted,
    SideMargin,
    SideScore,
    SurpriseChecked,
)
from affray.handlers.fivestep.host import Arena, FivestepHost
from affray.handlers.fivestep.turns import turn
from affray.kernel.space import distance
from affray.npc.field import watch_of
from affray.rules.fivestep.dice import D100
from affray.rules.fivestep.sequence import (
    ROUND_MS,
    PrimaryOrder,
    Tie,
    order_rolled,
    pass_attack,
    primary_order,
    primary_score,
    resolve_surprise,
    side_average,
    sides_acting,
    slot_joiner,
    surprise_again,
    surprise_target,
)

Process = Generator[Any, Any, None]
MAX_REROLLS = 100
"""Ties are rolled again; this many in a row means the dice cannot separate the sides (manual dice)."""


class RoundKeeper:
    """What the rounds remember between rounds: the order, quiet rounds, sight, and damage per round."""

    def __init__(self, encounter: Arena, battle: FivestepHost) -> None:
        self.encounter = encounter
        self.battle = battle
        self.order: PrimaryOrder | None = None
        self.joined: list[str] = []
        self.quiet_rounds = 0
        self.in_sight = True
        self.taken_before: dict[str, Decimal] = {}
        self.taken_last_round: dict[str, Decimal] = {}
        self.watch = watch_of(encounter)

    # --- sides -------------------------------------------------------------------------------------

    def members(self, side: str) -> list[str]:
        """The standing characters of ``side``, in file order."""
        now = self.encounter.now
        return [
            c.id
            for c in self.encounter.state.combatants.values()
            if c.side == side and c.special.body != "computer" and not c.incapacitated(int(now))
        ]

    def join_due(self) -> list[str]:
        """Sides whose time to join has come, in order of first appearance; they enter now."""
        due = []
        for fighter in self.battle.fighters.values():
            side = fighter.spec.side
            if (
                side not in self.joined
                and side not in due
                and self.battle.joins_at_ms(side) <= self.encounter.now
            ):
                due.append(side)
        for side in due:
            self.battle.join(self.encounter, side)
            self.joined.append(side)
        return due

    def sight(self) -> bool:
        """Rule F5: whether any two standing enemies are within ``options.sight_m`` of each other."""
        limit = self.battle.options.sight_m
        if limit is None:
            return True
        reach = Decimal(str(limit))
        standing = [
            c
            for c in self.encounter.state.combatants.values()
            if not c.incapacitated(int(self.encounter.now))
        ]
        return any(
            a.side != b.side and distance(a.position, b.position) <= reach for a in standing for b in standing
        )

    # --- surprise (F5) -----------------------------------------------------------------------------

    def _surprise_figure(self, side: str) -> tuple[Decimal, Decimal | None, Decimal]:
        """The side's average Perception, its alertness figure, and the target it rolls under (F2, F5)."""
        state = self.encounter.state
        alert = state.rounds.alertness
        members = [self.battle.fighters[m].spec for m in self.members(side)]
        perception = side_average([m.perception for m in members])
        procedure = self.battle.procedures.surprise
        if procedure == 1:
            return perception, None, surprise_target(1, [m.perception for m in members])
        if procedure == 2:
            spec = self.battle.sides.get(side)
            side_alertness = alert.get(side, spec.alertness if spec else 50)
            target = surprise_target(2, [m.perception for m in members], side_alertness=side_alertness)
            return perception, Decimal(side_alertness), target
        conditions = [alert.get(m.id, m.alertness) for m in members]
        target = surprise_target(3, [m.perception for m in members], alertness=conditions)
        return perception, side_average(conditions), target

    def check_surprise(self, round_number: int, reason: str) -> str | None:
        """Rule F5: every side rolls; ties roll again. The winner, or None (``need_under``)."""
        sides = [s for s in self.joined if self.members(s)]
        procedure = self.battle.procedures.surprise
        for _ in range(MAX_REROLLS):
            figures = {side: self._surprise_figure(side) for side in sides}
            rolls = {side: self.encounter.dice.roll(side, "surprise", str(D100)) for side in sides}
            result = resolve_surprise(
                {side: f[2] for side, f in figures.items()},
                {side: roll.total for side, roll in rolls.items()},
                need_under=self.battle.options.need_under,
            )
            margins = tuple(
                SideMargin(
                    side=side,
                    perception=figures[side][0],
                    alertness=figures[side][1],
                    target=figures[side][2],
                    roll=rolls[side],
                    margin=figures[side][2] - rolls[side].total,
                )
                for side in sides
            )
            if isinstance(result, Tie):
                self.encounter.emit(
                    SurpriseChecked(
                        round=round_number, procedure=procedure, reason=reason, margins=margins, outcome="tie"
                    )
                )
                continue
            self.encounter.emit(
                SurpriseChecked(
                    round=round_number,
                    procedure=procedure,
                    reason=reason,
                    margins=margins,
                    outcome="surprise" if result.winner else "none",
                    winner=result.winner,
                    surprised=result.surprised,
                )
            )
            return result.winner
        raise _undecided("surprise")

    # --- primary attack (F6) -----------------------------------------------------------------------

    def _damage_percent(self, side: str) -> Decimal:
        """Rule F6, procedure 2: the side's average of its members' damage % in the preceding round."""
        state = self.encounter.state
        percents = [
            self.taken_last_round.get(c.id, Decimal(0)) * 100 / c.damage_points
            for c in state.combatants.values()
            if c.side == side and c.special.body != "computer"
        ]
        return side_average(percents)

    def _scores(self, sides: list[str], procedure: int) -> dict[str, SideScore]:
        scores = {}
        for side in sides:
            roll = self.encounter.dice.roll(side, "primary attack", str(D100))
            damage = self._damage_percent(side) if procedure == 2 else Decimal(0)
            score = primary_score(roll.total, damage, damage_slows=self.battle.options.damage_slows)
            scores[side] = SideScore(side=side, roll=roll, damage_percent=damage, score=score)
        return scores

    def settle_order(self, round_number: int, joiner: str | None = None) -> PrimaryOrder:
        """Rule F6: every side present rolls, or a ``joiner`` rolls to be slotted into the order; ties roll
        again; the side that comes first passes if it ``passes``. A joiner is not given the first round's
        sole attack (ruling 13)."""
        procedure = self.battle.procedures.primary_attack
        base = self.battle.procedures.primary_each_round if procedure == 3 else procedure
        rolling = [joiner] if joiner is not None else [s for s in self.joined if self.members(s)]
        for _ in range(MAX_REROLLS):
            scores = self._scores(rolling, base)
            order = self._ordered(scores, joiner)
            self.encounter.emit(
                PrimaryAttackRolled(
                    round=round_number,
                    procedure=procedure,
                    each_round=base if procedure == 3 else None,
                    scores=tuple(scores.values()),
                    outcome="tie" if isinstance(order, Tie) else "order",
                    order=order.sides if isinstance(order, PrimaryOrder) else (),
                    sole_attack=isinstance(order, PrimaryOrder) and order.sole_attack,
                    passed=order.passed if isinstance(order, PrimaryOrder) else None,
                    joiner=joiner,
                )
            )
            if isinstance(order, PrimaryOrder):
                return order
        raise _undecided("primary attack")

    def _ordered(self, scores: dict[str, SideScore], joiner: str | None) -> PrimaryOrder | Tie:
        """Rule F6: the order the scores give (a ``joiner`` slotted into the order kept, with no sole
        attack: ruling 13), the first side passing if it ``passes``; or a tie, to roll again."""
        if joiner is None:
            order = primary_order({side: s.score for side, s in scores.items()})
        else:
            assert self.order is not None
            order = slot_joiner(self.order, joiner, scores[joiner].score)
        if isinstance(order, Tie):
            return order
        if joiner is not None:
            order = msgspec.structs.replace(order, sole_attack=False)
        first = self.battle.sides.get(order.sides[0])
        if first is not None and first.passes and order.passed is None:
            order = pass_attack(order)
        return order

    # --- the round ---------------------------------------------------------------------------------

    def start_round(self, round_number: int) -> tuple[str, ...]:
        """Rules F4-F6: join, check surprise when due, roll or keep the order; the sides acting."""
        joiners = self.join_due()
        pieces = self.battle.options.sub_turns
        present = tuple(side for side in self.joined if self.members(side))
        if len(present) < 2:
            # The other sides have only computers (or the fallen) left: nobody to surprise or to order.
            reason = f"only side {present[0]} has anyone to act" if present else "nobody can act"
            self.encounter.emit(
                RoundStarted(round=round_number, acting=present, reason=reason, pieces=pieces)
            )
            return present
        winner = self._surprise(round_number)
        rolled = self.order is None or order_rolled(self.battle.procedures.primary_attack, round_number)
        if rolled:
            self.order = self.settle_order(round_number)
        else:
            assert self.order is not None
            for side in joiners:
                if self.members(side):  # a side of computers alone never acts, so it takes no place
                    self.order = self.settle_order(round_number, joiner=side)
        acting = sides_acting(self.order, surprise_winner=winner, sole_attack=rolled)
        if winner is not None:
            reason = f"side {winner} has surprise"
        elif len(acting) == 1 and len(self.order.sides) > 1:
            reason = f"side {acting[0]} has the sole attack"
        else:
            reason = "every side, in the order of primary attack"
        self.encounter.emit(RoundStarted(round=round_number, acting=acting, reason=reason, pieces=pieces))
        return acting

    def _surprise(self, round_number: int) -> str | None:
        """Rule F5: surprise checked when the fight begins in sight, when the sides come into sight, or
        after rounds without combat; the side that has it (None: none, or not checked)."""
        sight_before, self.in_sight = self.in_sight, self.sight()
        if not self.in_sight:
            return None
        if round_number == 1:
            return self.check_surprise(round_number, "the fight begins")
        if not surprise_again(sight_lost=not sight_before, quiet_rounds=self.quiet_rounds):
            return None
        why = (
            "the sides come into sight" if not sight_before else f"{self.quiet_rounds} rounds without combat"
        )
        winner = self.check_surprise(round_number, why)
        self.quiet_rounds = 0
        return winner

    def remember_damage(self) -> None:
        """Damage taken in the round just over, for the next primary attack roll (procedure 2)."""
        now = {c.id: c.damage_taken for c in self.encounter.state.combatants.values()}
        self.taken_last_round = {k: v - self.taken_before.get(k, Decimal(0)) for k, v in now.items()}
        self.taken_before = now


def _undecided(what: str) -> Exception:
    return AffrayError(f"{what}: {MAX_REROLLS} ties in a row; the dice cannot separate the sides")


def rounds(encounter: Arena, battle: FivestepHost) -> Process:
    """Rules F3-F7 on the clock: round after round of 5 s until the encounter ends."""
    keeper = RoundKeeper(encounter, battle)
    round_number = 0
    limit = battle.scenario.max_seconds * 1000
    while not encounter.state.ended and encounter.now < limit:
        round_number += 1
        start = int(encounter.now)
        attacks_before = sum(c.attacks for c in encounter.state.combatants.values())
        acting = keeper.start_round(round_number)
        turns = [
            encounter.process(
                turn(encounter, battle, battle.fighters[member], round_number, start, place, keeper.watch)
            )
            for place, side in enumerate(acting)
            for member in keeper.members(side)
        ]
        if turns:
            yield encounter.all_of(turns)
        if encounter.state.ended:
            return
        attacks = sum(c.attacks for c in encounter.state.combatants.values())
        keeper.quiet_rounds = 0 if attacks > attacks_before else keeper.quiet_rounds + 1
        keeper.remember_damage()
        left = start + ROUND_MS - int(encounter.now)
        if left > 0:
            yield encounter.timeout(left)
