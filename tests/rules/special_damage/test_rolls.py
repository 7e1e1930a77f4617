"""Scoring special damage, the type roll, lost equipment and computer damage (rules S1, S2, S3, S6)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.rules.special_damage import rolls
from affray.rules.special_damage.rolls import (
    COMPUTER_EXPLOSION,
    ROBOT_EXPLOSION,
    WEAPON_INSTEAD_PERCENT,
    destroy_programs,
    equipment_lost,
    explodes,
    living_row,
    programs_destroyed,
    robot_row,
    scores,
    special_chance,
    type_total,
)
from affray.rules.special_damage.tables import OR_LESS, OR_MORE, load_living, load_modifiers, load_robots

D = Decimal
totals = st.integers(min_value=OR_LESS, max_value=OR_MORE)


# rule S1: the text's example: Fl'remp, Beam Weapons level 4: 3 + 2 x 4 = 11 %; she rolls 06 and scores
def test_text_example_level_4_gives_11_and_a_roll_of_06_scores() -> None:
    chance = special_chance(4)
    assert chance == 11
    assert scores(6, chance, hit_chance=D(60))


# rule S1: 3 + 2 x 2 + 3 rounds aiming = 10 %
def test_each_round_of_aiming_adds_one_percent() -> None:
    assert special_chance(2, aim_rounds=3) == 10


# rule S1: 3 + 2 x 1 + min(14, 10) = 15 %
def test_aiming_adds_at_most_ten_percent() -> None:
    assert special_chance(1, aim_rounds=14) == 15


# rule S1 (ruling): at or under the chance: 11 against 11 % scores, 12 does not
def test_a_roll_equal_to_the_chance_scores_and_one_over_does_not() -> None:
    assert scores(11, 11, D(50))
    assert not scores(12, 11, D(50))


# rule S1: a to-hit chance of 10 % below the special chance of 11 %: no special damage, even on 01
def test_no_special_damage_when_the_hit_chance_is_below_the_special_chance() -> None:
    assert not scores(1, 11, D("10.9"))
    assert scores(1, 11, D(11))


# rule S2: a target in an active defensive screen cannot take special damage
def test_a_screened_target_takes_no_special_damage() -> None:
    assert not scores(1, 11, D(80), screened=True)


# rule S1
def test_a_negative_skill_level_is_an_error() -> None:
    with pytest.raises(ValueError, match="skill level"):
        special_chance(-1)


# rule S2: 7 + short range (+1) + beam pistol (+3) + 4 skill levels (+4) - target makes RS check (-2) = 13
def test_type_total_adds_every_modifier() -> None:
    assert type_total(7, [1, 3, 4, -2]) == 13


# rule S2, S9: careful aiming for 7 rounds counts +5, not +7; 3 weapon skill levels +3
def test_counted_modifiers_respect_their_max() -> None:
    table = load_modifiers()
    assert table.named("Careful aiming").contribution(7) == 5
    assert table.named("Per skill level with weapon").contribution(3) == 3
    assert table.named("Moving target").contribution(2) == -1


# rule S9: the Robotics/Computer skill row counts only against robots and computers
def test_robotics_row_does_not_apply_to_living_targets() -> None:
    row = load_modifiers().named("Per Robotics or Computer skill")
    assert row.applies("robot")
    assert row.applies("computer")
    assert not row.applies("living")


# rule S2, S3: 1 + (-1) = 0 and -12 read the first row, "None"
def test_totals_below_the_table_read_the_none_row() -> None:
    assert living_row(load_living(), 0).damage == "None"
    assert living_row(load_living(), -12).damage == "None"


# rule S2, S3: 9 + 6 + 2 = 17: back wound, leg paralyzed, 15 Stamina, 2 units
def test_total_17_is_back_wound() -> None:
    row = living_row(load_living(), type_total(9, [6, 2]))
    assert (row.damage, row.stamina, row.equipment) == ("Back wound, leg paralyzed", 15, 2)


# rule S2, S5: 10 + 6 + 5 + 2 = 23: explosion, 1000 Stamina, 15 units; 5000 still reads the last row
def test_totals_above_the_table_read_the_last_row() -> None:
    assert robot_row(load_robots(), type_total(10, [6, 5, 2])).damage == "Explosion (cannot be repaired)"
    assert robot_row(load_robots(), 5000).equipment == 15


# rule S3: 5-6 reads one row for both totals
def test_a_range_row_covers_both_ends() -> None:
    assert living_row(load_living(), 5) is living_row(load_living(), 6)


@given(totals)
# rule S3: every total from "1 or less" to "23+" is covered by exactly one row
def test_living_table_covers_every_total_exactly_once(total: int) -> None:
    assert sum(row.covers(total) for row in load_living().rows) == 1


@given(totals)
# rule S5: every total from "1 or lower" to "23+" is covered by exactly one row
def test_robot_table_covers_every_total_exactly_once(total: int) -> None:
    assert sum(row.covers(total) for row in load_robots().rows) == 1


@given(st.integers(min_value=-10_000, max_value=10_000))
# rule S2: the look-up always returns a row, the same one the covering row gives inside the range
def test_row_lookup_is_total(total: int) -> None:
    row = living_row(load_living(), total)
    assert row.covers(max(min(total, OR_MORE), OR_LESS))


# rule S3 (ruling): a row losing 2 units, the victim picking clips of which he has several: 2 x 2 = 4
def test_multiple_units_of_a_type_double_the_loss() -> None:
    assert equipment_lost(2, has_multiple=True) == 4
    assert equipment_lost(2, has_multiple=False) == 2


# rule S3: 10 % chance a weapon is destroyed instead: d100 10 does, 11 does not
def test_weapon_destroyed_instead_on_ten_or_less() -> None:
    assert WEAPON_INSTEAD_PERCENT == 10
    assert rolls.weapon_instead(10)
    assert not rolls.weapon_instead(11)


# rule S6: 14 // 5 = 2 programs; 4 // 5 = 0; -3 gives 0, not -1
def test_programs_destroyed_is_the_roll_divided_by_five_rounded_down() -> None:
    assert programs_destroyed(14) == 2
    assert programs_destroyed(4) == 0
    assert programs_destroyed(-3) == 0


# rule S6: levels 3, 1, 2, 1 losing 3: the two level-1 programs and the level 2 go; level 3 remains
def test_lowest_level_programs_are_destroyed_first() -> None:
    assert destroy_programs([3, 1, 2, 1], 3) == ((1, 1, 2), (3,))


# rule S6: an intact Computer Security program sets off its alarms; a destroyed one does not
def test_intact_security_program_sets_off_alarms() -> None:
    assert rolls.alarms_set_off(has_security_program=True, security_destroyed=False)
    assert not rolls.alarms_set_off(has_security_program=True, security_destroyed=True)


# rule S6: 4 programs, 5 destroyed: explodes; 4 destroyed: does not
def test_computer_explodes_only_when_more_are_destroyed_than_possessed() -> None:
    assert explodes(5, 4)
    assert not explodes(4, 4)


# rules S5, S6: 6d10 within 5 m for a computer, 7d10 within 10 m for a robot, both with an RS check
def test_explosions() -> None:
    assert (COMPUTER_EXPLOSION.dice, COMPUTER_EXPLOSION.radius_m, COMPUTER_EXPLOSION.defense) == (
        "6d10",
        5,
        "RS",
    )
    assert load_robots().effect_named("Explosion").explosion == ROBOT_EXPLOSION
    assert (ROBOT_EXPLOSION.dice, ROBOT_EXPLOSION.radius_m) == ("7d10", 10)
