"""``affray explain`` for the fivestep outcomes: a to-hit (F1, F8), a damage (F10-F12) and a grenade (F9)
laid out step by step, with the arithmetic, the table rows read and the events they rest on."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from affray import rulesets
from affray.events.base import Event, Roll
from affray.events.fivestep.kinds import (
    ActionTaken,
    AdversityApplied,
    DamageResolved,
    DieRoll,
    Grazing,
    GrenadeThrown,
    OrganEffect,
    ToHitResolved,
    TurnStarted,
    WepModRead,
)
from affray.events.fivestep.state import FivestepCombatant, FivestepState
from affray.events.special_damage.kinds import Injury, SpecialDamage
from affray.kernel.explanation import Explanation, Step
from affray.replays.explain import Index, explain
from affray.rulesets.fivestep.explanation import EXPLAINERS
from affray.rulesets.fivestep.narration import TELLERS
from tests.strategies import example_log, read

NAMES = ("a", "b", "c")


def roll(total: int, *faces: int, expr: str = "1d100", purpose: str = "to hit", roller: str = "a") -> Roll:
    return Roll(expr=expr, faces=faces or (total,), total=total, purpose=purpose, roller=roller, draw=1)


def state() -> FivestepState:
    fighters = {
        who: FivestepCombatant(
            id=who, name=who.title(), side=who, damage_points=Decimal(100), position=(Decimal(0), Decimal(0))
        )
        for who in NAMES
    }
    return FivestepState(combatants=fighters)


def history(*events: Event) -> Index:
    index = Index()
    for event in events:
        index.add(event, "")
    return index


def explained(event: Event, *earlier: Event) -> Explanation:
    return EXPLAINERS[type(event)](event, state(), history(*earlier, event))


def steps(event: Event, *earlier: Event) -> dict[str, Step]:
    return {step.what: step for step in explained(event, *earlier).steps}


def to_hit(**changes: Any) -> ToHitResolved:
    fields: dict[str, Any] = {
        "seq": 10,
        "t": 1583,
        "attacker": "a",
        "target": "b",
        "weapon": "Knife",
        "procedure": 1,
        "combat": "hand_to_hand",
        "range_m": Decimal("2.001"),
        "skill_name": "BRAWL",
        "attribute": 50,
        "difficulty": 25,
        "skill": Decimal("37.5"),
        "outcome": "hit",
        "percent_to_hit": Decimal("37.5"),
        "chance": Decimal("37.5"),
        "roll": roll(25),
        "under": Decimal("12.5"),
        "part": "head",
    }
    fields.update(changes)
    return ToHitResolved(**fields)


def shot(**changes: Any) -> ToHitResolved:
    """A procedure-3 rifle shot: MARKS (75 + 30) / 2 = 52.5; Table 3-1 50%; light rain +3 on Table 3-2: 8%."""
    fields: dict[str, Any] = {
        "weapon": "Rifle",
        "procedure": 3,
        "combat": "weaponry",
        "range_m": Decimal("29.53"),
        "skill_name": "MARKS",
        "attribute": 75,
        "difficulty": 30,
        "skill": Decimal("52.5"),
        "percent_to_hit": Decimal(50),
        "adversity": (AdversityApplied(table="3-7.0", condition="light rain", modifier=Decimal(3)),),
        "modifier_sum": Decimal(3),
        "percent_against": Decimal(8),
        "chance": Decimal(42),
        "outcome": "direct",
        "roll": roll(19),
        "under": Decimal(23),
        "part": "chest",
    }
    fields.update(changes)
    return to_hit(**fields)


def damage(**changes: Any) -> DamageResolved:
    fields: dict[str, Any] = {
        "seq": 11,
        "t": 1583,
        "attacker": "a",
        "target": "b",
        "weapon": "Knife",
        "procedure": 2,
        "part": "head",
        "range_m": Decimal("2.001"),
        "die_roll": DieRoll(
            expression="1",
            roll=roll(2, expr="1d10", purpose="damage"),
            whole_dice=2,
            fraction_points=0,
            bonus=0,
        ),
        "points": 2,
        "part_taken": 2,
        "part_points": 10,
        "percentage": Decimal(20),
        "category": 4,
        "structure_lost": 1,
        "function_left": 8,
        "functional": True,
    }
    fields.update(changes)
    return DamageResolved(**fields)


def rifle_damage(**changes: Any) -> DamageResolved:
    """Procedure 3: WEP MOD 4 at 26.42 m reads Table 3-3's band to 50 m: 19 points."""
    fields: dict[str, Any] = {
        "weapon": "Rifle",
        "procedure": 3,
        "part": "chest",
        "range_m": Decimal("26.42"),
        "die_roll": None,
        "wep_mod": WepModRead(wep_mod=4, band_bound_m=Decimal(50)),
        "points": 19,
        "part_taken": 19,
        "part_points": 36,
        "percentage": Decimal(19 * 100) / 36,
        "category": 11,
        "structure_lost": 4,
        "function_left": 17,
    }
    fields.update(changes)
    return damage(**fields)


