"""Odds (affray.batch.odds): chances at each point with their intervals, the luck of each roll, the split
into luck and the rest, the sampling in rounds; and the curve of a fight small enough to work out by hand.

The hand-worked fight is the toy's (tests/toy): Ada (skill 12, a swing every 2 s) and Bo (skill 8, every
3 s), one point each, so any hit kills; the time limit at 5 s leaves three swings in a known order: Ada at
2 s, Bo at 3 s, Ada at 4 s. A swing hits on a d20 at or under the skill: a = 12/20, b = 8/20.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray import rulesets
from affray.batch.odds import (
    Chance,
    PointOdds,
    RollLabel,
    Sampling,
    chunks_between,
    jump,
    odds_report,
    point_odds,
    recorded_odds,
)
from affray.cli.odds import fight_odds
from affray.events.codec import encode_log
from affray.events.reader import LogFile
from tests.strategies import read
from tests.toy import RULESET as TOY

A, B = Fraction(12, 20), Fraction(8, 20)
SWINGS = (("ada", 12), ("bo", 8), ("ada", 12))
"""The fight's swings in order: who swings, and the skill its d20 must not exceed."""


@pytest.fixture(autouse=True, scope="module")
def toy_registered() -> Iterator[None]:
    rulesets.register(TOY)
    yield
    rulesets.unregister(TOY.name)


def fight_log(seed: int) -> LogFile:
    """The toy fight's log under ``seed``."""
    ruleset, loaded = rulesets.load_mapping(toy_duel(seed), "toy.toml", None)
    return read(encode_log(ruleset.header(loaded), ruleset.battle(loaded).run().log))


def toy_duel(seed: int) -> dict[str, Any]:
    fighter = {"points": 1, "position": [0, 0]}
    return {
        "ruleset": "toy",
        "seed": seed,
        "name": "Three swings",
        "max_seconds": 5,
        "combatants": [
            {**fighter, "id": "ada", "name": "Ada", "side": "left", "skill": 12, "speed": 2},
            {
                **fighter,
                "id": "bo",
                "name": "Bo",
                "side": "right",
                "skill": 8,
                "speed": 3,
                "position": [1, 0],
            },
        ],
    }


def exact(fixed: dict[str, int]) -> dict[str | None, Fraction]:
    """Each outcome's exact chance with the swings in ``fixed`` (``ada/swing#1`` = its face) as rolled and
    the others still to roll: the first hit wins; three misses leave no winner."""
    chances: dict[str | None, Fraction] = {"left": Fraction(0), "right": Fraction(0), None: Fraction(0)}
    draws = {"ada": 0, "bo": 0}
    still = Fraction(1)  # the chance that every swing so far missed
    for who, skill in SWINGS:
        draws[who] += 1
        face = fixed.get(f"{who}/swing#{draws[who]}")
        hits = Fraction(face <= skill) if face is not None else Fraction(skill, 20)
        chances["left" if who == "ada" else "right"] += still * hits
        still *= 1 - hits
    chances[None] += still
    return chances


def test_the_opening_chances_worked_by_hand() -> None:
    # Ada wins at her first swing, or at her second after two misses: 0.6 + 0.4 x 0.6 x 0.6 = 0.744;
    # Bo at his only swing after Ada's miss: 0.4 x 0.4 = 0.16; no one: 0.4 x 0.6 x 0.4 = 0.096
    assert exact({}) == {
        "left": A + (1 - A) * (1 - B) * A,
        "right": (1 - A) * B,
        None: (1 - A) * (1 - B) * (1 - A),
    }
    assert exact({}) == {"left": Fraction(93, 125), "right": Fraction(4, 25), None: Fraction(12, 125)}


FIGHTS = [
    pytest.param(0, id="Ada hits at once"),
    pytest.param(15, id="Ada misses, Bo hits"),
    pytest.param(5, id="both miss, Ada hits"),
    pytest.param(13, id="all three miss"),
]
"""Seeds of the toy fight, one for each way it can go."""


def curve(
    seed: int, samples_seed: int, within: float = 0.03
) -> list[tuple[PointOdds, dict[str | None, Fraction]]]:
    """Each point of the fight's odds, with the exact chances at it."""
    report = fight_odds(
        fight_log(seed), "", "toy.jsonl", Sampling(within=within, most=4000, seed=samples_seed)
    )
    fixed = {made.roll.key: made.roll.total for made in report.rolls}
    keys = list(fixed)
    points = [report.opening, *(made.after for made in report.rolls)]
    return [(point, exact({key: fixed[key] for key in keys[:count]})) for count, point in enumerate(points)]


def outcomes(point: PointOdds) -> list[tuple[str | None, Chance]]:
    return [*point.sides.items(), (None, point.no_winner)]


@pytest.mark.parametrize("seed", FIGHTS)
def test_the_curve_is_the_exact_chance_at_every_roll_within_four_standard_errors(seed: int) -> None:
    for point, truth in curve(seed, seed):
        for side, chance in outcomes(point):
            p = float(truth[side])
            error = math.sqrt(p * (1 - p) / point.samples) if point.samples else 0.0
            assert abs(chance.chance - p) <= 4 * error + 1e-9, (side, chance, p, point.samples)


