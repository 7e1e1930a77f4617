"""The five-step sequence (seed 000): sides, surprise, primary attack, turns, rounds and Agility Points.

Rules F2-F7. Pure functions over ints and Decimals: every roll (a d100 per side) is an argument, and a
result carries its derivation (targets, rolls, margins, scores) so an event can record it.

RULINGS (each also in docs/rulesets/fivestep.md):

- F2: a side's score is the plain mean of its members' scores, exact in decimals; an individual's is
  its own (the mean of one). Only surprise and primary attack use the side's score.
- F5: every procedure names "the side most below, or the least above": one side always wins surprise,
  even when no side rolled under. Option ``need_under``: a winner that did not roll under gets nothing.
- F5: "under" is strictly under (a roll equal to the target is 0 below, not under).
- F5/F6: sides level at the top are a tie: :class:`Tie`, and every side rolls again (F6 says so for
  primary attack; surprise follows it).
- F5: alertness rises after an attack by at least 1 point (the referee says how much), at most to 100.
- F6: procedure 2 subtracts half the side's damage percentage from its roll, as printed (lowest first, so
  a hurt side acts sooner). Option ``damage_slows``: add it instead.
- F6: "thirty percent or more above the next" is read as 30 points or more *better* (lower) than the
  side in second place: then the first side has the round's only attack. Under procedure 1 the order is
  rolled once, so the sole attack applies to that first round only.
- F6: a side that passes gives up the sole attack: the round runs in full, the passer last.
- F6: a joiner is slotted by its score among the rolled sides (after them on an equal score would be a
  tie: it rolls again); a side that passed stays last.
- F3/F7: a round is 5 s. Time for Agility Points spent: 5 s x spent / the Agility attribute, rounded to
  the millisecond, halves up; a turn never outlasts the round (points borrowed let a character do more in
  the same 5 s).
- F7: borrowing is in threes (3 next-turn points for 1 now); only the last points of the next turn may be
  fewer than 3, and their remainder is lost. Borrowing all of them makes the next turn a no-move turn,
  during which no borrowing is allowed.
- F7: an action costing more than the points left cannot be started (borrow first).
- F7: Table 3-6 percent costs become points of the Agility attribute, halves up, at least 1 for a cost
  above 0.
- F7: sub-turns split the 5 s at whole milliseconds (boundary i at 5000 x i / N, halves up) and the
  points into whole pieces, the remainder going one each to the first pieces.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from typing import Literal

import msgspec

from affray.rules.fivestep.usertables import Tables, require

__all__ = [
    "BORROW_RATE",
    "ONCE_STEPS",
    "PER_PLAYER_STEPS",
    "QUIET_ROUNDS",
    "ROUND_MS",
    "SOLE_ATTACK_LEAD",
    "STEPS",
    "SUB_TURNS",
    "PrimaryOrder",
    "SideMargin",
    "Slot",
    "Step",
    "StepCall",
    "SubTurn",
    "Surprise",
    "Tie",
    "TurnAP",
    "acting_score",
    "action_cost",
    "alertness_condition",
    "borrow",
    "next_turn",
    "order_rolled",
    "pass_attack",
    "primary_order",
    "primary_score",
    "raise_alertness",
    "resolve_surprise",
    "round_steps",
    "side_average",
    "sides_acting",
    "slot_joiner",
    "spend",
    "start_turn",
    "sub_turns",
    "surprise_again",
    "surprise_target",
    "time_for_ap",
]

ROUND_MS = 5000
"""Rule F3: a round (and a full turn) is 5 s of game time."""
SOLE_ATTACK_LEAD = 30
"""Rule F6: a side 30 or more better than the next has the round's only attack."""
BORROW_RATE = 3
"""Rule F7: 3 points borrowed from the next turn give 1 point now."""
SUB_TURNS = 5
"""Rule F7: the usual number of sub-turns a turn is cut into."""
QUIET_ROUNDS = 2
"""Rule F5: surprise is checked again after combat stops for 2 rounds or more."""


