"""The five-step sequence (rules F2-F7): sides, surprise, primary attack, time and Agility Points."""

from __future__ import annotations

from decimal import Decimal
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.rules.fivestep import sequence as seq
from affray.rules.fivestep.sequence import (
    PrimaryOrder,
    Slot,
    Step,
    StepCall,
    SubTurn,
    Surprise,
    Tie,
    TurnAP,
)
from affray.rules.fivestep.usertables import MissingTable, load_table

D = Decimal
EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "tables" / "fivestep"
d100 = st.integers(min_value=1, max_value=100)


def _order(**scores: int) -> PrimaryOrder:
    order = seq.primary_order({side: D(score) for side, score in scores.items()})
    assert isinstance(order, PrimaryOrder)
    return order


# --- F2 teams and individuals -------------------------------------------------------------------------


# rule F2: a team acting as a whole uses its average: Perception 60, 50, 45 -> 155 / 3 = 51.666...
def test_team_uses_its_members_average() -> None:
    assert seq.side_average([60, 50, 45]) == D(155) / 3


# rule F2: an individual acting alone (or within a team, firing a weapon) uses its own score
def test_individual_uses_its_own_score() -> None:
    assert seq.acting_score(70, [70, 40], as_whole=False) == 70
    assert seq.acting_score(70, [70, 40], as_whole=True) == 55


# --- F5 surprise ---------------------------------------------------------------------------------------


# rule F5 procedure 1: the target is the side's (average) Perception: (60 + 40) / 2 = 50
def test_surprise_procedure_1_target_is_average_perception() -> None:
    assert seq.surprise_target(1, [60, 40]) == 50


# rule F5 procedure 2: the side's Alertness 30 % averaged with its average Perception 50: (30 + 50)/2 = 40
def test_surprise_procedure_2_averages_alertness_with_perception() -> None:
    assert seq.surprise_target(2, [60, 40], side_alertness=30) == 40


# rule F5 procedure 3: members (AC 80, P 60) and (AC 20, P 40): (70 + 30) / 2 = 50
def test_surprise_procedure_3_averages_each_members_condition() -> None:
    assert seq.surprise_target(3, [60, 40], alertness=[80, 20]) == 50


# rule F5: targets 50 and 60, rolls 30 and 55: margins 20 and 5; the most below (20) gets surprise
def test_side_most_below_gets_surprise_and_the_other_is_surprised() -> None:
    result = seq.resolve_surprise({"bar": D(50), "gang": D(60)}, {"bar": 30, "gang": 55})
    assert isinstance(result, Surprise)
    assert [m.margin for m in result.margins] == [20, 5]
    assert result.winner == "bar"
    assert result.surprised == ("gang",)


# rule F5: both above: 50 vs roll 70 (-20), 60 vs roll 65 (-5): the least above (-5) gets surprise
def test_least_above_gets_surprise_when_nobody_rolls_under() -> None:
    result = seq.resolve_surprise({"bar": D(50), "gang": D(60)}, {"bar": 70, "gang": 65})
    assert isinstance(result, Surprise)
    assert result.winner == "gang"


# rule F5 (option need_under): nobody rolled under: nobody gets surprise, nobody is surprised
def test_need_under_option_gives_no_surprise_when_nobody_rolls_under() -> None:
    result = seq.resolve_surprise({"bar": D(50), "gang": D(60)}, {"bar": 70, "gang": 65}, need_under=True)
    assert isinstance(result, Surprise)
    assert (result.winner, result.surprised) == (None, ())


# rule F5 (ruling): 50 - 30 = 20 and 60 - 40 = 20: level at the top is a tie, roll again
def test_surprise_tie_asks_for_a_reroll() -> None:
    result = seq.resolve_surprise({"bar": D(50), "gang": D(60)}, {"bar": 30, "gang": 40})
    assert result == Tie(sides=("bar", "gang"))
    assert result.result == "tie"


# rule F5: with three sides, everyone but the winner is surprised
@given(rolls=st.tuples(d100, d100, d100))
def test_everyone_but_the_winner_is_surprised(rolls: tuple[int, int, int]) -> None:
    sides = ("a", "b", "c")
    result = seq.resolve_surprise(dict.fromkeys(sides, D(50)), dict(zip(sides, rolls, strict=True)))
    if isinstance(result, Surprise):
        assert result.winner is not None
        assert set(result.surprised) == set(sides) - {result.winner}
        assert min(rolls) == rolls[sides.index(result.winner)]
    else:
        assert rolls.count(min(rolls)) > 1