def grenade(**changes: Any) -> GrenadeThrown:
    fields: dict[str, Any] = {
        "seq": 12,
        "t": 1273,
        "thrower": "a",
        "target": "b",
        "weapon": "Grenade",
        "range_m": Decimal("29.53"),
        "max_range_m": Decimal(50),
        "brawl": 60,
        "roll": roll(22, purpose="grenade"),
        "over": Decimal(-38),
        "outcome": "exact",
        "aimed_at": (Decimal(26), Decimal(14)),
        "landed": (Decimal(26), Decimal(14)),
    }
    fields.update(changes)
    return GrenadeThrown(**fields)


# --- to hit: the skill ------------------------------------------------------------------------------


def test_brawl_is_the_mean_of_the_attribute_and_the_attack_difficulty() -> None:
    # F8: BRAWL = (BRAWL 50 + ATTACK DIF 25) / 2 = 37.5
    step = steps(to_hit())["BRAWL"]
    assert (step.value, step.how, step.rule) == ("37.5", "(BRAWL 50 + ATTACK DIF 25) / 2", "F8")


def test_marks_is_the_mean_of_aim_and_the_weapon_difficulty() -> None:
    # F8: MARKS = (AIM 75 + WEP DIF 30) / 2 = 52.5
    step = steps(shot())["MARKS"]
    assert (step.value, step.how, step.rule) == ("52.5", "(AIM 75 + WEP DIF 30) / 2", "F8")


def test_an_injury_penalty_is_its_own_step_and_in_the_skill() -> None:
    # S3: BRAWL (50 + 25) / 2 = 37.5, injuries -10: the skill rolled against is 37.5 - 10 = 27.5
    found = steps(to_hit(skill=Decimal("27.5"), injury=-10, chance=Decimal("27.5"), under=Decimal("2.5")))
    assert (found["injuries"].value, found["injuries"].rule) == ("-10", "S3")
    assert (found["skill"].value, found["skill"].how, found["skill"].rule) == ("27.5", "37.5 -10", "F8")
    assert found["chance"].value == "27.5"


def test_a_ruled_modifier_is_the_referees_step_with_no_rule_id() -> None:
    # the referee's ruling: BRAWL 37.5 +5 = 42.5; roll 40 is under 42.5: a hit
    event = to_hit(
        skill=Decimal("42.5"), ruled_modifier=5, chance=Decimal("42.5"), roll=roll(40), under=Decimal("2.5")
    )
    found = steps(event)
    ruled = found["ruled modifier"]
    assert (ruled.value, ruled.rule) == ("+5", "")
    assert "the referee's ruling" in ruled.how
    assert (found["skill"].value, found["skill"].how) == ("42.5", "37.5 +5")
    assert found["outcome"].value == "hit"


def test_an_injury_and_a_ruled_modifier_add_up_in_the_skill() -> None:
    # BRAWL 37.5, injuries -10, the referee's +5: 37.5 - 10 + 5 = 32.5
    event = to_hit(
        skill=Decimal("32.5"), injury=-10, ruled_modifier=5, chance=Decimal("32.5"), under=Decimal("7.5")
    )
    assert steps(event)["skill"].how == "37.5 -10 +5"


# --- to hit: reach, procedures 1 and 2 --------------------------------------------------------------


def test_procedure_1_hits_on_a_roll_under_the_skill() -> None:
    # F8 procedure 1: BRAWL (50 + 25) / 2 = 37.5; roll 25 is 37.5 - 25 = 12.5 under 37.5: a hit
    found = steps(to_hit())
    assert (found["reach"].value, found["reach"].rule) == ("in reach", "F1")
    assert found["chance"].value == "37.5"
    assert (found["to-hit roll"].value, found["to-hit roll"].source) == ("25", "@a/to hit#1, generated")
    assert (found["under"].value, found["under"].how) == ("12.5", "37.5 - 25")
    assert (found["outcome"].value, found["outcome"].how) == ("hit", "25 < 37.5: under (ruling 24)")


