"""Odds: each side's chance to win at every point of a recorded fight, and the luck of every roll.

Point 0 is the fight before any roll; point ``i`` is the fight with its first ``i`` rolls as recorded and
every later roll drawn from a sample's own seed (the same seeds at every point: common random numbers).
A side's chance at a point is the share of samples it wins, with Wilson's 95 % interval. The last point,
every roll as recorded, is the recorded fight itself: its result, exactly.

The **luck** of roll ``i`` for a side is its chance after the roll less its chance before (GnuBG's
measure: by the law of total probability the chance before a roll is the mean over its faces of the
chance after it). The jumps at the rolls add up to the whole change from the opening chance to the
result; what they do not account for is **the rest** (decisions made outside the dice). docs/odds.md
says how, and what the figures cannot say.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import msgspec

from affray.batch.runner import CHUNK, BatchSpec, Done, run_tasks
from affray.batch.stats import Z_95, wilson

PIVOTAL = 5
"""How many of the largest swings a report names."""
ROUND = CHUNK
"""Samples are added to a point a chunk at a time."""


class Chance(msgspec.Struct, frozen=True):
    """A chance (0 to 1) with its 95 % interval."""

    chance: float
    low: float
    high: float


class PointOdds(msgspec.Struct, frozen=True):
    """Each side's chance to win at one point of the fight, and the chance that no side wins, from
    ``samples`` fights (0: the recorded fight itself, every roll as it was: exact)."""

    sides: dict[str, Chance]
    no_winner: Chance
    samples: int


class RollLabel(msgspec.Struct, frozen=True):
    """A roll as the report names it: stream and draw, its faces and total, who rolled it for which
    side, and the event that holds it."""

    key: str
    expr: str
    faces: list[int]
    total: int
    roller: str
    side: str | None
    seq: int
    t: int
    kind: str


class RollOdds(msgspec.Struct, frozen=True):
    """One roll: the chances just before and just after it, and its luck for each side (the jump, with
    the 95 % interval of the paired samples' differences)."""

    roll: RollLabel
    before: PointOdds
    after: PointOdds
    luck: dict[str, Chance]


class SideSplit(msgspec.Struct, frozen=True):
    """A side's whole change from its opening chance to the result, split into luck (the sum of its jumps
    at the rolls) and the rest."""

    side: str
    opening: float
    final: float
    luck: float
    rest: float


class OddsReport(msgspec.Struct, frozen=True):
    """A recorded fight's odds: the opening, every roll, the pivotal rolls (keys, largest swing of the
    recorded outcome first), each side's split, and the sentence a referee can read out."""

    name: str
    log_end: str
    """The hash of the end line of the log whose odds these are (docs/log-format.md): a tool drawing them
    beside a log checks that they are its odds."""
    within: float
    """How closely each chance was to be known, either way (0 to 1)."""
    most: int
    """The most samples a point was given."""
    seed: int
    sides: list[str]
    winner: str | None
    opening: PointOdds
    rolls: list[RollOdds]
    pivotal: list[str]
    split: list[SideSplit]
    sentence: str


Winners = Sequence[str | None]
"""Who won each sample at one point, in sample order (None: no side)."""


def point_odds(winners: Winners, sides: Sequence[str]) -> PointOdds:
    """Each side's share of ``winners`` with its interval, and the share with no winner."""
    trials = len(winners)
    counts = {side: 0 for side in sides}
    nobody = 0
    for winner in winners:
        if winner is None:
            nobody += 1
        else:
            counts[winner] += 1
    return PointOdds(
        sides={side: _chance(count, trials) for side, count in counts.items()},
        no_winner=_chance(nobody, trials),
        samples=trials,
    )


def recorded_odds(winner: str | None, sides: Sequence[str]) -> PointOdds:
    """The odds once every roll is as recorded: the recorded result, certain."""
    return PointOdds(
        sides={side: _certain(side == winner) for side in sides},
        no_winner=_certain(winner is None),
        samples=0,
    )


def _certain(won: bool) -> Chance:
    return Chance(float(won), float(won), float(won))


def _chance(count: int, trials: int) -> Chance:
    low, high = wilson(count, trials)
    return Chance(count / trials if trials else 0.0, low, high)


@dataclass(frozen=True)
class Sampling:
    """How a fight's points are sampled: until each side's chance (and that of no winner) is known within
    ``within`` (0 to 1) either way at 95 %, at most ``most`` samples a point; their batch's ``seed``; on
    ``jobs`` processes or the Dask cluster at ``scheduler``."""

    within: float
    most: int
    seed: int
    jobs: int = 1
    scheduler: str | None = None


Grow = Callable[[int], None]
"""``grow(n)``: n more samples are to be fought than were counted so far (for progress)."""


def sample_points(
    specs: Sequence[BatchSpec],
    sides: Sequence[str],
    how: Sampling,
    done: Done | None = None,
    grow: Grow | None = None,
) -> list[list[str | None]]:
    """The winners of the samples at each point (``specs[i]``): samples ``0..n-1`` at every point, the same
    seeds, in rounds, each point given more until it is known well enough or has ``most``."""
    winners_at: list[list[str | None]] = [[] for _ in specs]
    wanted = [min(_first_round(how.within), how.most)] * len(specs)
    if grow:
        grow(sum(wanted))
    while True:
        points = [
            (index, task)
            for index, (have, want) in enumerate(zip(winners_at, wanted, strict=True))
            for task in chunks_between(len(have), want)
        ]
        if not points:
            return winners_at
        fought = run_tasks([(specs[i], task) for i, task in points], how.seed, how.jobs, done, how.scheduler)
        with contextlib.closing(fought):
            for (index, _), outcomes in zip(points, fought, strict=True):
                winners_at[index].extend(outcome.winner for outcome in outcomes)
        more = [_wanted(winners, sides, how) for winners in winners_at]
        if grow:
            grow(sum(m - len(w) for m, w in zip(more, winners_at, strict=True)))
        wanted = more


def chunks_between(start: int, end: int) -> list[range]:
    """Samples ``start`` to ``end - 1`` cut into tasks of at most a chunk."""
    return [range(at, min(at + ROUND, end)) for at in range(start, end, ROUND)]


def _first_round(within: float) -> int:
    """Enough samples that a chance seen as 0 (or 1) is known within ``within``: Wilson's bound for no
    success in n trials is z^2 / (n + z^2), so n >= z^2 (1 / within - 1); in whole chunks."""
    return _chunks_of(Z_95 * Z_95 * (1 / within - 1))


def _chunks_of(samples: float) -> int:
    return max(1, math.ceil(samples / ROUND)) * ROUND


def _wanted(winners: Winners, sides: Sequence[str], how: Sampling) -> int:
    """How many samples a point needs: as many as it has when every chance is known within ``within``;
    else enough for the least known of them (z^2 p (1 - p) / within^2, a tenth more), at least a chunk more
    and at most ``most``."""
    odds = point_odds(winners, sides)
    chances = [*odds.sides.values(), odds.no_winner]
    have = len(winners)
    if have >= how.most or all(max(c.chance - c.low, c.high - c.chance) <= how.within for c in chances):
        return have
    spread = max(c.chance * (1 - c.chance) for c in chances)
    needed = _chunks_of(1.1 * Z_95 * Z_95 * spread / (how.within * how.within))
    return min(how.most, max(needed, have + ROUND))


def jump(before: Winners, after: Winners, side: str | None) -> Chance:
    """The change of ``side``'s chance (None: of no winner) across a roll: the difference of the two
    points' chances, with the 95 % interval of the paired differences of the samples both points have
    (sample ``j`` before and after share its seed, so the pairs' spread is the jump's own)."""
    change = _share(after, side) - _share(before, side)
    differences = [(a == side) - (b == side) for b, a in zip(before, after, strict=False)]
    trials = len(differences)
    mean = sum(differences) / trials
    variance = max(sum(d * d for d in differences) / trials - mean * mean, 0.0)
    half = Z_95 * math.sqrt(variance / trials)
    return Chance(change, change - half, change + half)


def _share(winners: Winners, side: str | None) -> float:
    return sum(1 for winner in winners if winner == side) / len(winners)


def odds_report(
    name: str,
    log_end: str,
    how: Sampling,
    rolls: Sequence[RollLabel],
    sampled: Sequence[Winners],
    sides: Sequence[str],
    winner: str | None,
) -> OddsReport:
    """The report from each point's winners: ``sampled[0]`` before any roll, ``sampled[i]`` after roll
    ``i``, for every roll but the last; after the last, the recorded fight, won by ``winner``."""
    odds = [*(point_odds(point, sides) for point in sampled), recorded_odds(winner, sides)]
    paired = [*sampled, [winner] * max(map(len, sampled), default=0)]
    made = [
        RollOdds(
            roll=label,
            before=odds[index],
            after=odds[index + 1],
            luck={side: jump(paired[index], paired[index + 1], side) for side in sides},
        )
        for index, label in enumerate(rolls)
    ]
    split = [_split(side, odds[0].sides[side].chance, made, winner) for side in sides]
    pivotal = [r for r in sorted(made, key=lambda r: -abs(_luck_of(r, winner))) if _luck_of(r, winner)][
        :PIVOTAL
    ]
    return OddsReport(
        name=name,
        log_end=log_end,
        within=how.within,
        most=how.most,
        seed=how.seed,
        sides=list(sides),
        winner=winner,
        opening=odds[0],
        rolls=made,
        pivotal=[r.roll.key for r in pivotal],
        split=split,
        sentence=_sentence(odds[0], made, pivotal[0] if pivotal else None, winner, split),
    )


def _luck_of(made: RollOdds, outcome: str | None) -> float:
    """The jump of the recorded outcome's chance (a side's win, or no winner) across a roll."""
    if outcome is not None:
        return made.luck[outcome].chance
    return made.after.no_winner.chance - made.before.no_winner.chance


def _split(side: str, opening: float, made: Sequence[RollOdds], winner: str | None) -> SideSplit:
    final = 1.0 if side == winner else 0.0
    luck = sum(r.luck[side].chance for r in made)
    return SideSplit(side=side, opening=opening, final=final, luck=luck, rest=final - opening - luck)


def points(value: float) -> str:
    """A change of chance in percentage points, signed: ``+31``, ``-4``, ``0``."""
    rounded = round(value * 100)
    return f"{rounded:+d}" if rounded else "0"


def percent(value: float) -> str:
    """A chance as a whole percentage: ``61 %``; ``<1 %`` and ``>99 %`` near the ends, 0 and 100 at them."""
    if 0 < value < 0.005:
        return "<1 %"
    if 0.995 <= value < 1:
        return ">99 %"
    return f"{round(value * 100)} %"


def _unit(value: float) -> str:
    return "point" if abs(round(value * 100)) == 1 else "points"


def whose(name: str) -> str:
    """The possessive of a side's or combatant's name: ``ford's``, ``raiders'``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _sentence(
    opening: PointOdds,
    made: Sequence[RollOdds],
    top: RollOdds | None,
    winner: str | None,
    split: Sequence[SideSplit],
) -> str:
    """One sentence for the table: the largest swing of the recorded outcome, and how much of it was luck."""
    outcome = f"{whose(winner)} win" if winner is not None else "the fight ending without a winner"
    chance = f"{whose(winner)} chance" if winner is not None else "the chance of no winner"
    if winner is None:
        start = opening.no_winner.chance
        luck = sum(_luck_of(r, None) for r in made)
        rest = (1.0 - start) - luck
    else:
        side = next(s for s in split if s.side == winner)
        start, luck, rest = side.opening, side.luck, side.rest
    if top is None or not _luck_of(top, winner):
        return (
            f"No roll moved {chance} (from {percent(start)}); the rest accounts for {points(rest)} "
            f"{_unit(rest)} of {outcome}"
        )
    roll = top.roll
    before = top.before.sides[winner].chance if winner is not None else top.before.no_winner.chance
    after = top.after.sides[winner].chance if winner is not None else top.after.no_winner.chance
    face = roll.total if len(roll.faces) == 1 else f"{roll.total} ({'+'.join(map(str, roll.faces))})"
    return (
        f"{whose(roll.roller)} {face} at {roll.key}, seq {roll.seq}, moved {chance} from {percent(before)} "
        f"to {percent(after)}; luck accounts for {points(luck)} {_unit(luck)} of {outcome} (from "
        f"{percent(start)} at the start), the rest for {points(rest)}"
    )
