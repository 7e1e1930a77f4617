"""Five-step damage (rules F10, F11, F12) against hand-computed cases, and its properties."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.errors import TableError
from affray.rules.fivestep import damage
from affray.rules.fivestep import damage_tables as dt

D = Decimal
EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "tables" / "fivestep"


def _wep() -> dt.WepModTable:
    table = dt.load_table(EXAMPLES / "3-3.toml")
    assert isinstance(table, dt.WepModTable)
    return table


def _factors() -> dt.OrganFactorTable:
    table = dt.load_table(EXAMPLES / "3-3.1.toml")
    assert isinstance(table, dt.OrganFactorTable)
    return table


def _blade() -> dt.DescriptionTable:
    table = dt.load_table(EXAMPLES / "3-8.toml")
    assert isinstance(table, dt.DescriptionTable)
    return table


def _circulatory() -> dt.OrganTable:
    table = dt.load_table(EXAMPLES / "3-15.1.toml")
    assert isinstance(table, dt.OrganTable)
    return table


def _respiratory() -> dt.OrganTable:
    text = (EXAMPLES / "3-15.1.toml").read_text(encoding="utf-8")
    text = text.replace('\ntable = "3-15.1"', '\ntable = "3-15.2"').replace('"circulatory"', '"respiratory"')
    table = dt.parse_table("3-15.2.toml", text)
    assert isinstance(table, dt.OrganTable)
    return table


# --- F10: the damage die roll ----------------------------------------------------------------------------


def test_auto_pistol_4_plus_2_is_four_d10_plus_2() -> None:
    # rule F10, the text's example "AUTO PISTOL 4+2 means 4:10sd+2": faces 3, 7, 10, 1 -> 21 + 2 = 23
    roll = damage.parse_damage_die_roll("4+2")
    assert damage.roll_damage(roll, [3, 7, 10, 1]).total == 23


def test_contour_laser_3_has_no_addition() -> None:
    # rule F10, "CONTOUR LASER 3 means 3:10sd": faces 2, 5, 9 -> 16
    roll = damage.parse_damage_die_roll("3")
    assert (roll.whole, roll.bonus) == (3, 0)
    assert damage.roll_damage(roll, [2, 5, 9]).total == 16


def test_fractional_x_rolls_one_d10_times_the_fraction() -> None:
    # rule F10: "1/2" -> 1:10sd x 1/2; face 8 -> 8/2 = 4
    roll = damage.parse_damage_die_roll("1/2")
    assert damage.roll_damage(roll, [8]).total == 4


def test_fractional_die_rounds_half_up_by_default() -> None:
    # rule F10 (ruling): "0.5+1", face 7 -> 7 x 0.5 = 3.5 -> 4, + 1 = 5
    roll = damage.parse_damage_die_roll("0.5+1")
    result = damage.roll_damage(roll, [7])
    assert (result.fraction_points, result.total) == (4, 5)


def test_fractional_die_rounding_down_option() -> None:
    # rule F10, rounding "down": face 7 x 1/2 = 3.5 -> 3, + 1 = 4
    roll = damage.parse_damage_die_roll("1/2+1")
    assert damage.roll_damage(roll, [7], rounding="down").total == 4


def test_mixed_x_rolls_whole_dice_and_one_fractional_die() -> None:
    # rule F10 (ruling): "2.5+3" -> 2 d10 + 1 d10 x 0.5 + 3; faces 4, 6, 9 -> 10 + 4.5 -> 5, + 3 = 18
    roll = damage.parse_damage_die_roll("2.5+3")
    assert damage.dice_needed(roll) == 3
    result = damage.roll_damage(roll, [4, 6, 9])
    assert (result.whole_dice, result.fraction_points, result.total) == (10, 5, 18)


def test_a_third_stays_exact() -> None:
    # rule F10: "1/3", face 10 -> 10/3 = 3.33 -> 3 (exact fractions, no binary float)
    roll = damage.parse_damage_die_roll("1/3")
    assert roll.fractional == Fraction(1, 3)
    assert damage.roll_damage(roll, [10]).total == 3


def test_wrong_number_of_faces_is_refused() -> None:
    # rule F10: "4+2" takes four d10
    roll = damage.parse_damage_die_roll("4+2")
    with pytest.raises(ValueError, match="takes 4 d10, got 3"):
        damage.roll_damage(roll, [1, 2, 3])


def test_a_face_outside_1_to_10_is_refused() -> None:
    # rule F10: a d10 reads 1 to 10 (a 0 face is 10)
    with pytest.raises(ValueError, match="a d10 face is 1 to 10, got 0"):
        damage.roll_damage(damage.parse_damage_die_roll("1"), [0])


@pytest.mark.parametrize("text", ["", "x+2", "4-2", "0+3", "1/0", "4+", "+2"])
def test_malformed_damage_die_roll_is_refused(text: str) -> None:
    # rule F10: X+Y with X above 0
    with pytest.raises(ValueError, match="damage die roll"):
        damage.parse_damage_die_roll(text)


@given(
    whole=st.integers(min_value=1, max_value=8),
    bonus=st.integers(min_value=0, max_value=20),
    data=st.data(),
)
def test_whole_damage_die_roll_is_the_faces_plus_y(whole: int, bonus: int, data: st.DataObject) -> None:
    # rule F10: X:10sd + Y is the plain sum, between X + Y and 10X + Y
    faces = data.draw(st.lists(st.integers(1, 10), min_size=whole, max_size=whole))
    result = damage.roll_damage(damage.parse_damage_die_roll(f"{whole}+{bonus}"), faces)
    assert result.total == sum(faces) + bonus
    assert whole + bonus <= result.total <= 10 * whole + bonus


# --- F10: WEP MOD vs range -----------------------------------------------------------------------------


def test_wep_mod_vs_range_records_row_and_band() -> None:
    # rule F10, procedure (3), example Table 3-3: WEP MOD 4 at 60 m -> band 50 < 60 <= 100 (index 4) -> 15
    result = damage.wep_mod_damage(_wep(), 4, D(60))
    assert (result.band, result.band_bound_m, result.points) == (4, D(100), 15)


def test_wep_mod_at_point_blank_reads_the_first_band() -> None:
    # rule F10: weaponry starts at 25 cm; 0.25 m is in the first band (<= 3 m): WEP MOD 2 -> 12
    assert damage.wep_mod_damage(_wep(), 2, D("0.25")).points == 12


def test_range_of_zero_reads_the_first_band() -> None:
    # rule F10 (ruling): a victim at a grenade's blast point, 0 m away, reads the first band: WEP MOD 2 -> 12
    assert damage.wep_mod_damage(_wep(), 2, D(0)).points == 12


def test_negative_range_is_refused() -> None:
    # rule F10: a range is 0 m or more
    with pytest.raises(ValueError, match="0 m or more"):
        damage.wep_mod_damage(_wep(), 2, D(-1))


# --- F10: grazing shots ----------------------------------------------------------------------------------


def test_percent_under_is_target_minus_roll() -> None:
    # rule F10: MARKS 60, roll 45 -> %UNDER = 60 - 45 = 15
    assert damage.percent_under(60, 45) == 15


def test_grazing_shot_scales_by_percent_under_over_marks() -> None:
    # rule F10: 20 points, MARKS 60, roll 45 -> 20 x 15 / 60 = 5
    assert damage.grazing_damage(20, 60, 45).total == 5


def test_grazing_shot_rounds_half_up() -> None:
    # rule F10 (ruling): 7 points, MARKS 40, roll 20 -> 7 x 20 / 40 = 3.5 -> 4
    assert damage.grazing_damage(7, 40, 20).total == 4


def test_grazing_shot_may_do_no_damage() -> None:
    # rule F10 (ruling): 5 points, MARKS 60, roll 59 -> 5 x 1 / 60 = 0.083 -> 0
    assert damage.grazing_damage(5, 60, 59).total == 0


def test_roll_equal_to_target_is_a_miss() -> None:
    # rule F10 with F8 ("under"): MARKS 60, roll 60 is not a hit, so it has no grazing damage
    with pytest.raises(ValueError, match="not under 60: a miss does no damage"):
        damage.grazing_damage(20, 60, 60)


@given(
    points=st.integers(min_value=0, max_value=5000),
    target=st.integers(min_value=2, max_value=150),
    data=st.data(),
)
def test_grazing_never_adds_damage(points: int, target: int, data: st.DataObject) -> None:
    # rule F10: %UNDER / MARKS is below one, so a grazing shot never does more than the full points
    roll = data.draw(st.integers(min_value=1, max_value=min(target - 1, 100)))
    assert 0 <= damage.grazing_damage(points, target, roll).total <= points


# --- F11: damage percentage and categories ------------------------------------------------------------


def test_damage_percentage() -> None:
    # rule F11: 3 points taken of a 6-point hand -> 3 / 6 x 100 = 50 %
    assert damage.damage_percentage(3, 6) == 50


def test_damage_percentage_keeps_fractions() -> None:
    # rule F11: 1 of 6 -> 16.666...7 %
    assert damage.damage_percentage(1, 6) == D("16.66666666666666666666666667")


def test_category_of_the_texts_86_to_90_band() -> None:
    # rule F11: 44 of 50 points -> 88 % -> category ceil(88 / 5) = 18, printed 86-90
    category = damage.description_category(44, 50)
    assert category == 18
    assert damage.category_band(18) == (86, 90)


def test_exactly_5_percent_is_the_first_category() -> None:
    # rule F11: 1 of 20 -> 5 % -> category 1 (1-5)
    assert damage.description_category(1, 20) == 1


def test_just_above_5_percent_is_the_second_category() -> None:
    # rule F11 (ruling): 2 of 38 -> 5.26 % -> category 2 (6-10)
    assert damage.description_category(2, 38) == 2


def test_no_damage_has_no_category() -> None:
    # rule F11: 0 points -> no description
    assert damage.description_category(0, 6) is None


def test_above_100_percent_reads_the_last_category() -> None:
    # rule F11 (ruling): 9 of 6 -> 150 % -> category 20 (96-100)
    assert damage.description_category(9, 6) == 20


@given(taken=st.integers(min_value=1, max_value=5000), points=st.integers(min_value=1, max_value=500))
def test_category_band_holds_the_percentage(taken: int, points: int) -> None:
    # rule F11: the percentage lies above the band before the category, and within its own (up to 100 %)
    category = damage.description_category(taken, points)
    assert category is not None
    low, high = damage.category_band(category)
    percentage = damage.damage_percentage(taken, points)
    assert percentage > low - 1
    assert percentage <= high or category == 20


# --- F11: structure, function, destruction, healing -----------------------------------------------------


def test_structure_is_the_first_tenth_rounded_up() -> None:
    # rule F11 (ruling): a hand of 6 points -> ceil(0.6) = 1 structure point; 30 points -> 3
    assert (damage.structure_points(6), damage.structure_points(30)) == (1, 3)


def test_hand_is_destroyed_at_thirty_points() -> None:
    # rule F11, the text's example: "the average hand with its six points is totally destroyed when it
    # has received thirty points (5 x 6)"
    assert damage.destruction_points(6) == 30
    assert damage.part_damage(30, 6).destroyed
    assert not damage.part_damage(29, 6).destroyed


def test_structure_is_lost_before_function() -> None:
    # rule F11: hand 6 points (1 structure, 5 function); 1 point taken -> structure 1, function still 5
    state = damage.part_damage(1, 6)
    assert (state.structure_lost, state.function_lost, state.function_left) == (1, 0, 5)


def test_part_without_points_left_has_no_function() -> None:
    # rule F11: hand 6 points, 6 taken -> structure 1, function 5 lost, none left
    state = damage.part_damage(6, 6)
    assert (state.function_lost, state.function_left, state.functional) == (5, 0, False)


def test_part_damage_records_percentage_and_category() -> None:
    # rule F11: 4 of 6 -> 66.67 % -> category ceil(66.67 / 5) = 14 (66-70)
    state = damage.part_damage(4, 6)
    assert state.category == 14
    assert state.percentage == D("66.66666666666666666666666667")


def test_medical_healing_cannot_restore_structure() -> None:
    # rule F11: 20-point leg (2 structure) with 8 taken; surgery heals 10 -> 8 - 10 stops at 2
    assert damage.heal(8, 10, 20, natural=False) == 2


def test_natural_healing_restores_structure() -> None:
    # rule F11: the same leg healing naturally by 10 -> 0
    assert damage.heal(8, 10, 20, natural=True) == 0


def test_medical_healing_of_structure_only_damage_does_nothing() -> None:
    # rule F11: 1 point taken on a 20-point leg is all structure (2): medical healing leaves it at 1
    assert damage.heal(1, 5, 20, natural=False) == 1


# --- F11: descriptions --------------------------------------------------------------------------------


def test_description_reads_the_category_row() -> None:
    # rule F11, example Table 3-8: category 18 (86-90) is the first bone row
    row = damage.description(_blade(), 18)
    assert row.text == "The blade scores the bone."


def test_additional_descriptions_follow_the_texts_example() -> None:
    # rule F11, the text's example on Table 3-8: from 86-90 also read 81-85, 61-65, 41-45 and 11-15
    table = _blade()
    rows = damage.additional_descriptions(table, 18)
    by_text = {row.text: index for index, row in enumerate(table.category, start=1)}
    assert [damage.category_band(by_text[row.text]) for row in rows] == [
        (81, 85),
        (61, 65),
        (41, 45),
        (11, 15),
    ]


def test_additional_descriptions_of_the_first_layer_are_none() -> None:
    # rule F11: 11-15 is in the first layer (skin): nothing earlier to read
    assert damage.additional_descriptions(_blade(), 3) == ()


def test_exoskeleton_reads_bone_first() -> None:
    # rule F11: an exoskeleton race's category 1 (1-5) reads the first bone row, category 4 the first skin
    table = _blade()
    assert damage.description(table, 1, exoskeleton=True).text == "The blade scores the bone."
    assert damage.description(table, 4, exoskeleton=True).layer == "skin"


def test_exoskeleton_additional_descriptions_include_the_bone_layer() -> None:
    # rule F11: exoskeleton, category 5 (21-25, the second skin row) also reads the bone layer's last row
    rows = damage.additional_descriptions(_blade(), 5, exoskeleton=True)
    assert [row.text for row in rows] == ["The bone is cut through; the part has no function."]


def test_exoskeleton_needs_a_bone_layer() -> None:
    # rule F11: a table without `bone_layer` cannot be reordered for an exoskeleton race
    text = (EXAMPLES / "3-8.toml").read_text(encoding="utf-8").replace('bone_layer = "bone"\n', "", 1)
    table = dt.parse_table("3-8.toml", text)
    assert isinstance(table, dt.DescriptionTable)
    with pytest.raises(TableError, match=r"3-8\.toml: table 3-8 names no `bone_layer`"):
        damage.description(table, 1, exoskeleton=True)


def test_exoskeleton_order_is_a_permutation() -> None:
    # rule F11: reordering keeps all twenty rows
    table = _blade()
    assert sorted(row.text for row in damage.reading_order(table, exoskeleton=True)) == sorted(
        row.text for row in table.category
    )


# --- F12: organ system damage -------------------------------------------------------------------------


def test_organ_damage_is_tissue_percentage_times_factor() -> None:
    # rule F12, example 3-3.1: chest 50 % x circulatory 1.2 = 60 -> Table 3-15.1 row "at least 60"
    (result,) = damage.organ_damage(D(50), "chest", _factors(), [_circulatory()])
    assert (result.factor, result.value) == (D("1.2"), D("60.0"))
    assert result.effect is not None
    assert result.effect.at_least == 60


def test_respiratory_damage_in_the_foot_is_none() -> None:
    # rule F12: "Respiratory damage in the foot is improbable": foot factor 0 -> 80 % x 0 = 0, no effect
    (result,) = damage.organ_damage(D(80), "foot", _factors(), [_respiratory()])
    assert result.value == 0
    assert result.effect is None


def test_decentralized_system_takes_the_column_mean() -> None:
    # rule F12 (ruling), Aracnian/Eebek circulatory: mean of example column
    # (0.5 + 1.0 + 1.2 + 0.8 + 0.4 + 0.2 + 0.5 + 0.2) / 8 = 4.8 / 8 = 0.6; foot 50 % -> 30
    (result,) = damage.organ_damage(
        D(50), "foot", _factors(), [_circulatory()], decentralized=["circulatory"]
    )
    assert (result.factor, result.value) == (D("0.6"), D("30.0"))


def test_organ_damage_for_each_table_given() -> None:
    # rule F12: head 40 % -> circulatory 40 x 0.5 = 20, respiratory 40 x 0.3 = 12
    results = damage.organ_damage(D(40), "head", _factors(), [_circulatory(), _respiratory()])
    assert [(r.system, r.value) for r in results] == [("circulatory", D("20.0")), ("respiratory", D("12.0"))]


def test_poison_damages_only_the_systems_it_affects() -> None:
    # rule F12: a poison of WEP MOD 3 (first band: 20 points) in an abdomen of 40 points -> 50 %;
    # it affects the circulatory system only: 50 x 0.8 = 40 -> row "at least 40"
    result = damage.poison_damage(3, "abdomen", 40, _wep(), _factors(), [_circulatory()])
    assert (result.wep_mod.points, result.tissue_percentage) == (20, D(50))
    assert [(o.system, o.value) for o in result.organs] == [("circulatory", D("40.0"))]
    assert result.organs[0].effect is not None
    assert result.organs[0].effect.at_least == 40


def test_poison_at_a_given_range() -> None:
    # rule F12: a dart of WEP MOD 3 at 30 m reads band 4: 12 points of a 40-point abdomen -> 30 %
    result = damage.poison_damage(3, "abdomen", 40, _wep(), _factors(), [_circulatory()], range_m=D(30))
    assert result.tissue_percentage == 30


@given(percentage=st.decimals(min_value=0, max_value=500, places=2, allow_nan=False, allow_infinity=False))
def test_organ_damage_is_proportional_to_tissue_damage(percentage: Decimal) -> None:
    # rule F12: value = percentage x factor; head nervous-endocrine factor 1.5
    table = dt.parse_table(
        "3-15.3.toml",
        'table = "3-15.3"\nexample = true\nsystem = "nervous-endocrine"\n[[row]]\nat_least = 1\ntext = "x"\n',
    )
    assert isinstance(table, dt.OrganTable)
    (result,) = damage.organ_damage(percentage, "head", _factors(), [table])
    assert result.value == percentage * D("1.5")


def test_text_that_is_not_a_damage_die_roll_is_quoted_in_a_few_dozen_characters() -> None:
    with pytest.raises(ValueError, match="expected a damage die roll") as caught:
        damage.parse_damage_die_roll("x" * 100)
    assert "x" * 41 not in str(caught.value)