@pytest.mark.thorough  # a long test: .ci/run runs it after the quick suite
def test_the_intervals_hold_the_exact_chance_about_95_times_in_100() -> None:
    # every fight's every point and outcome, under 12 seeds of samples: a 95 % interval misses about 1 in 20
    held = [
        chance.low <= truth[side] <= chance.high
        for fight in (0, 15, 5, 13)
        for samples_seed in range(12)
        for point, truth in curve(fight, samples_seed, within=0.05)
        if point.samples
        for side, chance in outcomes(point)
        if 0 < truth[side] < 1  # a certain outcome's interval holds it whatever the samples
    ]
    assert len(held) > 200
    assert 0.9 <= sum(held) / len(held) <= 0.99


def test_a_point_gives_each_sides_share_and_the_share_with_no_winner() -> None:
    odds = point_odds(["a", "a", None, "b"], ["a", "b"])
    assert (odds.sides["a"].chance, odds.sides["b"].chance, odds.no_winner.chance, odds.samples) == (
        0.5,
        0.25,
        0.25,
        4,
    )


def test_a_chance_lies_in_its_interval() -> None:
    odds = point_odds(["a"] * 30 + ["b"] * 10, ["a", "b"])
    assert all(c.low <= c.chance <= c.high for c in odds.sides.values())


def test_every_roll_as_recorded_is_the_result_for_certain() -> None:
    odds = recorded_odds("b", ["a", "b"])
    assert (odds.sides["a"], odds.sides["b"], odds.no_winner) == (
        Chance(0.0, 0.0, 0.0),
        Chance(1.0, 1.0, 1.0),
        Chance(0.0, 0.0, 0.0),
    )


def test_a_jump_is_the_change_of_chance_with_the_paired_samples_interval() -> None:
    # samples 0-3 paired: differences 0, +1, 0, -1 -> mean 0 but chances 0.5 -> 0.5; spread of the pairs
    change = jump(["a", None, "a", "b"], ["a", "a", "a", None], "a")
    assert change.chance == 0.25
    assert change.low < change.chance < change.high


def test_a_jump_pairs_only_the_samples_both_points_have() -> None:
    # the point after has fewer samples: its chance is its own, the pairs are the first two
    change = jump(["a", "a", "b", "b"], ["a", "a"], "a")
    assert (change.chance, change.low, change.high) == (0.5, 0.5, 0.5)


@given(
    st.lists(st.lists(st.sampled_from(["a", "b", None]), min_size=5, max_size=5), min_size=1, max_size=8),
    st.sampled_from(["a", "b", None]),
)
def test_luck_and_the_rest_add_up_to_the_whole_change(
    sampled: list[list[str | None]], winner: str | None
) -> None:
    rolls = [
        RollLabel(f"x/hit#{i}", "1d100", [5], 5, "x", "a", i, i, "k") for i in range(1, len(sampled) + 1)
    ]
    report = odds_report("f", "", Sampling(0.03, 100, 1), rolls, sampled, ["a", "b"], winner)
    for side in report.split:
        assert side.final == (1.0 if side.side == winner else 0.0)
        assert side.luck == pytest.approx(side.final - side.opening)
        assert side.rest == pytest.approx(0.0, abs=1e-12)


def test_the_pivotal_rolls_are_the_largest_swings_of_the_result() -> None:
    sampled = [["a", "b"] * 5, ["a"] * 9 + ["b"], ["a"] * 9 + ["b"]]
    rolls = [RollLabel(f"x/hit#{i}", "1d100", [i], i, "x", "a", i, i, "k") for i in (1, 2, 3)]
    report = odds_report("f", "", Sampling(0.03, 100, 1), rolls, sampled, ["a", "b"], "a")
    # a: 0.5 -> 0.9 (+40) -> 0.9 (0) -> 1.0 (+10)
    assert report.pivotal == ["x/hit#1", "x/hit#3"]
    assert report.sentence.startswith("x's 1 at x/hit#1, seq 1, moved a's chance from 50 % to 90 %; luck")


def test_the_first_round_knows_a_chance_seen_as_none_within_the_margin() -> None:
    # Wilson's upper bound for no success in n is z^2 / (n + z^2): 3.84 / (128 + 3.84) = 2.9 % <= 3
    assert [len(r) for r in chunks_between(0, 128)] == [64, 64]
    odds = point_odds(["a"] * 128, ["a", "b"])
    assert odds.sides["b"].high <= 0.03


def test_a_point_near_even_is_given_samples_until_it_is_known_within_the_margin() -> None:
    report = fight_odds(fight_log(13), "", "toy.jsonl", Sampling(within=0.05, most=2000, seed=1))
    for point in [report.opening, *(made.after for made in report.rolls[:-1])]:
        for chance in [*point.sides.values(), point.no_winner]:
            assert (
                max(chance.chance - chance.low, chance.high - chance.chance) <= 0.05 or point.samples >= 2000
            )