class Step(StrEnum):
    """Rule F4: the five steps of combat."""

    SURPRISE = "surprise"
    PRIMARY_ATTACK = "primary_attack"
    ACTION = "action"
    PERCENT_TO_HIT = "percent_to_hit"
    DAMAGE = "damage"


STEPS = (Step.SURPRISE, Step.PRIMARY_ATTACK, Step.ACTION, Step.PERCENT_TO_HIT, Step.DAMAGE)
"""Rule F4: the steps in the text's order (1 to 5)."""
ONCE_STEPS = STEPS[:2]
"""Rule F4: steps 1 and 2 are taken for all sides at once."""
PER_PLAYER_STEPS = STEPS[2:]
"""Rule F4: steps 3 to 5 repeat for each player (6) of each side (7), round after round (8)."""


class _Record(msgspec.Struct, frozen=True, kw_only=True):
    """Base of the results: immutable, keyword-only."""


def _d(value: int | Decimal) -> Decimal:
    return Decimal(value)


# --- F2 sides ---------------------------------------------------------------------------------------


def side_average(scores: Sequence[int | Decimal]) -> Decimal:
    """Rule F2: a team acting as a whole uses its members' average (an individual's is its own score)."""
    if not scores:
        raise ValueError("a side has at least one member")
    return sum((_d(s) for s in scores), Decimal(0)) / len(scores)


def acting_score(own: int | Decimal, team: Sequence[int | Decimal], *, as_whole: bool) -> Decimal:
    """Rule F2: the team's average when it acts as a whole (surprise, primary attack), else ``own``."""
    return side_average(team) if as_whole else _d(own)


# --- F5 surprise ------------------------------------------------------------------------------------


def alertness_condition(alertness: int | Decimal, perception: int | Decimal) -> Decimal:
    """Rule F5: an Alertness Condition is the mean of an Alertness % and a Perception."""
    return (_d(alertness) + _d(perception)) / 2


def surprise_target(
    procedure: Literal[1, 2, 3],
    perceptions: Sequence[int],
    *,
    side_alertness: int | None = None,
    alertness: Sequence[int] = (),
) -> Decimal:
    """Rule F5: the figure a side rolls d100 against.

    (1) the side's average Perception; (2) the mean of the side's Alertness % and its average Perception;
    (3) each member's Alertness Condition % averaged with its Perception, averaged over the side
    (``alertness`` lists the members' conditions in the order of ``perceptions``).
    """
    if procedure == 1:
        return side_average(perceptions)
    if procedure == 2:
        if side_alertness is None:
            raise ValueError("surprise procedure 2 needs the side's Alertness %")
        return alertness_condition(side_alertness, side_average(perceptions))
    if len(alertness) != len(perceptions):
        raise ValueError("surprise procedure 3 needs one Alertness Condition per member")
    return side_average([alertness_condition(a, p) for a, p in zip(alertness, perceptions, strict=True)])


class SideMargin(_Record, frozen=True):
    """Rule F5: a side's target, its d100 roll, and how far below the target it rolled (negative: above)."""

    side: str
    target: Decimal
    roll: int
    margin: Decimal


class Tie(_Record, frozen=True):
    """Rules F5/F6: no single side leads; every side rolls again (``sides`` are the level ones)."""

    sides: tuple[str, ...]
    result: Literal["tie"] = "tie"


class Surprise(_Record, frozen=True):
    """Rule F5: who has surprise (``winner``, None under ``need_under`` when nobody rolled under) and who
    is surprised: they get no turn this round."""

    margins: tuple[SideMargin, ...]
    winner: str | None
    surprised: tuple[str, ...]


def _check_rolls(rolls: Mapping[str, int]) -> None:
    if len(rolls) < 2:
        raise ValueError("surprise and primary attack need at least two sides")
    for side, roll in rolls.items():
        if not 1 <= roll <= 100:
            raise ValueError(f"a d100 roll is 1 to 100, got {roll} for {side!r}")


