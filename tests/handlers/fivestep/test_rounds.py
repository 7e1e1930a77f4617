"""Rounds on the clock: surprise, primary attack, who acts (rules F2-F6)."""

from __future__ import annotations

from decimal import Decimal

from affray.events.fivestep.kinds import CombatantJoined, PrimaryAttackRolled, RoundStarted, SurpriseChecked
from affray.npc.fivestep.controllers import Strike
from tests.handlers.fivestep import Scripted, character, of_kind, run, scenario

FAR = {"position": [200, 0]}
"""Two hundred metres off: runners at 25 m a turn do not meet for rounds."""


def test_rounds_begin_every_five_seconds() -> None:
    # rule F3: a round is 5 s of game time, every character starting at its first instant
    log = run(scenario(character("a", "red"), character("b", "blue", **FAR), max_seconds=20)).log
    assert [e.t for e in of_kind(log, RoundStarted)] == [0, 5000, 10000, 15000]


def test_surprise_goes_to_the_side_most_under_its_perception() -> None:
    # rule F5 (procedure 1): red 60 - roll 50 = +10, blue 40 - roll 20 = +20: blue has surprise, red is
    # surprised and gets no turn this round
    built = scenario(
        character("a", "red", perception=60),
        character("b", "blue", perception=40, **FAR),
        rolls=[50, 20, 30, 70],
        max_seconds=5,
    )
    log = run(built).log
    (check,) = of_kind(log, SurpriseChecked)
    assert (check.winner, check.surprised) == ("blue", ("red",))
    assert [m.margin for m in check.margins] == [Decimal(10), Decimal(20)]
    assert of_kind(log, RoundStarted)[0].acting == ("blue",)


def test_a_tie_for_surprise_is_rolled_again() -> None:
    # rule F5 (ruling 8): red 60 - 50 = +10 and blue 40 - 30 = +10 tie; the second rolls give red +50
    built = scenario(
        character("a", "red", perception=60),
        character("b", "blue", perception=40, **FAR),
        rolls=[50, 30, 10, 90, 30, 70],
        max_seconds=5,
    )
    checks = of_kind(run(built).log, SurpriseChecked)
    assert [c.outcome for c in checks] == ["tie", "surprise"]
    assert checks[1].winner == "red"


def test_surprise_procedure_2_averages_the_sides_alertness_and_perception() -> None:
    # rule F5 (procedure 2): red's Alertness 80 with Perception (60 + 40) / 2 = 50: target (80 + 50) / 2 = 65
    built = scenario(
        character("a", "red", perception=60),
        character("c", "red", perception=40),
        character("b", "blue", **FAR),
        procedures={"surprise": 2},
        sides=[{"id": "red", "alertness": 80}],
        rolls=[1, 99, 30, 70],
        max_seconds=5,
    )
    red = of_kind(run(built).log, SurpriseChecked)[0].margins[0]
    assert (red.perception, red.alertness, red.target) == (Decimal(50), Decimal(80), Decimal(65))


def test_surprise_procedure_3_averages_each_members_condition() -> None:
    # rule F5 (procedure 3): members (alertness 80, perception 60) -> 70 and (40, 40) -> 40; side 55
    built = scenario(
        character("a", "red", perception=60, alertness=80),
        character("c", "red", perception=40, alertness=40),
        character("b", "blue", **FAR),
        procedures={"surprise": 3},
        rolls=[1, 99, 30, 70],
        max_seconds=5,
    )
    red = of_kind(run(built).log, SurpriseChecked)[0].margins[0]
    assert (red.alertness, red.target) == (Decimal(60), Decimal(55))


def test_the_lowest_primary_attack_roll_attacks_first() -> None:
    # rule F6 (procedure 1): red 45, blue 30: blue first; 15 apart, so both sides act
    built = scenario(
        character("a", "red"),
        character("b", "blue", **FAR),
        options={"need_under": True},
        rolls=[99, 99, 45, 30],
        max_seconds=5,
    )
    log = run(built).log
    assert of_kind(log, SurpriseChecked)[0].outcome == "none"
    order = of_kind(log, PrimaryAttackRolled)[0]
    assert (order.order, order.sole_attack) == (("blue", "red"), False)
    assert of_kind(log, RoundStarted)[0].acting == ("blue", "red")


def test_thirty_ahead_is_the_only_attack_of_the_first_round() -> None:
    # rule F6 (ruling 13): red 10, blue 40: 30 better, red alone acts in round 1; procedure 1 keeps the order
    # without the sole attack in round 2
    built = scenario(
        character("a", "red"),
        character("b", "blue", **FAR),
        options={"need_under": True},
        rolls=[99, 99, 10, 40],
        max_seconds=10,
    )
    acting = [e.acting for e in of_kind(run(built).log, RoundStarted)]
    assert acting == [("red",), ("red", "blue")]