def test_procedure_1_misses_on_a_roll_over_the_skill() -> None:
    # F8 procedure 1: roll 81 is 37.5 - 81 = -43.5 under 37.5 (43.5 over): a miss, nowhere hit
    event = to_hit(outcome="miss", roll=roll(81), under=Decimal("-43.5"), part=None)
    found = steps(event)
    assert found["under"].value == "-43.5"
    assert (found["outcome"].value, found["outcome"].how) == ("miss", "81 > 37.5: not under (ruling 24)")
    assert "hit location" not in found


def test_a_roll_equal_to_the_chance_that_hits_was_at_or_under() -> None:
    # ruling 24: BRAWL (55 + 25) / 2 = 40, roll 40: strictly under would miss, so it hit at_or_under
    event = to_hit(attribute=55, skill=Decimal(40), chance=Decimal(40), roll=roll(40), under=Decimal(0))
    assert "at_or_under" in steps(event)["outcome"].how


def test_procedure_2_reads_table_3_1_at_the_range_and_skill() -> None:
    # F8 procedure 2: Table 3-1 at 2.001 m, BRAWL 37.5 (for MARKS, ruling 56): 45; roll 30 is 15 under
    event = to_hit(
        procedure=2, percent_to_hit=Decimal(45), chance=Decimal(45), roll=roll(30), under=Decimal(15)
    )
    found = steps(event)
    table = found["percent to hit"]
    assert (table.value, table.rule) == ("45%", "F8")
    assert table.source == "Table 3-1, the row for 2.001 m, the BRAWL 37.5 column"
    assert "ruling 56" in table.how
    assert (found["under"].how, found["outcome"].value) == ("45 - 30", "hit")


def test_a_hand_to_hand_attack_beyond_3_m_is_out_of_reach_with_no_roll() -> None:
    # F1: hand to hand reaches 3 m; 4 m > 3 m: out of reach, no roll (rulings 23, 54)
    event = to_hit(
        range_m=Decimal(4),
        outcome="out_of_reach",
        percent_to_hit=None,
        chance=None,
        roll=None,
        under=None,
        part=None,
    )
    found = steps(event)
    assert (found["reach"].value, found["reach"].how) == (
        "out of reach",
        "hand to hand: 4 m > 3 m (ruling 23)",
    )
    assert (found["outcome"].value, found["outcome"].rule) == ("out_of_reach", "F1")
    assert "to-hit roll" not in found
    assert "chance" not in found


def test_a_shot_closer_than_25_cm_is_out_of_reach() -> None:
    # F1: weaponry reaches 0.25 m to 3000 m; 0.2 m is outside
    event = shot(
        range_m=Decimal("0.2"),
        outcome="out_of_reach",
        percent_to_hit=None,
        modifier_sum=None,
        percent_against=None,
        chance=None,
        roll=None,
        under=None,
        part=None,
    )
    assert steps(event)["reach"].how == "weaponry: 0.2 m outside 0.25 m to 3000 m (ruling 23)"


def test_a_range_beyond_table_3_1_is_off_the_table_with_no_roll() -> None:
    # ruling 25: a shot at 2500 m is in reach (F1, to 3000 m) but beyond Table 3-1's last row: a miss
    event = to_hit(
        procedure=2,
        combat="weaponry",
        range_m=Decimal(2500),
        outcome="off_table",
        percent_to_hit=None,
        chance=None,
        roll=None,
        under=None,
        part=None,
    )
    found = steps(event)
    assert (found["outcome"].value, found["outcome"].rule) == ("off_table", "F8")
    assert "Table 3-1 has no row for 2500 m" in found["outcome"].how
    assert "to-hit roll" not in found


# --- to hit: procedure 3 ----------------------------------------------------------------------------


def test_procedure_3_takes_the_percent_against_from_the_percent_to_hit() -> None:
    # F8 procedure 3: Table 3-1 50%; light rain +3 (Table 3-7.0), sum 3; Table 3-2 at 3: 8%; 50 - 8 = 42
    found = steps(shot())
    assert found["percent to hit"].value == "50%"
    rain = found["adversity: light rain"]
    assert (rain.value, rain.source) == ("+3", "Table 3-7.0, light rain row")
    assert (found["adversity sum"].value, found["adversity sum"].how) == ("3", "3")
    against = found["percent against"]
    assert (against.value, against.source) == ("8%", "Table 3-2, the row for 29.53 m, the adversity 3 column")
    assert (found["result"].value, found["result"].how) == ("42", "50 - 8 (ruling 27)")


