"""Percent to hit and grenades (rules F1, F8, F9), against the invented example tables by hand.

The example tables (examples/tables/fivestep/) are invented data; the figures used here:
Table 3-1 at 11-50 m, MARKS 41-60: 50. Table 3-2 at 11-50 m: sum 11-20: 28, sum 21-40: 45.
Table 3-7.0: light rain 3, heavy rain 8, fog 12, night 20.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.rules.fivestep import hitting
from affray.rules.fivestep.hitting import Adversity, GrenadeThrow, ToHit, percent_to_hit_1, roll_needed
from affray.rules.fivestep.usertables import MissingTable, UserTable, load_tables, parse_table

D = Decimal
EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "tables" / "fivestep"
TABLES: dict[str, UserTable] = load_tables(
    [EXAMPLES / f"{n}.toml" for n in ("3-1", "3-2", "3-3.4", "3-4.0", "3-4.1", "3-7.0")]
)
MARKS = D("52.5")  # (AIM 65 + WEP DIF 40) / 2
RAIN = Adversity(table="3-7.0", condition="light rain")
FOG = Adversity(table="3-7.0", condition="fog")
NIGHT = Adversity(table="3-7.0", condition="night, no light")
HEAVY = Adversity(table="3-7.0", condition="heavy rain")


def _short_tables(to_hit: int, against: int) -> dict[str, UserTable]:
    """A 3-1 and a 3-2 of one band up to 100 m and one column."""
    return {
        name: parse_table(
            f"{name}.toml", f'table = "{name}"\nexample = true\n[[row]]\nrange_m_max = 100\nvalue = {v}\n'
        )
        for name, v in (("3-1", to_hit), ("3-2", against))
    }


# --- skills ------------------------------------------------------------------------------------------


# rule F8: MARKS = (AIM + WEP DIF) / 2 = (65 + 40) / 2 = 52.5
def test_marksmanship() -> None:
    assert hitting.marksmanship(65, 40) == MARKS


# rule F8: BRAWL = (BRAWL + ATTACK DIF) / 2 = (70 + 30) / 2 = 50
def test_brawlmanship() -> None:
    assert hitting.brawlmanship(70, 30) == 50


# --- F1 reach ----------------------------------------------------------------------------------------


# rule F1 (ruling): hand to hand up to and including 3 m
def test_hand_to_hand_reach_is_three_metres() -> None:
    assert hitting.in_reach("hand_to_hand", D(3))
    assert not hitting.in_reach("hand_to_hand", D("3.01"))


# rule F1: weaponry from 25 cm to 3 km, both included
def test_weaponry_reach_is_25_cm_to_3_km() -> None:
    assert hitting.in_reach("weaponry", D("0.25"))
    assert hitting.in_reach("weaponry", D(3000))
    assert not hitting.in_reach("weaponry", D("0.24"))
    assert not hitting.in_reach("weaponry", D("3000.001"))


# rule F8: a jumping side-kick from 4 m fails whatever the roll
def test_hand_to_hand_beyond_three_metres_fails() -> None:
    result = hitting.percent_to_hit_1(D(90), 1, kind="hand_to_hand", range_m=D(4))
    assert result.outcome == "out_of_reach"
    assert not result.hit
    assert result.roll is None


# --- procedure 1 -------------------------------------------------------------------------------------


# rule F8 procedure 1: MARKS 52.5, roll 52 is under: hit (under by 0.5)
def test_procedure_1_roll_under_marks_hits() -> None:
    result = hitting.percent_to_hit_1(MARKS, 52, kind="weaponry", range_m=D(20))
    assert result.hit
    assert result.under == D("0.5")


# rule F8 procedure 1: MARKS 52.5, roll 53: miss
def test_procedure_1_roll_over_marks_misses() -> None:
    assert not hitting.percent_to_hit_1(MARKS, 53, kind="weaponry", range_m=D(20)).hit


# rule F8 (ruling: strictly under): BRAWL 50, roll 50 misses; option at_or_under hits
def test_procedure_1_equal_roll_misses_unless_at_or_under() -> None:
    assert not hitting.percent_to_hit_1(D(50), 50, kind="hand_to_hand", range_m=D(1)).hit
    assert hitting.percent_to_hit_1(D(50), 50, kind="hand_to_hand", range_m=D(1), at_or_under=True).hit


# rule F8 procedure 1: hit exactly when the roll is under the skill
@given(skill=st.integers(min_value=0, max_value=120), roll=st.integers(min_value=1, max_value=100))
def test_procedure_1_hits_iff_under(skill: int, roll: int) -> None:
    assert hitting.percent_to_hit_1(D(skill), roll, kind="weaponry", range_m=D(10)).hit is (roll < skill)


# --- procedure 2 -------------------------------------------------------------------------------------


# rule F8 procedure 2: MARKS 52.5 at 30 m reads 50 on Table 3-1; roll 49 hits, 50 misses
def test_procedure_2_reads_table_3_1() -> None:
    hit = hitting.percent_to_hit_2(TABLES, MARKS, 49, kind="weaponry", range_m=D(30))
    assert hit.percent_to_hit == 50
    assert hit.hit
    assert not hitting.percent_to_hit_2(TABLES, MARKS, 50, kind="weaponry", range_m=D(30)).hit


# rule F8 (ruling): beyond Table 3-1's last row the attack misses without a roll
def test_procedure_2_beyond_the_table_misses() -> None:
    result = hitting.percent_to_hit_2(_short_tables(60, 0), MARKS, 1, kind="weaponry", range_m=D(150))
    assert result.outcome == "off_table"
    assert not result.hit


# the inventory: procedure 2 without Table 3-1 names it
def test_procedure_2_needs_table_3_1() -> None:
    with pytest.raises(MissingTable, match="procedure 2 to hit needs Table 3-1, which the scenario does not"):
        hitting.percent_to_hit_2({}, MARKS, 10, kind="weaponry", range_m=D(30))


# --- procedure 3 -------------------------------------------------------------------------------------


# rule F8 procedure 3b: light rain 3 + fog 12 = 15
def test_adversity_modifiers_are_summed() -> None:
    assert hitting.adversity_sum(TABLES, [RAIN, FOG]) == 15


# rule F8 procedure 3: 30 m, sum 15 -> Percent Against 28; 50 - 28 = 22; roll 1 is 21 under: direct hit
def test_procedure_3_more_than_20_under_is_a_direct_hit() -> None:
    result = hitting.percent_to_hit_3(TABLES, MARKS, [RAIN, FOG], 1, kind="weaponry", range_m=D(30))
    assert (result.percent_to_hit, result.modifier_sum, result.percent_against) == (D(50), D(15), D(28))
    assert result.result == 22
    assert result.under == 21
    assert result.outcome == "direct"


# rule F8 procedure 3: 22 - roll 2 = 20 under (20 or less): a random hit
def test_procedure_3_twenty_or_less_under_is_a_random_hit() -> None:
    result = hitting.percent_to_hit_3(TABLES, MARKS, [RAIN, FOG], 2, kind="weaponry", range_m=D(30))
    assert result.outcome == "random"
    assert result.hit


# rule F8 (ruling, as printed): a positive result hits even on a roll over it: 22 - 30 = -8 -> random
def test_procedure_3_positive_result_hits_even_on_a_roll_over_it() -> None:
    result = hitting.percent_to_hit_3(TABLES, MARKS, [RAIN, FOG], 30, kind="weaponry", range_m=D(30))
    assert result.outcome == "random"


# rule F8 (option over_misses): 22 - 30 = -8: a miss
def test_procedure_3_over_misses_option() -> None:
    result = hitting.percent_to_hit_3(
        TABLES, MARKS, [RAIN, FOG], 30, kind="weaponry", range_m=D(30), over_misses=True
    )
    assert result.outcome == "miss"


# rule F8 procedure 3c: heavy rain 8 + night 20 = 28 -> 45 against at 30 m; 50 - 45 = 5 still hits;
# at 300 m MARKS reads 20 (201-1000 m) and night alone (20) reads 45 (201-3000 m): 20 - 45 = -25 misses,
# with no roll needed
def test_procedure_3_negative_result_misses() -> None:
    assert hitting.percent_to_hit_3(TABLES, MARKS, [HEAVY, NIGHT], 99, kind="weaponry", range_m=D(30)).hit
    result = hitting.percent_to_hit_3(TABLES, MARKS, [NIGHT], None, kind="weaponry", range_m=D(300))
    assert result.result == -25
    assert result.outcome == "miss"
    assert result.roll is None


# rule F8 (ruling): a result of exactly 0 (40 - 40) misses
def test_procedure_3_zero_result_misses() -> None:
    result = hitting.percent_to_hit_3(_short_tables(40, 40), MARKS, [], None, kind="weaponry", range_m=D(10))
    assert result == ToHit(
        procedure=3,
        outcome="miss",
        skill=MARKS,
        range_m=D(10),
        percent_to_hit=D(40),
        modifier_sum=D(0),
        percent_against=D(40),
        result=D(0),
    )


# rule F8: a positive result needs the d100 that places the hit
def test_procedure_3_positive_result_needs_a_roll() -> None:
    with pytest.raises(ValueError, match="needs the d100 roll"):
        hitting.percent_to_hit_3(TABLES, MARKS, [], None, kind="weaponry", range_m=D(30))


# the inventory: procedure 3 names Table 3-2 when it is missing
def test_procedure_3_needs_table_3_2() -> None:
    with pytest.raises(MissingTable, match="procedure 3 to hit needs Table 3-2"):
        hitting.percent_to_hit_3({"3-1": TABLES["3-1"]}, MARKS, [], 5, kind="weaponry", range_m=D(30))


# the inventory: an adversity condition from a 3-7.x table the scenario lacks names that table
def test_adversity_needs_its_table() -> None:
    with pytest.raises(MissingTable, match=r"procedure 3 to hit needs Table 3-7\.2"):
        hitting.adversity_sum(TABLES, [Adversity(table="3-7.2", condition="target running")])


# rule F8: a random hit reads Table 3-3.4: roll 12 -> chest (example table)
def test_random_hit_location() -> None:
    assert hitting.random_hit_location(TABLES, 12) == "chest"


# --- F9 grenades -------------------------------------------------------------------------------------


# rule F9: BRAWL 50, roll 49 is under: lands exactly where aimed (no table needed)
def test_grenade_under_brawl_lands_exactly() -> None:
    assert hitting.grenade({}, D(50), 49) == GrenadeThrow(brawl=D(50), roll=49, over=D(-1), outcome="exact")


# rule F9 (ruling): roll 50 is 0 over: bounces, example Table 3-4.1 row 0-5: 1 bounce, 1 m
def test_grenade_equal_to_brawl_bounces() -> None:
    result = hitting.grenade(TABLES, D(50), 50)
    assert result.outcome == "bounce"
    assert result.bounce is not None
    assert (result.bounce.bounces, result.bounce.distance_m) == (1, D(1))


# rule F9 (ruling): roll 70 is exactly 20 over: still bounces (last row, 3 bounces, 8 m)
def test_grenade_twenty_over_bounces() -> None:
    result = hitting.grenade(TABLES, D(50), 70)
    assert result.bounce is not None
    assert result.bounce.bounces == 3


# rule F9: BRAWL 52.5, roll 60 is 7.5 over: the 6-10 row
def test_grenade_fractional_over_reads_the_next_row() -> None:
    result = hitting.grenade(TABLES, D("52.5"), 60)
    assert result.bounce is not None
    assert result.bounce.over_max == 10


# rule F9: roll 71 is 21 over: misses by 1d10 + 13 = 4 + 13 = 17 m
def test_grenade_more_than_twenty_over_misses_by_d10_plus_13() -> None:
    result = hitting.grenade(TABLES, D(50), 71, miss_d10=4)
    assert (result.outcome, result.miss_m) == ("miss", 17)


# the inventory: a bounce without Table 3-4.1 names it
def test_grenade_bounce_needs_table_3_4_1() -> None:
    with pytest.raises(MissingTable, match=r"a grenade bounce needs Table 3-4\.1"):
        hitting.grenade({}, D(50), 55)


# rule F9: throw distance by Physical Strength and weight: 45, 0.8 kg -> 28 m (example Table 3-4.0)
def test_throw_distance() -> None:
    assert hitting.throw_distance(TABLES, 45, D("0.8")) == 28


def test_procedure_1_needs_a_roll_under_the_skill() -> None:
    # F8: procedure 1 hits under the skill; BRAWL (50 + 25) / 2 = 37.5
    assert roll_needed(percent_to_hit_1(Decimal("37.5"), 1, kind="hand_to_hand", range_m=Decimal(2))) == (
        "under 37.5 to hit"
    )


def test_at_or_under_is_said_as_such() -> None:
    result = percent_to_hit_1(Decimal(40), 1, kind="hand_to_hand", range_m=Decimal(2), at_or_under=True)
    assert roll_needed(result, at_or_under=True) == "at or under 40 to hit"


def test_procedure_3_needs_more_than_20_under_for_a_direct_hit() -> None:
    # F8: 60 to hit - 15 against = 45; a roll under 45 - 20 = 25 is a direct hit, any other a random one
    result = ToHit(procedure=3, outcome="miss", skill=Decimal(60), range_m=Decimal(5), result=Decimal(45))
    assert roll_needed(result) == "under 25 for a direct hit, else a random one"
    assert roll_needed(result, over_misses=True) == "under 25 for a direct hit, under 45 for a random one"