def resolve_surprise(
    targets: Mapping[str, Decimal], rolls: Mapping[str, int], *, need_under: bool = False
) -> Surprise | Tie:
    """Rule F5: the side that rolled most below (or least above) its target gets surprise; every other
    side is surprised. A shared best margin is a :class:`Tie` (roll again)."""
    _check_rolls(rolls)
    if set(targets) != set(rolls):
        raise ValueError("every side needs a target and a roll")
    margins = tuple(
        SideMargin(side=side, target=targets[side], roll=roll, margin=targets[side] - roll)
        for side, roll in rolls.items()
    )
    best = max(m.margin for m in margins)
    leaders = tuple(m.side for m in margins if m.margin == best)
    if need_under and best <= 0:
        return Surprise(margins=margins, winner=None, surprised=())
    if len(leaders) > 1:
        return Tie(sides=leaders)
    winner = leaders[0]
    return Surprise(
        margins=margins, winner=winner, surprised=tuple(m.side for m in margins if m.side != winner)
    )


def raise_alertness(current: int, increase: int) -> int:
    """Rule F5: after an attack alertness always rises (by the referee's ``increase``, at least 1), at
    most to 100."""
    if increase < 1:
        raise ValueError(f"alertness always rises after an attack: an increase is 1 or more, got {increase}")
    return min(current + increase, 100)


def surprise_again(*, sight_lost: bool, quiet_rounds: int) -> bool:
    """Rule F5: surprise is checked again when the sides lose sight of each other or combat stops for 2
    rounds or more."""
    return sight_lost or quiet_rounds >= QUIET_ROUNDS


# --- F6 primary attack ------------------------------------------------------------------------------


def primary_score(roll: int, damage_percent: int | Decimal = 0, *, damage_slows: bool = False) -> Decimal:
    """Rule F6: procedure 1 scores the d100 roll; procedure 2 subtracts half the damage percentage the side
    took in the preceding turn (``damage_slows`` adds it instead)."""
    half = _d(damage_percent) / 2
    return _d(roll) + half if damage_slows else _d(roll) - half


class Slot(_Record, frozen=True):
    """Rule F6: a side's place in the order and the score that put it there."""

    side: str
    score: Decimal