def test_adversity_modifiers_are_summed() -> None:
    # F8 procedure 3b: light rain +3 and marksman moving +8: 3 + 8 = 11
    moving = AdversityApplied(table="3-7.1", condition="marksman moving", modifier=Decimal(8))
    event = shot(adversity=(*shot().adversity, moving), modifier_sum=Decimal(11))
    assert (steps(event)["adversity sum"].value, steps(event)["adversity sum"].how) == ("11", "3 + 8")


def test_table_3_2_is_read_with_no_adversity_too() -> None:
    # ruling 28: no conditions, sum 0, still read on Table 3-2 (0% against here): 50 - 0 = 50
    event = shot(
        adversity=(),
        modifier_sum=Decimal(0),
        percent_against=Decimal(0),
        chance=Decimal(50),
        under=Decimal(31),
    )
    found = steps(event)
    assert found["adversity sum"].how == "no conditions (ruling 28)"
    assert found["result"].value == "50"


def test_a_roll_more_than_20_under_the_result_is_a_direct_hit_on_the_part_aimed_at() -> None:
    # F8 procedure 3: result 42, roll 19: 42 - 19 = 23 under, more than 20: direct, on the chest aimed at
    found = steps(shot())
    assert (found["under"].value, found["under"].how) == ("23", "42 - 19")
    assert found["outcome"].value == "direct"
    assert found["hit location"].value == "chest"
    assert "aimed at" in found["hit location"].how
    assert "hit location roll" not in found


def test_any_other_roll_is_a_random_hit_on_table_3_3_4() -> None:
    # F8 procedure 3, ruling 27: result 42, roll 85 is 43 over: still a random hit; d100 25 on Table 3-3.4
    event = shot(
        outcome="random", roll=roll(85), under=Decimal(-43), part_roll=roll(25, purpose="hit location")
    )
    found = steps(event)
    assert found["outcome"].value == "random"
    assert found["outcome"].how.startswith("43 over")
    assert found["hit location roll"].value == "25"
    assert (found["hit location"].value, found["hit location"].source) == (
        "chest",
        "Table 3-3.4, row of d100 25",
    )


def test_a_roll_20_under_is_random_not_direct() -> None:
    # F8: "more than 20 under": result 42, roll 22 is exactly 20 under: a random hit
    event = shot(
        outcome="random", roll=roll(22), under=Decimal(20), part_roll=roll(25, purpose="hit location")
    )
    assert steps(event)["outcome"].value == "random"


def test_a_result_of_0_or_less_misses_with_no_roll() -> None:
    # ruling 27: Table 3-1 5% - Table 3-2 10% = -5: a miss, nothing rolled
    event = shot(
        percent_to_hit=Decimal(5),
        percent_against=Decimal(10),
        chance=Decimal(-5),
        outcome="miss",
        roll=None,
        under=None,
        part=None,
    )
    found = steps(event)
    assert found["result"].value == "-5"
    assert (found["outcome"].value, found["outcome"].rule) == ("miss", "F8")
    assert "0 or less" in found["outcome"].how
    assert "to-hit roll" not in found


def test_over_misses_makes_a_roll_over_the_result_a_miss() -> None:
    # option over_misses (ruling 27): result 42, roll 50 is 8 over: a miss
    event = shot(outcome="miss", roll=roll(50), under=Decimal(-8), part=None)
    assert "over_misses" in steps(event)["outcome"].how


def test_procedure_3_off_the_table_shows_the_adversity_read_and_no_roll() -> None:
    # ruling 25: at 3000 m Table 3-1 or 3-2 has no row; the adversity sum 3 was summed first
    event = shot(
        range_m=Decimal(3000),
        outcome="off_table",
        percent_to_hit=None,
        percent_against=None,
        chance=None,
        roll=None,
        under=None,
        part=None,
    )
    found = steps(event)
    assert found["adversity sum"].value == "3"
    assert found["outcome"].value == "off_table"
    assert "Table 3-1 or 3-2" in found["outcome"].how


# --- to hit: the referee's miss ---------------------------------------------------------------------


def test_a_ruled_miss_overrides_a_roll_that_hits() -> None:
    # F8: roll 25 is under 37.5, a hit by the rules; the referee's ruling: a miss whatever the roll
    event = to_hit(outcome="miss", ruled_miss=True, part=None)
    found = steps(event)
    assert (found["by the rules"].value, found["by the rules"].rule) == ("hit", "F8")
    assert (found["outcome"].value, found["outcome"].rule) == ("miss", "")
    assert "the referee's ruling" in found["outcome"].how
    assert explained(event).steps[-1] == found["outcome"]


