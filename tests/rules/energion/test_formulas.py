"""The Energion formulas (rules E2, E4, E6, E7) against hand-computed cases, and their properties."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.rules.energion import formulas

D = Decimal

adjustments = st.decimals(min_value=-500, max_value=500, places=4, allow_nan=False, allow_infinity=False)
qualities = st.decimals(min_value=-50, max_value=400, places=3, allow_nan=False, allow_infinity=False)


# --- stat bonus (ruling on E2) -------------------------------------------------------------------------


def test_stat_bonus_is_the_stat_above_100() -> None:
    # rule E2 (ruling: the charts are for a 100-stat person): ST 130 -> STbonus 130 - 100 = 30
    assert formulas.stat_bonus(130) == 30


def test_stat_bonus_below_100_is_negative() -> None:
    # rule E2 (ruling): AG 85 -> AGbonus 85 - 100 = -15
    assert formulas.stat_bonus(85) == -15


def test_stat_bonus_base_option_moves_the_average() -> None:
    # rule E2, option stat_bonus_base = 90: ST 100 -> STbonus 100 - 90 = 10
    assert formulas.stat_bonus(100, base=90) == 10


# --- E2 speed and initiative adjustments ---------------------------------------------------------------


def test_one_hand_speed_adjustment() -> None:
    # rule E2: AG 130, CO 130 -> AGbonus 30, CObonus 30; 1H adj = 30/10 + 30/30 = 3 + 1 = 4
    assert formulas.speed_adjustment_one_hand(D(30), D(30)) == 4


def test_one_hand_speed_adjustment_keeps_thirds_to_28_digits() -> None:
    # rule E2: AGbonus 30, CObonus 20 -> 3 + 20/30 = 3.666... (28 significant digits)
    assert formulas.speed_adjustment_one_hand(D(30), D(20)) == D("3.666666666666666666666666667")


def test_two_hand_speed_adjustment_divides_co_bonus_by_30() -> None:
    # rule E2 (ruling: the printed 2H formula lost a "/30"): STbonus 30, CObonus 30 -> 30/10 + 30/30 = 4
    assert formulas.speed_adjustment_two_hand(D(30), D(30)) == 4


def test_two_hand_speed_adjustment_as_printed_with_divisor_1() -> None:
    # rule E2, option two_hand_co_divisor = 1 (the text's reading): STbonus 30, CObonus 30 -> 3 + 30 = 33
    assert formulas.speed_adjustment_two_hand(D(30), D(30), co_divisor=1) == 33


def test_speed_adjustment_of_weak_stats_is_negative() -> None:
    # rule E2: AG 80, CO 70 -> AGbonus -20, CObonus -30; 1H adj = -20/10 + -30/30 = -2 - 1 = -3
    assert formulas.speed_adjustment_one_hand(D(-20), D(-30)) == -3


def test_initiative_adjustment_is_half_the_speed_adjustment() -> None:
    # rule E2: "Your initiative adjustment is half that figure": 4 / 2 = 2; 3.5 / 2 = 1.75
    assert formulas.initiative_adjustment(D(4)) == 2
    assert formulas.initiative_adjustment(D("3.5")) == D("1.75")


def test_modified_speed_subtracts_the_adjustment() -> None:
    # rule E2: Sword, Long SP 8, adj 3.5 -> 8 - 3.5 = 4.5 s
    assert formulas.modified_speed(8, D("3.5")) == D("4.5")


def test_negative_adjustment_makes_a_weapon_slower() -> None:
    # rule E2: SP 8, adj -3 -> 8 - (-3) = 11 s
    assert formulas.modified_speed(8, D(-3)) == 11


def test_modified_speed_is_at_least_one_second() -> None:
    # rule E1: speed is "a minimum of one": SP 4, adj 5 -> 4 - 5 = -1 -> 1 s
    assert formulas.modified_speed(4, D(5)) == 1


def test_modified_speed_minimum_can_be_lowered_for_martial_artists() -> None:
    # rule E13 (minimum 0 on speed): SP 4, adj 5 -> -1 -> 0 s
    assert formulas.modified_speed(4, D(5), minimum=0) == 0


def test_modified_initiative_subtracts_half_the_adjustment() -> None:
    # rule E2: Sword, Long IN 10, adj 3 -> 10 - 3/2 = 8.5 s
    assert formulas.modified_initiative(10, D(3)) == D("8.5")


def test_modified_initiative_is_at_least_zero() -> None:
    # rule E1: "Battle Initiative is a minimum of 0 seconds": IN 5, adj 12 -> 5 - 6 = -1 -> 0 s
    assert formulas.modified_initiative(5, D(12)) == 0


@given(chart_speed=st.integers(min_value=0, max_value=60), adjustment=adjustments)
def test_modified_speed_is_never_below_one_second(chart_speed: int, adjustment: Decimal) -> None:
    # rule E1: whatever the stats, the gap between attacks is at least 1 s
    assert formulas.modified_speed(chart_speed, adjustment) >= 1


@given(chart_initiative=st.integers(min_value=0, max_value=60), adjustment=adjustments)
def test_modified_initiative_is_never_below_zero(chart_initiative: int, adjustment: Decimal) -> None:
    # rule E1: battle initiative is at least 0 s
    assert formulas.modified_initiative(chart_initiative, adjustment) >= 0


# --- E4 hit chance bonuses -----------------------------------------------------------------------------


def test_melee_bonus() -> None:
    # rule E4: ST 130, CO 120 -> MeleeBonus = 30/2 + 20/4 = 15 + 5 = 20
    assert formulas.melee_bonus(D(30), D(20)) == 20


def test_mechanical_bonus() -> None:
    # rule E4: ST 130, CO 120 -> MechBonus = 20/2 + 30/4 = 10 + 7.5 = 17.5
    assert formulas.mechanical_bonus(D(30), D(20)) == D("17.5")


def test_melee_bonus_below_100_stats_is_negative() -> None:
    # rule E4: ST 80, CO 90 -> MeleeBonus = -20/2 + -10/4 = -10 - 2.5 = -12.5
    assert formulas.melee_bonus(D(-20), D(-10)) == D("-12.5")


def test_mechanical_bonus_below_100_stats_is_negative() -> None:
    # rule E4: ST 80, CO 90 -> MechBonus = -10/2 + -20/4 = -5 - 5 = -10
    assert formulas.mechanical_bonus(D(-20), D(-10)) == -10


# --- E6 hit quality ------------------------------------------------------------------------------------


def test_hit_quality_subtracts_armor_and_roll() -> None:
    # rule E6: hit 75.5, armor 10, roll 31 -> 75.5 - 10 - 31 = 34.5 (positive: a hit)
    assert formulas.hit_quality(D("75.5"), 10, 31) == D("34.5")


def test_hit_quality_can_be_zero_or_negative() -> None:
    # rule E6: hit 75, armor 10, roll 65 -> 0 (not positive: no hit); roll 80 -> -15
    assert formulas.hit_quality(D(75), 10, 65) == 0
    assert formulas.hit_quality(D(75), 10, 80) == -15


# --- E7 damage -----------------------------------------------------------------------------------------


def test_damage_bonus_is_a_twentieth_of_the_strength_bonus() -> None:
    # rule E7: ST 130 -> STbonus 30; DB = 30/20 = 1.5
    assert formulas.damage_bonus(D(30)) == D("1.5")


def test_damage_bonus_below_100_strength_is_negative() -> None:
    # rule E7: ST 90 -> STbonus -10; DB = -10/20 = -0.5
    assert formulas.damage_bonus(D(-10)) == D("-0.5")


def test_damage_potential_adds_every_bonus() -> None:
    # rule E7: D = BaseWeaponDamage + DB + WpnDmgBonus + SkillDmgBonus = 18 + 1.5 + 2 + 3 = 24.5
    assert formulas.damage_potential(18, D("1.5"), D(2), D(3)) == D("24.5")


def test_damage_potential_is_never_below_zero() -> None:
    # rule E7 (ruling 7): Knife 7, ST 1 -> DB -99/20 = -4.95, weapon bonus -50 -> 7 - 4.95 - 50 < 0 -> 0
    assert formulas.damage_potential(7, D("-4.95"), D(-50), D(0)) == 0


@pytest.mark.parametrize(
    ("quality", "multiplier"),
    [
        # rule E7: TRUNC((HQ + 10) / 10) / 10
        ("0.5", "0.1"),  # TRUNC(10.5 / 10) = TRUNC(1.05) = 1 -> 0.1
        ("9.99", "0.1"),  # TRUNC(19.99 / 10) = TRUNC(1.999) = 1 -> 0.1
        ("10", "0.2"),  # TRUNC(20 / 10) = 2 -> 0.2
        ("34.5", "0.4"),  # TRUNC(44.5 / 10) = TRUNC(4.45) = 4 -> 0.4
        ("200", "2.1"),  # TRUNC(210 / 10) = 21 -> 2.1
    ],
)
def test_damage_multiplier_steps_every_ten_points_of_quality(quality: str, multiplier: str) -> None:
    # rule E7 (ruling 6: the O's of "1O" are zeros)
    assert formulas.damage_multiplier(D(quality)) == D(multiplier)


def test_damage_is_the_multiplier_times_the_potential() -> None:
    # rule E7: ST 130 -> STbonus 30; DB = 30/20 = 1.5; D = 18 + 1.5 = 19.5;
    # quality 34.5 -> TRUNC(44.5/10) = 4 -> x0.4 -> 0.4 * 19.5 = 7.8
    assert formulas.damage(D("34.5"), D("19.5")) == D("7.8")


def test_damage_is_exact_without_rounding() -> None:
    # rule E7 (ruling 6): ST 115 -> DB = 15/20 = 0.75; D = 18 + 0.75 = 18.75;
    # quality 25 -> TRUNC(35/10) = 3 -> x0.3 -> 0.3 * 18.75 = 5.625 (kept to the thousandth)
    assert str(formulas.damage(D(25), D("18.75"))) == "5.625"


@given(first=qualities, second=qualities)
def test_damage_multiplier_never_decreases_with_quality(first: Decimal, second: Decimal) -> None:
    # rule E7: a better hit never does less damage
    low, high = sorted((first, second))
    assert formulas.damage_multiplier(low) <= formulas.damage_multiplier(high)


@given(quality=qualities.filter(lambda q: q > 0))
def test_every_hit_has_a_multiplier_of_at_least_a_tenth(quality: Decimal) -> None:
    # rule E7: "a sequence of multipliers from .1 ...": any positive quality gives TRUNC(>1) >= 1 -> >= 0.1
    assert formulas.damage_multiplier(quality) >= D("0.1")


# --- tidy ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("15.600", "15.6"),  # trailing zeros go
        ("150.0", "150"),  # a whole number keeps its digits, not 1.5E+2
        ("7.80", "7.8"),
        ("0.000", "0"),
        ("-12.50", "-12.5"),
    ],
)
def test_tidy_drops_trailing_zeros_without_an_exponent(value: str, shown: str) -> None:
    assert str(formulas.tidy(D(value))) == shown


@given(
    value=st.decimals(min_value=-(10**6), max_value=10**6, places=4, allow_nan=False, allow_infinity=False)
)
def test_tidy_keeps_the_value(value: Decimal) -> None:
    tidied = formulas.tidy(value)
    assert tidied == value
    assert "E" not in str(tidied)
