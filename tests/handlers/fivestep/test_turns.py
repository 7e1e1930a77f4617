"""Turns on the clock: Agility Points spent as time, sub-turns, borrowing (rules F3, F7)."""

from __future__ import annotations

from affray.events.fivestep.kinds import ActionTaken, ApBorrowed, ToHitResolved, TurnStarted
from affray.events.shared import Moved
from affray.npc.fivestep.controllers import Borrow
from tests.handlers.fivestep import Scripted, character, of_kind, run, scenario
from tests.strategies import example_log, read

RED_SURPRISES = [1, 99, 10, 50]
"""Surprise rolls (red 1, blue 99: red has surprise) and primary attack rolls (red 10, blue 50)."""
MISS = 99
"""A d100 no one rolls under."""


def _red_and_blue(**red: object) -> tuple[dict[str, object], dict[str, object]]:
    return character("red", "red", **red), character("blue", "blue", position=[2, 0])


def test_points_spent_take_half_a_second_per_ten_percent() -> None:
    # rules F3, F7: agility 50; a punch costs 15 % of 50 = 7.5 -> 8 points; 8 points take 5000 x 8 / 50 =
    # 800 ms, so six punches end at 0.8, 1.6, 2.4, 3.2, 4.0 and 4.8 s
    log = run(scenario(*_red_and_blue(), rolls=[*RED_SURPRISES, *[MISS] * 6], max_seconds=5)).log
    punches = of_kind(log, ActionTaken)
    assert [(p.t, p.cost, p.available) for p in punches] == [
        (800, 8, 42),
        (1600, 8, 34),
        (2400, 8, 26),
        (3200, 8, 18),
        (4000, 8, 10),
        (4800, 8, 2),
    ]


def test_sub_turns_cut_the_turn_and_its_points_into_pieces() -> None:
    # rule F7: 55 points in 5 pieces of 11, one a second; a punch costs 15 % of 55 = 8.25 -> 8 and what a
    # piece leaves carries over: 11, 3 + 11 = 14, 6 + 11 = 17 (two punches), 1 + 11 = 12, 4 + 11 = 15
    built = scenario(
        *_red_and_blue(agility=55),
        options={"sub_turns": 5},
        rolls=[*RED_SURPRISES, *[MISS] * 6],
        max_seconds=5,
    )
    log = run(built).log
    pieces = [e for e in of_kind(log, TurnStarted) if e.combatant == "red"]
    assert [(p.t, p.piece, p.available, p.end_ms) for p in pieces] == [
        (0, 1, 11, 1000),
        (1000, 2, 14, 2000),
        (2000, 3, 17, 3000),
        (3000, 4, 12, 4000),
        (4000, 5, 15, 5000),
    ]


def test_an_action_in_a_piece_ends_by_the_points_spent_in_that_piece() -> None:
    # rule F7: in the third piece (2 s to 3 s) the first punch ends at 2000 + 5000 x 8 / 55 = 2727 ms and the
    # second, 16 points in, would take 1455 ms: it ends with the piece, at 3000 ms
    built = scenario(
        *_red_and_blue(agility=55),
        options={"sub_turns": 5},
        rolls=[*RED_SURPRISES, *[MISS] * 6],
        max_seconds=5,
    )
    times = [e.t for e in of_kind(run(built).log, ActionTaken)]
    assert times == [727, 1727, 2727, 3000, 3727, 4727]


def test_borrowing_three_points_gives_one_and_the_next_turn_owes_them() -> None:
    # rule F7: agility 53, punches of 15 % of 53 = 7.95 -> 8 points: six leave 5; 3 short of a seventh, red
    # borrows 9 of the next turn for 3 now; the next turn starts with 53 - 9 = 44
    built = scenario(
        *_red_and_blue(agility=53, borrows=True),
        options={"borrowing": True},
        rolls=[*RED_SURPRISES, *[MISS] * 9],
        max_seconds=6,
    )
    log = run(built).log
    (borrowed,) = of_kind(log, ApBorrowed)
    assert (borrowed.points, borrowed.gained, borrowed.next_turn_left) == (9, 3, 44)
    assert len([a for a in of_kind(log, ActionTaken) if a.t <= 5000]) == 7
    second = [e for e in of_kind(log, TurnStarted) if e.combatant == "red"][1]
    assert (second.owed, second.available) == (9, 44)