class PrimaryOrder(_Record, frozen=True):
    """Rule F6: the sides in attack order, lowest score first; ``sole_attack`` when the first side is 30 or
    more ahead of the second; ``passed`` names a side that passed and now acts last."""

    slots: tuple[Slot, ...]
    sole_attack: bool = False
    passed: str | None = None

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides in the order they act."""
        return tuple(slot.side for slot in self.slots)


def _ties(scores: Sequence[Slot]) -> tuple[str, ...]:
    seen: dict[Decimal, list[str]] = {}
    for slot in scores:
        seen.setdefault(slot.score, []).append(slot.side)
    return tuple(side for sides in seen.values() if len(sides) > 1 for side in sides)


def primary_order(scores: Mapping[str, Decimal]) -> PrimaryOrder | Tie:
    """Rule F6: the side with the lowest score attacks first, the next lowest second, and so on; equal
    scores are a :class:`Tie` (every side rolls again)."""
    if len(scores) < 2:
        raise ValueError("primary attack needs at least two sides")
    slots = sorted((Slot(side=side, score=score) for side, score in scores.items()), key=lambda s: s.score)
    tied = _ties(slots)
    if tied:
        return Tie(sides=tied)
    sole = slots[1].score - slots[0].score >= SOLE_ATTACK_LEAD
    return PrimaryOrder(slots=tuple(slots), sole_attack=sole)


def pass_attack(order: PrimaryOrder) -> PrimaryOrder:
    """Rule F6: the side with primary attack passes: the others move up one place and it acts last (and it
    gives up a sole attack)."""
    if order.passed is not None:
        raise ValueError(f"{order.passed!r} has already passed this order")
    first, *rest = order.slots
    return PrimaryOrder(slots=(*rest, first), sole_attack=False, passed=first.side)


def slot_joiner(order: PrimaryOrder, side: str, score: Decimal) -> PrimaryOrder | Tie:
    """Rule F6: a side joining a fight is slotted by the same procedure: before the first rolled side with
    a higher score (a side that passed stays last); an equal score is a :class:`Tie` for the joiner
    alone."""
    if side in order.sides:
        raise ValueError(f"{side!r} is already in the order")
    rolled = [s for s in order.slots if s.side != order.passed]
    level = [s.side for s in rolled if s.score == score]
    if level:
        return Tie(sides=(*level, side))
    index = next((i for i, s in enumerate(rolled) if s.score > score), len(rolled))
    rolled.insert(index, Slot(side=side, score=score))
    last = [s for s in order.slots if s.side == order.passed]
    return PrimaryOrder(slots=(*rolled, *last), sole_attack=order.sole_attack, passed=order.passed)


def order_rolled(procedure: Literal[1, 2, 3], round_number: int) -> bool:
    """Rule F6: whether the order is rolled at the start of round ``round_number`` (1 is the first):
    procedures 1 and 2 roll once, at the beginning of combat; procedure 3 rolls every round."""
    if round_number < 1:
        raise ValueError(f"rounds count from 1, got {round_number}")
    return procedure == 3 or round_number == 1


def sides_acting(
    order: PrimaryOrder, *, surprise_winner: str | None = None, sole_attack: bool = True
) -> tuple[str, ...]:
    """Rules F5/F6: the sides that take a turn this round, in order: only the side with surprise; else
    only the first side when it has the sole attack (and ``sole_attack`` says this round was rolled, see
    :func:`order_rolled`); else every side."""
    if surprise_winner is not None:
        if surprise_winner not in order.sides:
            raise ValueError(f"{surprise_winner!r} is not in the order")
        return (surprise_winner,)
    if sole_attack and order.sole_attack:
        return order.sides[:1]
    return order.sides


# --- F4 the sequence --------------------------------------------------------------------------------


class StepCall(_Record, frozen=True):
    """Rule F4: one step to take: for all sides (``side`` None) or for one player of one side."""

    step: Step
    side: str | None = None
    player: str | None = None


def round_steps(
    sides: Sequence[tuple[str, Sequence[str]]], *, check_surprise: bool, roll_primary: bool
) -> tuple[StepCall, ...]:
    """Rule F4: a round's steps: surprise (1) and primary attack (2) when due, then action, percent to hit
    and damage (3-5) for each player (6) of each side in order (7). ``sides`` are the acting sides (see
    :func:`sides_acting`) with their players in turn order; a round is repeated until resolution (8)."""
    calls: list[StepCall] = []
    if check_surprise:
        calls.append(StepCall(step=Step.SURPRISE))
    if roll_primary:
        calls.append(StepCall(step=Step.PRIMARY_ATTACK))
    for side, players in sides:
        for player in players:
            calls.extend(StepCall(step=step, side=side, player=player) for step in PER_PLAYER_STEPS)
    return tuple(calls)


# --- F3/F7 turns, time and Agility Points ------------------------------------------------------------


def _ms(value: Decimal) -> int:
    return int(value.to_integral_value(rounding=ROUND_HALF_UP))


def time_for_ap(spent: int, agility: int) -> int:
    """Rules F3/F7: milliseconds ``spent`` points take: 0.5 s per 10 % of the Agility Points, so
    ``5000 x spent / agility`` rounded half up, at most the round's 5000 (55 AP, 11 spent: 1000 ms)."""
    if agility < 1:
        raise ValueError(f"Agility Points are 1 or more, got {agility}")
    if spent < 0:
        raise ValueError(f"points spent are 0 or more, got {spent}")
    return min(_ms(_d(ROUND_MS) * spent / agility), ROUND_MS)


