"""The state every ruleset shares: what the shared kinds establish, and the combatant's own questions."""

from __future__ import annotations

from decimal import Decimal

from affray.events.base import Position
from affray.events.energion.kinds import CombatantJoined
from affray.events.energion.state import EnergionState, vocabulary
from affray.events.shared import CombatantOut, Moved
from affray.kernel.fold import fold

VOCABULARY = vocabulary()


def p(x: int | str, y: int | str) -> Position:
    return (Decimal(x), Decimal(y))


def joined() -> CombatantJoined:
    return CombatantJoined(
        seq=1,
        combatant="a",
        name="A",
        side="x",
        damage_points=Decimal(10),
        position=p(0, 0),
        weapon="Staff",
        armor="Cloth",
    )


def moves(*steps: tuple[int, Position, Position], fleeing: bool = False) -> EnergionState:
    """The state after ``a`` joins at the origin and makes these moves (time, start, end)."""
    events = [joined()]
    for seq, (t, start, end) in enumerate(steps, start=2):
        events.append(
            Moved(
                seq=seq,
                t=t,
                combatant="a",
                toward="b",
                start=start,
                end=end,
                distance=Decimal(1),
                fleeing=fleeing,
            )
        )
    return fold(events, VOCABULARY)


def test_a_move_from_rest_changes_the_course() -> None:
    assert moves((1000, p(0, 0), p(1, 0))).combatants["a"].course_changed_ms == 1000


def test_the_same_step_a_second_later_keeps_the_course() -> None:
    a = moves((1000, p(0, 0), p(1, 0)), (2000, p(1, 0), p(2, 0)), (3000, p(2, 0), p(3, 0))).combatants["a"]
    assert (a.course_changed_ms, a.velocity) == (1000, p(1, 0))


def test_a_step_a_millimetre_shorter_keeps_the_course() -> None:
    # E17, steady movement: positions are kept to the millimetre, so a 1 m/s walk steps 1 m, then 0.999 m;
    # |1 - 0.999| = 0.001 m <= 0.002 m (SAME_STEP_M) on x and 0 on y: the same movement
    walk = (1000, p(0, 0), p(1, 0)), (2000, p(1, 0), p("1.999", 0))
    assert moves(*walk).combatants["a"].course_changed_ms == 1000


def test_a_step_three_millimetres_shorter_changes_the_course() -> None:
    # E17: |1 - 0.997| = 0.003 m > 0.002 m: a change of pace, which ruins the aim
    walk = (1000, p(0, 0), p(1, 0)), (2000, p(1, 0), p("1.997", 0))
    assert moves(*walk).combatants["a"].course_changed_ms == 2000


def test_a_turn_changes_the_course() -> None:
    a = moves((1000, p(0, 0), p(1, 0)), (2000, p(1, 0), p(1, 1))).combatants["a"]
    assert a.course_changed_ms == 2000


def test_a_change_of_pace_changes_the_course() -> None:
    a = moves((1000, p(0, 0), p(1, 0)), (2000, p(1, 0), p(3, 0))).combatants["a"]
    assert a.course_changed_ms == 2000


def test_the_same_step_after_a_pause_changes_the_course() -> None:
    # it stood still from 1 s to 3 s: setting off again is a change
    a = moves((1000, p(0, 0), p(1, 0)), (3000, p(1, 0), p(2, 0))).combatants["a"]
    assert a.course_changed_ms == 3000


def test_a_flight_always_changes_the_course() -> None:
    a = moves((1000, p(0, 0), p(1, 0)), (2000, p(1, 0), p(2, 0)), fleeing=True).combatants["a"]
    assert a.course_changed_ms == 2000


def test_a_combatant_out_is_incapacitated_and_its_side_stands_no_more() -> None:
    state = fold([joined(), CombatantOut(seq=2, combatant="a", reason="r")], VOCABULARY)
    assert (state.combatants["a"].incapacitated(0), state.standing_sides()) == (True, [])


def test_a_condition_for_good_has_no_end() -> None:
    a = moves().combatants["a"]
    a.conditions = {"stunned": 5000, "deactivated": None}
    assert (a.incapacitated(10_000), a.recovers_at()) == (True, None)


def test_timed_conditions_end_with_the_last_of_them() -> None:
    a = moves().combatants["a"]
    a.conditions = {"stunned": 5000, "unconscious": 9000}
    assert (a.incapacitated(8999), a.incapacitated(9000), a.recovers_at()) == (True, False, 9000)
