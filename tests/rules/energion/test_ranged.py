"""Energion ranged combat (rules E8, E16-E19, E21) against hand-computed cases, and their properties."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.errors import TableError
from affray.rules.energion import ranged
from affray.rules.energion.ranged import BANDS, RangeBand
from affray.rules.energion.tables import Weapon, load_tables

D = Decimal


def decimals(low: int | str, high: int | str, places: int = 3) -> st.SearchStrategy[Decimal]:
    return st.decimals(min_value=low, max_value=high, places=places, allow_nan=False, allow_infinity=False)


bands = st.sampled_from(BANDS)
chart_rows = st.sampled_from([w for c in load_tables().classes for w in c.weapons])


def weapon(name: str) -> Weapon:
    return load_tables().weapon(name)


def band_index(band: RangeBand | None) -> int:
    return len(BANDS) if band is None else BANDS.index(band)


# --- E8 range bands --------------------------------------------------------------------------------------


def test_range_band_picks_the_band_holding_the_distance() -> None:
    # rule E8: Bow, Self, Short 5/25/75/120/150: 80 m -> LNG (75 < 80 <= 120)
    assert ranged.range_band(weapon("Bow, Self, Short").ranges, D(80)) == "LNG"


def test_range_band_distance_exactly_at_a_limit_is_in_that_band() -> None:
    # rule E8 (ruling: limits inclusive): Bow, Self, Short 5/25/75/120/150: 75 m -> MED (25 < 75 <= 75)
    assert ranged.range_band(weapon("Bow, Self, Short").ranges, D(75)) == "MED"


def test_range_band_a_millimetre_past_a_limit_is_the_next_band() -> None:
    # rule E8: Bow, Self, Short 5/25/75/120/150: 75.001 m -> LNG (75 < 75.001 <= 120)
    assert ranged.range_band(weapon("Bow, Self, Short").ranges, D("75.001")) == "LNG"


def test_range_band_zero_distance_is_point_blank() -> None:
    # rule E8 (ruling: PTB starts at 0 m): Crossbow, Light 8/60/120/180/210: 0 m -> PTB (0 <= 0 <= 8)
    assert ranged.range_band(weapon("Crossbow, Light").ranges, D(0)) == "PTB"


def test_range_band_extreme_limit_is_the_last_distance_in_range() -> None:
    # rule E8: Crossbow, Light 8/60/120/180/210: 210 m -> EXT (180 < 210 <= 210)
    assert ranged.range_band(weapon("Crossbow, Light").ranges, D(210)) == "EXT"


def test_range_band_beyond_extreme_is_out_of_range() -> None:
    # rule E8 (ruling): Crossbow, Light 8/60/120/180/210: 210.001 m > 210 -> out of range (None)
    assert ranged.range_band(weapon("Crossbow, Light").ranges, D("210.001")) is None


def test_range_band_trailing_zero_bands_do_not_exist() -> None:
    # rule E8 (ruling: 0 = no band): Poniard 1/3/5/0/0: 5 m -> MED (3 < 5 <= 5); no LNG or EXT
    assert ranged.range_band(weapon("Poniard").ranges, D(5)) == "MED"


def test_range_band_beyond_the_last_existing_band_is_out_of_range() -> None:
    # rule E8 (ruling): Poniard 1/3/5/0/0: 6 m > 5 (MED, the last band printed) -> None
    assert ranged.range_band(weapon("Poniard").ranges, D(6)) is None


def test_range_band_melee_weapon_reaches_point_blank_only() -> None:
    # rule E8: Sword, Long 1/0/0/0/0: 1 m -> PTB; 1.5 m -> None (no other band exists)
    ranges = weapon("Sword, Long").ranges
    assert ranged.range_band(ranges, D(1)) == "PTB"
    assert ranged.range_band(ranges, D("1.5")) is None


def test_range_band_zero_in_the_middle_falls_to_the_next_existing_band() -> None:
    # rule E8 (ruling): 1/0/5/0/9 (no printed row does this): 3 m -> MED (1 < 3 <= 5), 7 m -> EXT (5 < 7 <= 9)
    assert ranged.range_band((1, 0, 5, 0, 9), D(3)) == "MED"
    assert ranged.range_band((1, 0, 5, 0, 9), D(7)) == "EXT"


def test_range_band_row_of_zeros_has_no_band() -> None:
    # rule E8 (ruling): Bullwhip 0/0/0/0/0 prints no band, so even 0 m is in none (reach comes from elsewhere)
    assert ranged.range_band(weapon("Bullwhip").ranges, D(0)) is None


def test_range_band_equal_limits_leave_the_later_band_empty() -> None:
    # rule E8 (ruling): 1/3/3/6/9: 3 m -> SHT (first limit >= 3), MED is empty; 3.5 m -> LNG (3 < 3.5 <= 6)
    assert ranged.range_band((1, 3, 3, 6, 9), D(3)) == "SHT"
    assert ranged.range_band((1, 3, 3, 6, 9), D("3.5")) == "LNG"


def test_range_band_decreasing_limits_are_a_table_error() -> None:
    # rule E8 (ruling): 1/5/3/9/12 has MED 3 m below SHT 5 m: a malformed row, refused with both limits named
    with pytest.raises(TableError, match=r"MED limit 3 m is below the SHT limit 5 m"):
        ranged.range_band((1, 5, 3, 9, 12), D(2))


def test_range_band_refuses_a_negative_distance() -> None:
    # rule E8: distances are at least 0 m
    with pytest.raises(ValueError, match="distance"):
        ranged.range_band(weapon("Dart").ranges, D(-1))


def test_range_band_every_printed_limit_is_in_its_own_band() -> None:
    # rule E8 (ruling: limits inclusive): in every chart row, a distance equal to a nonzero limit is in that
    # band (e.g. Trident 1/3/5/7/9: 7 m -> LNG); this also checks that no printed row has decreasing limits
    for cls in load_tables().classes:
        for row in cls.weapons:
            for band, limit in zip(BANDS, row.ranges, strict=True):
                if limit:
                    assert ranged.range_band(row.ranges, D(limit)) == band, (cls.name, row.name)


@given(row=chart_rows, a=decimals(0, 500), b=decimals(0, 500))
def test_range_band_is_monotone_in_distance(row: Weapon, a: Decimal, b: Decimal) -> None:
    # rule E8: farther is never a nearer band (out of range counts as beyond EXT)
    near, far = min(a, b), max(a, b)
    assert band_index(ranged.range_band(row.ranges, near)) <= band_index(ranged.range_band(row.ranges, far))


# --- E8 range factors ------------------------------------------------------------------------------------


def test_ranged_hit_chance_at_long_range() -> None:
    # rule E8: Bow, Self, Short 5/25/75/120/150: 80 m -> LNG (75 < 80 <= 120); 60% * 0.8 = 48%
    band = ranged.range_band(weapon("Bow, Self, Short").ranges, D(80))
    assert band is not None
    assert ranged.ranged_hit_chance(D(60), band) == 48


@pytest.mark.parametrize(
    ("band", "expected"),
    [
        # rule E8: RangeWeaponHit% = 50% * factor
        ("PTB", "55"),  # 50 * 1.1
        ("SHT", "50"),  # 50 * 1.0
        ("MED", "45"),  # 50 * 0.9
        ("LNG", "40"),  # 50 * 0.8
        ("EXT", "35"),  # 50 * 0.7
    ],
)
def test_ranged_hit_chance_uses_the_band_factor(band: RangeBand, expected: str) -> None:
    assert ranged.ranged_hit_chance(D(50), band) == D(expected)


def test_ranged_hit_chance_keeps_fractions_exact() -> None:
    # rule E8: skill 47 + MechBonus 17.5 = 64.5% at EXT: 64.5 * 0.7 = 45.15%
    assert ranged.ranged_hit_chance(D("64.5"), "EXT") == D("45.15")


def test_ranged_damage_at_medium_range() -> None:
    # rule E8 (factor on damage too): Bow, Self, Short DMG 15 at MED: 15 * 0.9 = 13.5
    assert ranged.ranged_damage(D(weapon("Bow, Self, Short").damage), "MED") == D("13.5")


def test_ranged_damage_at_point_blank() -> None:
    # rule E8: Crossbow, Medium DMG 18 at PTB: 18 * 1.1 = 19.8
    assert ranged.ranged_damage(D(weapon("Crossbow, Medium").damage), "PTB") == D("19.8")


@given(value=decimals(-200, 300))
def test_short_range_is_the_base(value: Decimal) -> None:
    # rule E8: "Base values ... are for short range": factor 1.0 changes neither hit chance nor damage
    assert ranged.ranged_hit_chance(value, "SHT") == value
    assert ranged.ranged_damage(value, "SHT") == value


# --- E17 aiming ------------------------------------------------------------------------------------------


def test_aiming_bonus_is_ten_points_a_second() -> None:
    # rule E17: 3 s of extra aim -> MIN(10 * 3, 100) = 30
    assert ranged.aiming_bonus(D(3)) == 30


def test_aiming_bonus_counts_fractions_of_a_second() -> None:
    # rule E17 (ruling: aim time to the millisecond): 2.345 s -> 10 * 2.345 = 23.45
    assert ranged.aiming_bonus(D("2.345")) == D("23.45")


def test_aiming_bonus_reaches_100_at_ten_seconds() -> None:
    # rule E17: 10 s -> MIN(100, 100) = 100
    assert ranged.aiming_bonus(D(10)) == 100


def test_aiming_bonus_stops_at_100() -> None:
    # rule E17: 14 s -> MIN(140, 100) = 100
    assert ranged.aiming_bonus(D(14)) == 100


def test_aiming_bonus_refuses_negative_aim_time() -> None:
    # rule E17: aim time is at least 0 s
    with pytest.raises(ValueError, match="aim time"):
        ranged.aiming_bonus(D("-0.5"))


@given(seconds=decimals(0, 10_000))
def test_aiming_bonus_never_exceeds_100(seconds: Decimal) -> None:
    # rule E17: Bonus = MIN(10 * AimTime, 100), so 0 <= bonus <= 100
    assert 0 <= ranged.aiming_bonus(seconds) <= 100


def test_unaimed_shot_takes_100_points_off() -> None:
    # rule E17 (ruling: a flat 100 points): 130% to hit, unaimed -> 130 - 100 = 30%, still worth a shot
    assert D(130) - ranged.UNAIMED_PENALTY == 30


# --- E18 target size -------------------------------------------------------------------------------------


@pytest.mark.parametrize("area", ["0.5", "0.75", "1"])
def test_size_percentage_of_a_standard_target_is_100(area: str) -> None:
    # rule E18: 0.5 m2 to 1 m2 (both ends included) is the standard target: 100%
    assert ranged.size_percentage(D(area)) == 100


def test_size_percentage_below_standard_is_of_half_a_square_metre() -> None:
    # rule E18: 0.25 m2 -> 0.25 / 0.5 * 100 = 50%
    assert ranged.size_percentage(D("0.25")) == 50


def test_size_percentage_above_standard_is_of_one_square_metre() -> None:
    # rule E18: 2 m2 -> 2 / 1 * 100 = 200%
    assert ranged.size_percentage(D(2)) == 200


def test_size_percentage_just_above_standard_has_no_jump() -> None:
    # rule E18: 1.01 m2 -> 1.01 / 1 * 100 = 101%; 0.49 m2 -> 0.49 / 0.5 * 100 = 98%
    assert ranged.size_percentage(D("1.01")) == 101
    assert ranged.size_percentage(D("0.49")) == 98


def test_size_percentage_of_indirect_fire_is_of_nine_square_metres() -> None:
    # rule E18: indirect fire standard 9 m2: 4.5 m2 -> 4.5 / 9 * 100 = 50%; 18 m2 -> 200%; 9 m2 -> 100%
    sizes = [ranged.size_percentage(D(a), indirect=True) for a in ("4.5", "18", "9")]
    assert sizes == [50, 200, 100]
    assert ranged.INDIRECT_FIRE_AREA == 9


def test_size_percentage_of_indirect_fire_keeps_28_digits() -> None:
    # rule E18: 1 m2 under indirect fire -> 1 / 9 * 100 = 11.11...% (28 significant digits)
    assert ranged.size_percentage(D(1), indirect=True) == D("11.11111111111111111111111111")


def test_size_percentage_refuses_a_negative_area() -> None:
    # rule E18: areas are at least 0 m2
    with pytest.raises(ValueError, match="area"):
        ranged.size_percentage(D("-0.1"))


@given(a=decimals(0, 50), b=decimals(0, 50))
def test_size_percentage_never_shrinks_as_the_area_grows(a: Decimal, b: Decimal) -> None:
    # rule E18: a bigger target is never a smaller percentage
    assert ranged.size_percentage(min(a, b)) <= ranged.size_percentage(max(a, b))


def test_size_penalty_of_a_small_target_at_long_range() -> None:
    # rule E18: 50% target at LNG -> (100 - 50) * 4 = 200 points off
    assert ranged.size_penalty(D(50), "LNG") == 200


def test_size_penalty_of_a_large_target_is_a_bonus() -> None:
    # rule E18: 200% target at MED -> (100 - 200) * 3 = -300, i.e. a 300-point bonus
    assert ranged.size_penalty(D(200), "MED") == -300


@pytest.mark.parametrize(
    ("band", "expected"),
    [
        # rule E18: 80% target: (100 - 80) * factor
        ("PTB", 20),  # 20 * 1
        ("SHT", 40),  # 20 * 2
        ("MED", 60),  # 20 * 3
        ("LNG", 80),  # 20 * 4
        ("EXT", 100),  # 20 * 5
    ],
)
def test_size_penalty_uses_the_size_range_factor(band: RangeBand, expected: int) -> None:
    assert ranged.size_penalty(D(80), band) == expected


@given(band=bands)
def test_size_penalty_of_a_standard_target_is_zero(band: RangeBand) -> None:
    # rule E18: (100 - 100) * factor = 0 at any band
    assert ranged.size_penalty(ranged.size_percentage(D("0.75")), band) == 0


# --- E16 cover -------------------------------------------------------------------------------------------


def test_cover_area_leaves_the_uncovered_part() -> None:
    # rule E16: 0.75 m2 with 40% behind a parapet -> 0.75 * (100 - 40) / 100 = 0.45 m2
    assert ranged.cover_area(D("0.75"), D(40)) == D("0.45")


def test_cover_area_full_cover_leaves_nothing() -> None:
    # rule E16: 0.75 m2 fully covered -> 0.75 * 0 / 100 = 0 m2
    assert ranged.cover_area(D("0.75"), D(100)) == 0


def test_cover_shrinks_the_target_size_penalty() -> None:
    # rules E16, E18: 0.75 m2, 60% covered -> 0.3 m2 -> 0.3 / 0.5 * 100 = 60% -> at SHT (100 - 60) * 2 = 80
    visible = ranged.cover_area(D("0.75"), D(60))
    assert ranged.size_penalty(ranged.size_percentage(visible), "SHT") == 80


@pytest.mark.parametrize("covered", ["-1", "100.5"])
def test_cover_area_refuses_a_percentage_outside_0_to_100(covered: str) -> None:
    # rule E16: a covered share is a percentage of the target
    with pytest.raises(ValueError, match="covered percent"):
        ranged.cover_area(D(1), D(covered))


# --- E19 cover advantage ---------------------------------------------------------------------------------


def test_cover_advantage_takes_a_quarter_of_combat_skill_percent_off() -> None:
    # rule E19: visible 0.4 m2, combat skill 60% -> 60/4 = 15% off -> 0.4 * 85 / 100 = 0.34 m2
    assert ranged.cover_advantage(D("0.4"), 60) == D("0.34")


def test_cover_advantage_keeps_quarter_percents() -> None:
    # rule E19: visible 0.5 m2, combat skill 30% -> 7.5% off -> 0.5 * 92.5 / 100 = 0.4625 m2
    assert ranged.cover_advantage(D("0.5"), 30) == D("0.4625")


def test_cover_advantage_never_below_zero() -> None:
    # rule E19 (ruling): combat skill 480% -> 120% off -> 0.5 * (100 - 120) / 100 = -0.1 -> 0 m2
    assert ranged.cover_advantage(D("0.5"), 480) == 0


def test_cover_advantage_refuses_a_negative_skill() -> None:
    # rule E19: combat skill is a percentage, at least 0
    with pytest.raises(ValueError, match="combat skill"):
        ranged.cover_advantage(D("0.5"), -5)


@given(area=decimals(0, 20), skill=st.integers(min_value=0, max_value=600))
def test_cover_advantage_only_ever_shrinks_the_area(area: Decimal, skill: int) -> None:
    # rule E19: a reduction: 0 <= effective area <= visible area
    assert 0 <= ranged.cover_advantage(area, skill) <= area


# --- E19 relative speed ----------------------------------------------------------------------------------


def test_relative_speed_penalty_is_a_point_per_metre_per_second() -> None:
    # rule E19: 6 m/s, not maneuvering -> 6 * 1 = 6 points (the AGB of 40 does not matter)
    assert ranged.relative_speed_penalty(D(6), False, D(40)) == 6


def test_relative_speed_penalty_of_a_maneuvering_target_is_times_agb_over_8() -> None:
    # rule E19: 6 m/s, maneuvering, AGB 24 -> 6 * 24/8 = 6 * 3 = 18 points
    assert ranged.relative_speed_penalty(D(6), True, D(24)) == 18


def test_relative_speed_penalty_keeps_fractional_multipliers() -> None:
    # rule E19: 6 m/s, maneuvering, AGB 12 -> 6 * 12/8 = 6 * 1.5 = 9 points
    assert ranged.relative_speed_penalty(D(6), True, D(12)) == 9


def test_maneuvering_never_makes_a_target_easier_to_hit() -> None:
    # rule E19 (ruling): 6 m/s, maneuvering, AGB 4 -> 4/8 = 0.5 < 1 -> times 1 = 6 points (not 3)
    assert ranged.relative_speed_penalty(D(6), True, D(4)) == 6


def test_relative_speed_penalty_refuses_a_negative_speed() -> None:
    # rule E19: a relative speed is a magnitude
    with pytest.raises(ValueError, match="relative speed"):
        ranged.relative_speed_penalty(D(-1), False, D(0))


@given(speed=decimals(0, 100), agb=decimals(-100, 200))
def test_maneuvering_penalty_is_at_least_the_plain_penalty(speed: Decimal, agb: Decimal) -> None:
    # rule E19 (ruling): multiplier max(AGB/8, 1) >= 1
    assert ranged.relative_speed_penalty(speed, True, agb) >= ranged.relative_speed_penalty(speed, False, agb)


# --- E21 charging ----------------------------------------------------------------------------------------


def test_charge_multiple_is_speed_over_four() -> None:
    # rule E21: 10 m/s -> 10 / 4 = 2.5 times damage
    assert ranged.charge_multiple(D(10)) == D("2.5")


def test_two_chargers_add_their_speeds() -> None:
    # rule E21: 5 m/s east against 5 m/s west -> relative 10 m/s -> 10 / 4 = 2.5
    speed = ranged.relative_speed((D(5), D(0)), (D(-5), D(0)))
    assert speed == 10
    assert ranged.charge_multiple(speed) == D("2.5")


def test_charge_multiple_at_four_metres_per_second_is_one() -> None:
    # rule E21: 4 m/s -> 4 / 4 = 1: no change to damage
    assert ranged.charge_multiple(D(4)) == 1


def test_slow_charge_never_reduces_damage() -> None:
    # rule E21 (ruling): 2 m/s -> 2 / 4 = 0.5 < 1 -> 1 (not half damage)
    assert ranged.charge_multiple(D(2)) == 1


def test_charge_multiple_refuses_a_negative_speed() -> None:
    # rule E21: speed is a relative speed magnitude in m/s
    with pytest.raises(ValueError, match="charge speed"):
        ranged.charge_multiple(D("-0.1"))


@given(speed=decimals(0, 100))
def test_charge_multiple_is_at_least_one(speed: Decimal) -> None:
    # rule E21 (ruling): max(speed / 4, 1) >= 1
    assert ranged.charge_multiple(speed) >= 1


# --- relative speed of two velocities (E19, E21) ----------------------------------------------------------


def test_relative_speed_is_the_length_of_the_velocity_difference() -> None:
    # rules E19, E21: (3, 0) against (0, 4) -> |(3, -4)| = sqrt(9 + 16) = 5.000 m/s
    assert ranged.relative_speed((D(3), D(0)), (D(0), D(4))) == D("5.000")


def test_relative_speed_of_a_runner_alongside_is_zero() -> None:
    # rule E19: both at (2.5, 1) -> |(0, 0)| = 0 m/s: no penalty for running alongside
    assert ranged.relative_speed((D("2.5"), D(1)), (D("2.5"), D(1))) == 0


def test_relative_speed_is_rounded_to_the_millimetre_per_second() -> None:
    # rules E19, E21: (1, 1) against rest -> sqrt(2) = 1.41421... -> 1.414 m/s
    assert ranged.relative_speed((D(1), D(1)), (D(0), D(0))) == D("1.414")


def test_relative_speed_rounds_half_millimetres_to_even() -> None:
    # rules E19, E21: 0.0005 m/s -> 0.000 (0 is even); 0.0015 -> 0.002; 0.0025 -> 0.002
    speeds = [ranged.relative_speed((D(v), D(0)), (D(0), D(0))) for v in ("0.0005", "0.0015", "0.0025")]
    assert speeds == [D("0.000"), D("0.002"), D("0.002")]


def test_relative_speed_refuses_a_non_finite_velocity() -> None:
    # rules E19, E21: velocities are finite numbers of m/s
    with pytest.raises(ValueError, match="finite"):
        ranged.relative_speed((D("Infinity"), D(0)), (D(0), D(0)))


velocities = st.tuples(decimals(-100, 100), decimals(-100, 100))


@given(v1=velocities, v2=velocities)
def test_relative_speed_is_symmetric(v1: tuple[Decimal, Decimal], v2: tuple[Decimal, Decimal]) -> None:
    # rules E19, E21: |v1 - v2| = |v2 - v1|
    assert ranged.relative_speed(v1, v2) == ranged.relative_speed(v2, v1)


@given(v1=velocities, v2=velocities)
def test_relative_speed_matches_the_decimal_square_root(
    v1: tuple[Decimal, Decimal], v2: tuple[Decimal, Decimal]
) -> None:
    # rules E19, E21: the same as Decimal.sqrt() quantized to 0.001 with halves to even
    dx, dy = v1[0] - v2[0], v1[1] - v2[1]
    expected = (dx * dx + dy * dy).sqrt().quantize(D("0.001"), rounding=ROUND_HALF_EVEN)
    assert ranged.relative_speed(v1, v2) == expected


# --- E17: the target's unusual movement ----------------------------------------------------------------


def test_aim_counts_from_when_it_began_while_the_target_keeps_its_course() -> None:
    # rule E17: aim at "b" since 2000; b last changed course at 1000, before: aim from 2000, not restarted
    assert ranged.aim_start("b", 2000, "b", 1000) == (2000, None)


def test_a_course_change_after_the_aim_began_restarts_it() -> None:
    # rule E17: b changed course at 5000, after the aim began at 2000: it counts from 5000
    assert ranged.aim_start("b", 2000, "b", 5000) == (5000, 5000)


def test_no_aim_at_another_target() -> None:
    assert ranged.aim_start("c", 2000, "b", None) == (None, None)


def test_a_target_that_never_moved_never_spoils_the_aim() -> None:
    assert ranged.aim_start("b", 0, "b", None) == (0, None)