def test_a_ruled_miss_on_an_attack_out_of_reach_still_shows_the_reach() -> None:
    # F1: 4 m > 3 m is out of reach by the rules; the ruling makes the outcome "miss"
    event = to_hit(
        range_m=Decimal(4),
        outcome="miss",
        ruled_miss=True,
        percent_to_hit=None,
        chance=None,
        roll=None,
        under=None,
        part=None,
    )
    found = steps(event)
    assert (found["reach"].value, found["by the rules"].value, found["outcome"].value) == (
        "out of reach",
        "out_of_reach",
        "miss",
    )


# --- to hit: what it depends on ---------------------------------------------------------------------


def test_a_to_hit_depends_on_the_attackers_turn_and_action() -> None:
    turn = TurnStarted(
        seq=4, combatant="a", round=1, piece=1, pieces=1, agility=60, available=60, end_ms=5000
    )
    action = ActionTaken(
        seq=9,
        combatant="a",
        procedure=2,
        action="stab with a knife",
        purpose="attack",
        cost=7,
        available=53,
        elapsed_ms=583,
    )
    others = TurnStarted(
        seq=5, combatant="b", round=1, piece=1, pieces=1, agility=60, available=60, end_ms=5000
    )
    found = explained(to_hit(), turn, others, action)
    assert [b.seq for b in found.depends_on] == [4, 9]


def test_an_injured_attackers_to_hit_depends_on_the_special_damage_it_took() -> None:
    # S3: the -9 in the skill came from the special damage b did to a (seq 7); a's own on c (seq 8) is not it
    def special(seq: int, attacker: str, target: str) -> SpecialDamage:
        return SpecialDamage(
            seq=seq,
            attacker=attacker,
            target=target,
            weapon="Pistol",
            skill_level=3,
            aim_rounds=0,
            chance=15,
            hit_roll=10,
            type_roll=roll(6, expr="1d10", purpose="special"),
            modifiers=(),
            total=9,
            table="living",
            damage="Arm damage",
            stamina=Decimal(5),
            equipment=0,
            injury=Injury(name="Arm damage", to_hit=-9),
        )

    event = to_hit(skill=Decimal("28.5"), injury=-9, chance=Decimal("28.5"), under=Decimal("3.5"))
    found = explained(event, special(7, "b", "a"), special(8, "a", "c"))
    assert [(b.seq, "injury" in b.why) for b in found.depends_on] == [(7, True)]


# --- damage: the points -----------------------------------------------------------------------------


def test_procedure_2_rolls_the_damage_die_roll_whole_dice_plus_y() -> None:
    # F10 procedure 2: "4+2" is 4 d10 + 2: 3 + 5 + 1 + 6 = 15, + 2 = 17
    dice = DieRoll(
        expression="4+2",
        roll=roll(15, 3, 5, 1, 6, expr="4d10", purpose="damage"),
        whole_dice=15,
        fraction_points=0,
        bonus=2,
    )
    found = steps(
        damage(
            die_roll=dice,
            points=17,
            part_taken=17,
            part_points=36,
            percentage=Decimal(1700) / 36,
            category=10,
            structure_lost=4,
            function_left=19,
        )
    )
    assert (found["DAMAGE DIE ROLL"].value, found["DAMAGE DIE ROLL"].how) == ("4+2", "X:10sd + Y: 4 d10 + 2")
    assert found["damage dice"].how == "4d10: 3+5+1+6"
    points = found["damage points"]
    assert (points.value, points.how, points.rule) == ("17", "whole dice 15 + Y 2", "F10")


def test_a_fractional_damage_die_is_multiplied_and_made_whole() -> None:
    # F10, damage ruling 2: "1/2+1": the d10 shows 7; 7 x 1/2 = 3.5 -> 4 (half up); 4 + 1 = 5
    dice = DieRoll(
        expression="1/2+1",
        roll=roll(7, expr="1d10", purpose="damage"),
        whole_dice=0,
        fraction_points=4,
        bonus=1,
    )
    found = steps(
        damage(die_roll=dice, points=5, part_taken=5, percentage=Decimal(50), category=10, function_left=5)
    )
    assert found["fractional die"].value == "4"
    assert found["fractional die"].how == "7 x 1/2 = 3.5 -> 4 (damage ruling 2)"
    assert (found["damage points"].value, found["damage points"].how) == ("5", "fraction 4 + Y 1")