def test_borrowing_every_point_makes_the_next_turn_a_no_move_turn() -> None:
    # rule F7: all 50 points borrowed (16 now): the next turn has none and red cannot move in it
    built = scenario(
        *_red_and_blue(borrows=True), options={"borrowing": True}, rolls=RED_SURPRISES, max_seconds=6
    )
    log = run(built, red=Scripted([Borrow(points=50, reason="test")]), blue=Scripted()).log
    (borrowed,) = of_kind(log, ApBorrowed)
    assert (borrowed.gained, borrowed.next_turn_left) == (16, 0)
    second = [e for e in of_kind(log, TurnStarted) if e.combatant == "red"][1]
    assert (second.t, second.no_move, second.available, second.owed) == (5000, True, 0, 50)


def test_action_procedure_1_gives_each_allowed_action_an_equal_share_of_the_turn() -> None:
    # action procedure 1 (the referee's discretion): 2 actions a turn, 2.5 s each
    built = scenario(
        *_red_and_blue(),
        procedures={"action": 1},
        tables={},
        rolls=[*RED_SURPRISES, MISS, MISS],
        max_seconds=5,
    )
    taken = of_kind(run(built).log, ActionTaken)
    assert [(a.t, a.procedure, a.action, a.cost) for a in taken] == [
        (2500, 1, "attack", 1),
        (5000, 1, "attack", 1),
    ]


def test_actions_ending_together_resolve_in_the_order_of_primary_attack() -> None:
    # ruling: red (listed first) and blue both punch at 800 ms; blue rolled lower (10 against 30) and
    # attacks first, so its blow resolves first
    built = scenario(
        *_red_and_blue(), options={"need_under": True}, rolls=[99, 99, 30, 10, *[MISS] * 12], max_seconds=5
    )
    first = of_kind(run(built).log, ToHitResolved)[:2]
    assert [(h.t, h.attacker) for h in first] == [(800, "blue"), (800, "red")]


def test_a_character_out_of_reach_runs_in_before_it_strikes() -> None:
    # rules F1, F7: blue stands 10 m off; red runs 8 m (2 points a metre, 4 % of 50) to be 2 m from it, which
    # ends at 5000 x 16 / 50 = 1600 ms, then punches with the 34 points left: four punches
    built = scenario(
        character("red", "red"),
        character("blue", "blue", position=[10, 0]),
        rolls=[*RED_SURPRISES, *[MISS] * 4],
        max_seconds=5,
    )
    log = run(built, blue=Scripted()).log
    (moved,) = of_kind(log, Moved)
    assert (moved.t, moved.end, moved.distance) == (1600, (8, 0), 8)
    assert [h.t for h in of_kind(log, ToHitResolved)] == [2400, 3200, 4000, 4800]


def test_every_action_records_its_controllers_reason() -> None:
    # controllers' choices are in the log: the nearest controller says why it runs or strikes
    log = run(
        scenario(character("red", "red"), character("blue", "blue", position=[10, 0]), max_seconds=5)
    ).log
    taken = of_kind(log, ActionTaken)
    assert taken
    assert all(a.controller == "nearest" and a.reason for a in taken)


def test_borrowing_happens_only_in_a_turns_last_piece() -> None:
    # ruling 38: with sub-turns the later pieces' points are still to come; only the last piece borrows
    log = read(example_log("bar-brawl")).events
    last_piece: dict[str, TurnStarted] = {}
    borrowed = 0
    for event in log:
        if isinstance(event, TurnStarted):
            last_piece[event.combatant] = event
        elif isinstance(event, ApBorrowed):
            borrowed += 1
            piece = last_piece[event.combatant]
            assert piece.piece == piece.pieces
    assert borrowed