# rule F5: alertness always rises after an attack (at least 1), at most to 100
def test_alertness_rises_but_not_past_100() -> None:
    assert seq.raise_alertness(40, 25) == 65
    assert seq.raise_alertness(90, 25) == 100
    with pytest.raises(ValueError, match="always rises"):
        seq.raise_alertness(40, 0)


# rule F5: surprise again after sight is lost, or after 2 quiet rounds (1 is not enough)
def test_surprise_checked_again_after_lost_sight_or_two_quiet_rounds() -> None:
    assert seq.surprise_again(sight_lost=True, quiet_rounds=0)
    assert seq.surprise_again(sight_lost=False, quiet_rounds=2)
    assert not seq.surprise_again(sight_lost=False, quiet_rounds=1)


# rule F5: a surprised side gets no turn that round: only the winner acts
def test_only_the_side_with_surprise_acts() -> None:
    order = _order(gang=20, bar=40)
    assert seq.sides_acting(order, surprise_winner="bar") == ("bar",)


# --- F6 primary attack -----------------------------------------------------------------------------------


# rule F6 procedure 1: rolls 47, 12, 80: lowest first: b (12), a (47), c (80)
def test_lowest_roll_attacks_first() -> None:
    assert _order(a=47, b=12, c=80).sides == ("b", "a", "c")


# rule F6 procedure 2: roll 50 - half of 30 % damage (15) = 35
def test_procedure_2_subtracts_half_the_damage_percentage() -> None:
    assert seq.primary_score(50, 30) == 35


# rule F6 (option damage_slows): 50 + 30 / 2 = 65
def test_damage_slows_option_adds_it() -> None:
    assert seq.primary_score(50, 30, damage_slows=True) == 65


# rule F6 (ruling): 10 against 40: 30 ahead (30 or more) -> the only attack that round
def test_thirty_ahead_gets_the_only_attack() -> None:
    order = _order(a=10, b=40, c=90)
    assert order.sole_attack
    assert seq.sides_acting(order) == ("a",)


# rule F6: 10 against 39 is 29 ahead: every side attacks
def test_twenty_nine_ahead_is_not_enough() -> None:
    order = _order(a=10, b=39)
    assert not order.sole_attack
    assert seq.sides_acting(order) == ("a", "b")


# rule F6 (ruling): under procedure 1 the order stands but the sole attack was for the round it was rolled
def test_sole_attack_only_in_a_round_whose_order_was_rolled() -> None:
    order = _order(a=10, b=40)
    assert seq.order_rolled(1, 1)
    assert not seq.order_rolled(1, 2)
    assert seq.sides_acting(order, sole_attack=seq.order_rolled(1, 2)) == ("a", "b")


# rule F6 procedure 3: the order is rolled every round
def test_procedure_3_rolls_every_round() -> None:
    assert [seq.order_rolled(3, n) for n in (1, 2, 3)] == [True, True, True]
    assert [seq.order_rolled(2, n) for n in (1, 2)] == [True, False]


# rule F6: equal scores are a tie: every side rolls again
def test_equal_scores_are_a_tie() -> None:
    assert seq.primary_order({"a": D(33), "b": D(33), "c": D(70)}) == Tie(sides=("a", "b"))


# rule F6: the first side passes: b, c move up, a goes last
def test_passing_moves_the_first_side_last() -> None:
    passed = seq.pass_attack(_order(a=10, b=20, c=30))
    assert passed.sides == ("b", "c", "a")
    assert passed.passed == "a"


# rule F6 (ruling): passing gives up the sole attack
def test_passing_gives_up_the_sole_attack() -> None:
    passed = seq.pass_attack(_order(a=5, b=60))
    assert seq.sides_acting(passed) == ("b", "a")


# rule F6: a joiner scoring 25 goes between 20 and 30
def test_joiner_is_slotted_by_its_score() -> None:
    joined = seq.slot_joiner(_order(a=10, b=20, c=30), "d", D(25))
    assert isinstance(joined, PrimaryOrder)
    assert joined.sides == ("a", "b", "d", "c")