def test_procedure_3_reads_the_wep_mod_at_the_range_on_table_3_3() -> None:
    # F10 procedure 3: WEP MOD 4 at 26.42 m: Table 3-3's band to 50 m gives 19 points
    points = steps(rifle_damage())["damage points"]
    assert (points.value, points.rule) == ("19", "F10")
    assert points.how.startswith("WEP MOD 4 at 26.42 m")
    assert points.source == "Table 3-3, WEP MOD 4 row, band to 50 m"


def test_a_grazing_shot_scales_the_points_by_the_percent_under() -> None:
    # F10 grazing: %UNDER = 42 - 25 = 17; 19 x 17 / 42 = 7.69 -> 8 points
    event = rifle_damage(
        grazing=Grazing(target=Decimal(42), percent_under=Decimal(17), points_before=19),
        points=8,
        part_taken=8,
        percentage=Decimal(800) / 36,
        category=5,
        function_left=28,
    )
    found = steps(event)
    assert found["damage points"].value == "19"
    assert (found["%UNDER"].value, found["%UNDER"].how) == ("17", "42 - 25 (damage ruling 6)")
    grazed = found["grazed points"]
    assert (grazed.value, grazed.how) == ("8", "19 x 17 / 42 = 7.69 -> 8 (damage rulings 2, 5)")


def test_a_grazing_random_hit_rolled_over_the_result_does_no_points() -> None:
    # ruling 47: result 42, roll 85: %UNDER 42 - 85 = -43, not under: 19 x 0 = 0
    event = rifle_damage(
        grazing=Grazing(target=Decimal(42), percent_under=Decimal(-43), points_before=19),
        points=0,
        part_taken=0,
        percentage=Decimal(0),
        category=None,
        structure_lost=0,
        function_left=32,
    )
    found = steps(event)
    assert found["%UNDER"].how == "42 - 85 (damage ruling 6)"
    assert found["grazed points"].value == "0"
    assert "ruling 47" in found["grazed points"].how
    assert (found["category"].value, found["category"].how) == ("none", "0 %: no category (damage ruling 8)")


def test_ruled_points_are_the_referees_step_added_to_the_points() -> None:
    # the referee's ruling: 2 rolled +5 = 7 points on the part
    event = damage(
        points=7, part_taken=7, percentage=Decimal(70), category=14, function_left=3, ruled_points=5
    )
    found = steps(event)
    assert found["damage points"].value == "2"
    ruled = found["ruled points"]
    assert (ruled.value, ruled.rule) == ("+5", "")
    assert ruled.how.startswith("the referee's ruling: 2 +5 = 7")


def test_ruled_points_come_after_grazing() -> None:
    # grazing 19 x 17 / 42 -> 8, then the referee's -3: 8 - 3 = 5
    event = rifle_damage(
        grazing=Grazing(target=Decimal(42), percent_under=Decimal(17), points_before=19),
        points=5,
        part_taken=5,
        percentage=Decimal(500) / 36,
        category=3,
        function_left=31,
        ruled_points=-3,
    )
    found = steps(event)
    assert found["grazed points"].value == "8"
    assert found["ruled points"].how.startswith("the referee's ruling: 8 -3 = 5")


# --- damage: the part -------------------------------------------------------------------------------


def test_the_part_takes_a_percentage_category_structure_and_function() -> None:
    # F11: 2 earlier + 5 = 7 of 10; 7 / 10 x 100 = 70 % (category 14, above 65 up to 70); structure
    # ceil(10 / 10) = 1; function 9 - 6 lost = 3; not destroyed: 7 < 5 x 10 = 50
    dice = DieRoll(
        expression="1", roll=roll(5, expr="1d10", purpose="damage"), whole_dice=5, fraction_points=0, bonus=0
    )
    found = steps(
        damage(
            die_roll=dice,
            points=5,
            part_taken=7,
            percentage=Decimal(70),
            category=14,
            structure_lost=1,
            function_left=3,
        )
    )
    assert (found["part's points taken"].value, found["part's points taken"].how) == (
        "7 of 10",
        "2 earlier + 5",
    )
    assert (found["damage percentage"].value, found["damage percentage"].how) == ("70%", "7 / 10 x 100")
    assert found["category"].how == "70 % is above 65 % up to 70 % (damage ruling 8)"
    assert found["structure lost"].value == "1 of 1"
    assert (found["function left"].value, found["function left"].how) == ("3", "9 function points - 6 lost")
    assert (found["destroyed"].value, found["destroyed"].how) == ("no", "7 < 5 x 10 = 50 (damage ruling 12)")
    assert {step.rule for what, step in found.items() if what != "DAMAGE DIE ROLL"} >= {"F11"}