class TurnAP(_Record, frozen=True):
    """Rule F7: a character's Agility Points in one turn.

    ``agility`` is the attribute (a full turn's points); ``available`` the points still to spend this turn
    (borrowed ones included); ``spent`` those spent; ``borrowed`` the next-turn points taken so far;
    ``no_move`` marks a turn whose points were all borrowed before it began.
    """

    agility: int
    available: int
    spent: int = 0
    borrowed: int = 0
    no_move: bool = False


def start_turn(agility: int) -> TurnAP:
    """Rule F7 (procedure 2): a turn's Agility Points equal the Agility attribute."""
    if agility < 1:
        raise ValueError(f"the Agility attribute is 1 or more, got {agility}")
    return TurnAP(agility=agility, available=agility)


def spend(turn: TurnAP, cost: int) -> TurnAP:
    """Rule F7: pay an action's cost; ValueError when it costs more than the points left."""
    if cost < 0:
        raise ValueError(f"a cost is 0 or more, got {cost}")
    if cost > turn.available:
        raise ValueError(f"the action costs {cost} AP and {turn.available} are left: borrow first")
    return msgspec.structs.replace(turn, available=turn.available - cost, spent=turn.spent + cost)


def borrow(turn: TurnAP, points: int) -> TurnAP:
    """Rule F7: take ``points`` from the next turn for ``points // 3`` more now.

    Points come in threes, except the next turn's last points; the next turn must cover them; a no-move
    turn cannot borrow.
    """
    if turn.no_move:
        raise ValueError("no borrowing until the no-move turn is over")
    left = turn.agility - turn.borrowed
    if not 1 <= points <= left:
        raise ValueError(f"the next turn has {left} AP left to borrow, asked for {points}")
    if points % BORROW_RATE and points != left:
        raise ValueError(f"points are borrowed in threes (3 for 1), got {points}")
    gained = points // BORROW_RATE
    return msgspec.structs.replace(turn, available=turn.available + gained, borrowed=turn.borrowed + points)


def next_turn(turn: TurnAP) -> TurnAP:
    """Rule F7: the next turn has the attribute's points less those borrowed; all borrowed makes it a
    no-move turn."""
    available = turn.agility - turn.borrowed
    return TurnAP(agility=turn.agility, available=available, no_move=available == 0)


def action_cost(tables: Tables, action: str, agility: int) -> int:
    """Rule F7 (procedure 2): an action's cost in points from Table 3-6 (user-supplied); percent costs are
    of the Agility attribute, halves up, at least 1 for a cost above 0."""
    table = require(tables, "3-6", "procedure 2 for action")
    cost = table.named(action).cost
    if table.unit == "points":
        return _ms(cost)
    points = _ms(cost * agility / 100)
    return max(points, 1) if cost > 0 else 0


class SubTurn(_Record, frozen=True):
    """Rule F7: one piece of a turn: from ``start_ms`` to ``end_ms`` of the round, with ``ap`` points."""

    start_ms: int
    end_ms: int
    ap: int


def sub_turns(agility: int, pieces: int = SUB_TURNS) -> tuple[SubTurn, ...]:
    """Rule F7: cut a turn and its Agility Points into ``pieces`` (5 by default): 55 AP -> 5 x 11 AP, each
    1000 ms."""
    if not 1 <= pieces <= ROUND_MS:
        raise ValueError(f"a turn is cut into 1 to {ROUND_MS} pieces, got {pieces}")
    if agility < 0:
        raise ValueError(f"Agility Points are 0 or more, got {agility}")
    share, extra = divmod(agility, pieces)
    bounds = [_ms(_d(ROUND_MS) * i / pieces) for i in range(pieces + 1)]
    return tuple(
        SubTurn(start_ms=bounds[i], end_ms=bounds[i + 1], ap=share + (1 if i < extra else 0))
        for i in range(pieces)
    )