def test_a_side_that_passes_acts_last() -> None:
    # rule F6: red rolls lowest (10 against 20) and passes: blue first, red last, no sole attack
    built = scenario(
        character("a", "red"),
        character("b", "blue", **FAR),
        sides=[{"id": "red", "passes": True}],
        options={"need_under": True},
        rolls=[99, 99, 10, 20],
        max_seconds=5,
    )
    order = of_kind(run(built).log, PrimaryAttackRolled)[0]
    assert (order.order, order.passed) == (("blue", "red"), "red")


def test_a_tie_for_primary_attack_is_rolled_again() -> None:
    # rule F6: both sides roll 50 and roll again: 60 against 20
    built = scenario(
        character("a", "red"),
        character("b", "blue", **FAR),
        options={"need_under": True},
        rolls=[99, 99, 50, 50, 60, 20],
        max_seconds=5,
    )
    rolled = of_kind(run(built).log, PrimaryAttackRolled)
    assert [r.outcome for r in rolled] == ["tie", "order"]
    assert rolled[1].order == ("blue", "red")


def test_a_late_side_joins_and_is_slotted_into_the_order() -> None:
    # rule F6: green joins at 5 s; it rolls 20, between blue's 10 and red's 50, and acts second
    built = scenario(
        character("a", "red"),
        character("b", "blue", **FAR),
        character("g", "green", position=[0, 200]),
        sides=[{"id": "green", "joins_at": 5}],
        options={"need_under": True},
        rolls=[99, 99, 50, 10, 20],
        max_seconds=10,
    )
    log = run(built).log
    joined = of_kind(log, CombatantJoined)
    assert [(j.combatant, j.t) for j in joined] == [("a", 0), ("b", 0), ("g", 5000)]
    slotted = of_kind(log, PrimaryAttackRolled)[1]
    assert (slotted.joiner, slotted.order) == ("green", ("blue", "green", "red"))
    assert of_kind(log, RoundStarted)[1].acting == ("blue", "green", "red")


def test_procedure_3_rolls_the_order_every_round() -> None:
    # rule F6 (procedure 3): the order is rolled at the start of each round
    built = scenario(
        character("a", "red"),
        character("b", "blue", **FAR),
        procedures={"primary_attack": 3},
        max_seconds=15,
    )
    rolled = of_kind(run(built).log, PrimaryAttackRolled)
    assert [r.round for r in rolled if r.outcome == "order"] == [1, 2, 3]


def test_surprise_is_checked_again_after_two_rounds_without_combat() -> None:
    # rule F5: 200 m apart with fists, nobody attacks in rounds 1 and 2: surprise again at round 3
    built = scenario(character("a", "red"), character("b", "blue", **FAR), max_seconds=15)
    checks = of_kind(run(built).log, SurpriseChecked)
    assert [(c.round, c.reason) for c in checks] == [
        (1, "the fight begins"),
        (3, "2 rounds without combat"),
    ]


def test_surprise_waits_for_sight_and_is_checked_when_the_sides_see_each_other() -> None:
    # rule F5: beyond sight_m (10 m) there is no surprise; once they close within it, surprise is checked
    built = scenario(
        character("a", "red"),
        character("b", "blue", position=[24, 0]),
        options={"sight_m": 10},
        max_seconds=15,
    )
    checks = of_kind(run(built).log, SurpriseChecked)
    assert checks[0].reason == "the sides come into sight"
    assert checks[0].round > 1


def test_a_joiner_that_passes_acts_last_and_takes_no_sole_attack() -> None:
    # rule F6 (rulings 13, 43): blue's 10 was 40 better than red's 50 (the sole attack of round 1 only);
    # green joins at 5 s and rolls 5, first, and passes: blue, red, green, everyone acting
    built = scenario(
        character("a", "red"),
        character("b", "blue", **FAR),
        character("g", "green", position=[0, 200]),
        sides=[{"id": "green", "joins_at": 5, "passes": True}],
        options={"need_under": True},
        rolls=[99, 99, 50, 10, 5],
        max_seconds=10,
    )
    log = run(built).log
    slotted = of_kind(log, PrimaryAttackRolled)[1]
    assert (slotted.order, slotted.passed, slotted.sole_attack) == (("blue", "red", "green"), "green", False)
    assert of_kind(log, RoundStarted)[1].acting == ("blue", "red", "green")


def test_procedure_2_subtracts_half_the_damage_taken_in_the_round_before() -> None:
    # rule F6 (procedure 2, every round by procedure 3): blue lost 7 of its 116 points in round 1, 6.034 %;
    # its round-2 roll of 30 scores 30 - 6.034 / 2 = 26.983
    built = scenario(
        character("red", "red"),
        character("blue", "blue", position=[2, 0]),
        procedures={"primary_attack": 3, "primary_each_round": 2},
        rolls=[1, 99, 10, 50, 39, 7, 20, 30],
        max_seconds=6,
    )
    blow = Scripted([Strike(target="blue", arm=0, cost=8, reason="test")])
    second = of_kind(run(built, red=blow, blue=Scripted()).log, PrimaryAttackRolled)[1]
    blue = second.scores[1]
    assert blue.damage_percent == Decimal(7) * 100 / 116
    assert blue.score == 30 - Decimal(7) * 100 / 116 / 2
    assert (second.procedure, second.each_round) == (3, 2)