def test_a_part_past_its_points_has_no_function_and_reads_category_20() -> None:
    # F11: 20 of 18 = 111.111 %: above 100 % reads category 20; all 18 points taken: no function
    event = damage(
        points=20,
        part="right arm",
        part_taken=20,
        part_points=18,
        percentage=Decimal(2000) / 18,
        category=20,
        structure_lost=2,
        function_left=0,
        functional=False,
    )
    found = steps(event)
    assert found["damage percentage"].value == "111.111%"
    assert "above 100 %" in found["category"].how
    assert "no function" in found["function left"].how


def test_a_part_is_destroyed_at_five_times_its_points() -> None:
    # F11: a hand of 6 is destroyed at 5 x 6 = 30; 30 >= 30
    event = damage(
        part="hand",
        points=30,
        part_taken=30,
        part_points=6,
        percentage=Decimal(500),
        category=20,
        structure_lost=1,
        function_left=0,
        functional=False,
        destroyed=True,
    )
    assert steps(event)["destroyed"].value == "yes"
    assert steps(event)["destroyed"].how == "30 >= 5 x 6 = 30 (damage ruling 12)"


def test_the_description_and_organ_effects_are_read_at_the_parts_percentage() -> None:
    # F11: category 4 on the blade table; F12: circulatory 20 % x 0.5 = 10: minor blood loss
    event = damage(
        damage_type="blade",
        description="The cut reaches the muscle.",
        organs=(
            OrganEffect(
                system="circulatory", factor=Decimal("0.5"), value=Decimal(10), effect="Minor blood loss."
            ),
        ),
    )
    found = steps(event)
    text = found["description"]
    assert (text.value, text.how, text.rule) == ("category 4", "The cut reaches the muscle.", "F11")
    assert "the blade table" in text.source
    organ = found["circulatory damage"]
    assert (organ.value, organ.how, organ.rule) == ("10", "20 x 0.5: Minor blood loss.", "F12")


# --- damage: what it depends on ---------------------------------------------------------------------


def test_a_damage_depends_on_the_to_hit_it_follows() -> None:
    hit = to_hit(seq=10)
    found = explained(damage(seq=11), hit)
    assert [b.seq for b in found.depends_on] == [10]


def test_a_damage_does_not_depend_on_a_to_hit_at_another_target() -> None:
    found = explained(damage(seq=11), to_hit(seq=10, target="c"))
    assert found.depends_on == []


def test_a_blast_strikes_a_random_part_and_depends_on_the_grenade_thrown() -> None:
    # ruling 46: c is 2.236 m from where a's grenade landed: d100 22 on Table 3-3.4, the chest; WEP MOD 3
    # at 2.236 m reads Table 3-3's band to 3 m: 20 points. The grenade was thrown at b, not c.
    event = rifle_damage(
        seq=13,
        weapon="Grenade",
        target="c",
        blast=True,
        range_m=Decimal("2.236"),
        part_roll=roll(22, purpose="hit location"),
        wep_mod=WepModRead(wep_mod=3, band_bound_m=Decimal(3)),
        points=20,
        part_taken=20,
        percentage=Decimal(2000) / 36,
        category=12,
        function_left=16,
    )
    found = explained(event, grenade(seq=12), grenade(seq=5, thrower="b", target="a"))
    by_what = {step.what: step for step in found.steps}
    assert (by_what["hit location roll"].value, by_what["hit location roll"].rule) == ("22", "F9")
    assert by_what["hit location"].source == "Table 3-3.4, row of d100 22"
    assert by_what["damage points"].how == "WEP MOD 3 at 2.236 m from the blast (ruling 46)"
    assert [b.seq for b in found.depends_on] == [12]


# --- grenades ---------------------------------------------------------------------------------------


def test_a_throw_under_brawl_lands_where_aimed() -> None:
    # F9: roll 22 - BRAWL 60 = -38: under BRAWL, exact
    found = steps(grenade())
    assert (found["over"].value, found["over"].how) == ("-38", "22 - 60")
    assert (found["outcome"].value, found["outcome"].rule) == ("exact", "F9")
    assert found["lands at"].value == "(26, 14)"