# rule F6 (ruling): after a pass, a joiner is slotted among the rolled sides and the passer stays last
def test_joiner_after_a_pass_keeps_the_passer_last() -> None:
    joined = seq.slot_joiner(seq.pass_attack(_order(a=10, b=20, c=30)), "d", D(40))
    assert isinstance(joined, PrimaryOrder)
    assert joined.sides == ("b", "c", "d", "a")


# rule F6: a joiner level with a side rolls again
def test_joiner_level_with_a_side_is_a_tie() -> None:
    assert seq.slot_joiner(_order(a=10, b=20), "d", D(20)) == Tie(sides=("b", "d"))


# rule F6: the order is ascending in score, whatever the rolls
@given(rolls=st.lists(d100, min_size=2, max_size=6, unique=True))
def test_order_is_ascending(rolls: list[int]) -> None:
    order = _order(**{f"s{i}": r for i, r in enumerate(rolls)})
    assert [s.score for s in order.slots] == sorted(D(r) for r in rolls)
    assert order.slots[0] == Slot(side=f"s{rolls.index(min(rolls))}", score=D(min(rolls)))


# --- F4 the sequence -------------------------------------------------------------------------------------


# rule F4: the steps in the text's order
def test_step_order() -> None:
    assert [str(s) for s in seq.STEPS] == ["surprise", "primary_attack", "action", "percent_to_hit", "damage"]


# rule F4: steps 1-2, then 3-5 for each player (6) of each side in order (7)
def test_round_steps_repeat_3_to_5_per_player_per_side() -> None:
    calls = seq.round_steps([("a", ["ann"]), ("b", ["bo", "bea"])], check_surprise=True, roll_primary=True)
    assert calls[:2] == (StepCall(step=Step.SURPRISE), StepCall(step=Step.PRIMARY_ATTACK))
    assert [(c.side, c.player) for c in calls[2::3]] == [("a", "ann"), ("b", "bo"), ("b", "bea")]
    assert [c.step for c in calls[2:5]] == [Step.ACTION, Step.PERCENT_TO_HIT, Step.DAMAGE]
    assert len(calls) == 2 + 3 * 3


# rule F4: a later round without surprise or a new order starts at step 3
def test_later_round_starts_at_action() -> None:
    calls = seq.round_steps([("a", ["ann"])], check_surprise=False, roll_primary=False)
    assert calls[0] == StepCall(step=Step.ACTION, side="a", player="ann")


# --- F3/F7 time and Agility Points ------------------------------------------------------------------------


# rule F3: a round is 5 s
def test_round_is_five_seconds() -> None:
    assert seq.ROUND_MS == 5000


# rule F7: 0.5 s per 10 % of AP: 55 AP, 11 spent (20 %) -> 1.0 s; all 55 -> 5 s
def test_time_for_points_spent() -> None:
    assert seq.time_for_ap(11, 55) == 1000
    assert seq.time_for_ap(55, 55) == 5000


# rule F7: the text's Aracnian spends its 156 in the same 5 s as a human its 55
def test_every_race_spends_all_its_points_in_five_seconds() -> None:
    assert seq.time_for_ap(156, 156) == seq.time_for_ap(55, 55) == 5000


# rule F7 (ruling): 1 of 3 AP: 5000 / 3 = 1666.67 -> 1667 ms; 1 of 8: 625 ms exactly
def test_time_rounds_to_the_millisecond_half_up() -> None:
    assert seq.time_for_ap(1, 3) == 1667
    assert seq.time_for_ap(1, 8) == 625
    assert seq.time_for_ap(1, 16000) == 0  # 0.3125 ms


# rule F7 (ruling): borrowed points are spent within the round: 55 + 5 of 55 is still 5 s
def test_turn_never_outlasts_the_round() -> None:
    assert seq.time_for_ap(60, 55) == 5000


# rule F7 procedure 2: a turn's AP is the Agility attribute; spending takes them away
def test_turn_starts_with_the_agility_attribute() -> None:
    turn = seq.spend(seq.start_turn(55), 20)
    assert turn == TurnAP(agility=55, available=35, spent=20)


# rule F7 (ruling): an action dearer than the points left cannot start
def test_cannot_spend_more_than_is_left() -> None:
    with pytest.raises(ValueError, match="costs 56 AP and 55 are left"):
        seq.spend(seq.start_turn(55), 56)