def test_a_throw_up_to_20_over_bounces_by_table_3_4_1() -> None:
    # F9: roll 73 - BRAWL 60 = +13, 0 to 20 over: bounces; Table 3-4.1's row for 13 over: 2 bounces, 5 m;
    # the d8 5 is south: (26, 14) - 5 m = (26, 9)
    event = grenade(
        roll=roll(73, purpose="grenade"),
        over=Decimal(13),
        outcome="bounce",
        bounces=2,
        direction_roll=roll(5, expr="1d8", purpose="grenade direction"),
        direction="south",
        off_m=Decimal(5),
        landed=(Decimal(26), Decimal(9)),
    )
    found = steps(event)
    assert (found["over"].value, found["outcome"].value) == ("+13", "bounce")
    assert (found["distance"].value, found["distance"].source) == ("5 m", "Table 3-4.1, row for 13 over")
    assert found["direction roll"].value == "5"
    assert found["direction"].value == "south"
    assert (found["lands at"].value, found["lands at"].how) == ("(26, 9)", "5 m south of the mark (26, 14)")


def test_a_throw_more_than_20_over_misses_by_1d10_plus_13_m() -> None:
    # F9: roll 81 - BRAWL 60 = +21, more than 20 over: a miss; 1d10 10 + 13 = 23 m
    event = grenade(
        roll=roll(81, purpose="grenade"),
        over=Decimal(21),
        outcome="miss",
        miss_roll=roll(10, expr="1d10", purpose="grenade miss"),
        direction_roll=roll(1, expr="1d8", purpose="grenade direction"),
        direction="north",
        off_m=Decimal(23),
        landed=(Decimal(26), Decimal(37)),
    )
    found = steps(event)
    assert found["outcome"].value == "miss"
    assert found["miss roll"].value == "10"
    assert (found["distance"].value, found["distance"].how) == ("23 m", "10 + 13")


def test_a_throw_depends_on_the_throwers_turn_and_action() -> None:
    turn = TurnStarted(
        seq=3, combatant="a", round=1, piece=1, pieces=1, agility=55, available=55, end_ms=5000
    )
    action = ActionTaken(
        seq=11,
        combatant="a",
        procedure=2,
        action="throw a grenade",
        purpose="throw",
        cost=14,
        available=41,
        elapsed_ms=1273,
    )
    assert [b.seq for b in explained(grenade(), turn, action).depends_on] == [3, 11]


# --- the example logs -------------------------------------------------------------------------------

OUTCOMES = (ToHitResolved, DamageResolved, GrenadeThrown)


def dealt(by_what: dict[str, Step]) -> str:
    """The points a damage's steps come to: after the ruling, else grazed, else as rolled or read."""
    if "ruled points" in by_what:
        return by_what["ruled points"].how.split(" = ")[1].split(",")[0]
    return by_what.get("grazed points", by_what["damage points"]).value


@pytest.mark.parametrize("name", ["bar-brawl", "firefight"])
def test_every_outcome_of_an_example_agrees_with_its_event(name: str) -> None:
    # the explanation ends on the event's own outcome, points or landing, as the replay tells it
    log = read(example_log(name))
    reading = rulesets.reading(log.header, name)
    outcomes = [e for e in log.events if isinstance(e, OUTCOMES)]
    assert {ToHitResolved, DamageResolved} <= {type(e) for e in outcomes}
    for event in outcomes:
        found = explain(log.events, event.seq, reading)
        assert found is not None
        by_what = {step.what: step for step in found.steps}
        if isinstance(event, ToHitResolved):
            assert by_what["outcome"].value == event.outcome, event.seq
        elif isinstance(event, DamageResolved):
            assert dealt(by_what) == str(event.points), event.seq
            assert by_what["part's points taken"].value == f"{event.part_taken} of {event.part_points}"
        else:
            assert by_what["lands at"].value in TELLERS[GrenadeThrown](event, FivestepState())
        assert all(step.rule for step in found.steps), event.seq
        assert found.depends_on, event.seq


def test_the_firefights_direct_shot_is_derived_as_the_rules_work_it_out() -> None:
    # F8 procedure 3: MARKS (75 + 30) / 2 = 52.5; Table 3-1 50% - Table 3-2 8% (light rain +3) = 42;
    # a roll more than 20 under 42 is direct
    log = read(example_log("firefight"))
    direct = next(e for e in log.events if isinstance(e, ToHitResolved) and e.outcome == "direct")
    found = explain(log.events, direct.seq, rulesets.reading(log.header, "firefight"))
    assert found is not None
    by_what = {step.what: step for step in found.steps}
    assert by_what["MARKS"].how == f"(AIM {direct.attribute} + WEP DIF {direct.difficulty}) / 2"
    assert by_what["result"].how == "50 - 8 (ruling 27)"
    assert direct.roll is not None
    assert by_what["under"].how == f"42 - {direct.roll.total}"
    assert int(by_what["under"].value) > 20