# rule F7: borrowing 3 from the next turn gives 1 now; the next turn has 3 fewer: 55 -> 56 now, 52 next
def test_borrowing_three_gives_one() -> None:
    turn = seq.borrow(seq.start_turn(55), 3)
    assert turn.available == 56
    assert seq.next_turn(turn).available == 52


# rule F7: borrowing may go on: 3 then 6 -> 1 + 2 = 3 more now, 9 fewer next
def test_borrowing_continues() -> None:
    turn = seq.borrow(seq.borrow(seq.start_turn(55), 3), 6)
    assert (turn.available, turn.borrowed) == (58, 9)


# rule F7 (ruling): points come in threes
def test_borrowing_is_in_threes() -> None:
    with pytest.raises(ValueError, match="in threes"):
        seq.borrow(seq.start_turn(55), 4)


# rule F7: the next turn must cover what is borrowed: 55 borrowed already leaves nothing
def test_cannot_borrow_more_than_the_next_turn_has() -> None:
    turn = seq.borrow(seq.start_turn(55), 54)
    with pytest.raises(ValueError, match="has 1 AP left to borrow, asked for 3"):
        seq.borrow(turn, 3)


# rule F7: borrowing all 55 (the last 1 allowed alone): 18 more now, the next turn a no-move turn
def test_borrowing_all_makes_a_no_move_turn() -> None:
    turn = seq.borrow(seq.borrow(seq.start_turn(55), 54), 1)
    assert turn.available == 55 + 18
    following = seq.next_turn(turn)
    assert following.no_move
    assert following.available == 0


# rule F7: no borrowing until the no-move turn is over; the turn after is whole again
def test_no_borrowing_during_the_no_move_turn() -> None:
    no_move = seq.next_turn(seq.borrow(seq.start_turn(6), 6))
    with pytest.raises(ValueError, match="no-move turn"):
        seq.borrow(no_move, 3)
    assert seq.next_turn(no_move) == seq.start_turn(6)


# rule F7: sub-turns: 55 AP in 5 pieces of 11 AP and 1 s each
def test_five_sub_turns_by_default() -> None:
    assert seq.sub_turns(55) == tuple(
        SubTurn(start_ms=i * 1000, end_ms=(i + 1) * 1000, ap=11) for i in range(5)
    )


# rule F7 (ruling): 56 AP in 3 pieces: 19, 19, 18; times 0-1667-3333-5000 ms
def test_sub_turn_remainders() -> None:
    pieces = seq.sub_turns(56, 3)
    assert [p.ap for p in pieces] == [19, 19, 18]
    assert [(p.start_ms, p.end_ms) for p in pieces] == [(0, 1667), (1667, 3333), (3333, 5000)]


# rule F7: sub-turns share out exactly the turn's points and the round's 5 s
@given(agility=st.integers(min_value=0, max_value=400), pieces=st.integers(min_value=1, max_value=50))
def test_sub_turns_cover_the_turn(agility: int, pieces: int) -> None:
    cut = seq.sub_turns(agility, pieces)
    assert sum(p.ap for p in cut) == agility
    assert cut[0].start_ms == 0
    assert cut[-1].end_ms == seq.ROUND_MS
    assert all(a.end_ms == b.start_ms for a, b in pairwise(cut))


# rule F7: Table 3-6 (example, percent of AP): "draw a pistol" 10 % of 55 = 5.5 -> 6 points (halves up)
def test_action_cost_from_table_3_6() -> None:
    tables = {"3-6": load_table(EXAMPLES / "3-6.toml")}
    assert seq.action_cost(tables, "draw a pistol", 55) == 6


# rule F7 (ruling): "walk 1 m" 2 % of 20 = 0.4 -> at least 1 point
def test_a_nonzero_cost_is_at_least_one_point() -> None:
    tables = {"3-6": load_table(EXAMPLES / "3-6.toml")}
    assert seq.action_cost(tables, "walk 1 m", 20) == 1


# rule F7: action procedure 2 without Table 3-6 names the table
def test_action_cost_needs_table_3_6() -> None:
    with pytest.raises(MissingTable, match="procedure 2 for action needs Table 3-6"):
        seq.action_cost({}, "punch", 55)
