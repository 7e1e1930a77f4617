"""The steps a fivestep character played from outside affray is offered as it declares (rule F7;
affray/handlers/fivestep/legal.py and asked.py): its fixed menu, and the steps the rules allow after those
it has declared, read where a fight puts it. The character under test is ``external``: the run pauses at
each question, which the test answers."""

from __future__ import annotations

from typing import Any

from affray.events.fivestep.kinds import ActionTaken, StepChosen
from affray.events.fivestep.steps import Advance, Borrow, Step, Strike
from affray.events.shared import ActionRefused
from affray.handlers.fivestep.asked import menu_for
from affray.handlers.fivestep.battle import FivestepBattle
from affray.handlers.fivestep.host import Arena
from affray.handlers.outside import Stepped
from affray.npc.fivestep.controllers import CLOSE_IN_M
from tests.handlers.fivestep import FIST, GRENADE, RIFLE, TABLES, character, of_kind, scenario


class Asked:
    """A run of ``built`` paused at each question to its ``external`` character."""

    def __init__(self, built: Any) -> None:
        self.battle = FivestepBattle(built)
        self.stepped: Stepped = self.battle.step_outside()
        self.encounter: Arena = self.battle.start()
        self.go_on()

    def go_on(self) -> None:
        """Run until a question waits or the encounter ends."""
        while self.stepped.waiting is None and not self.encounter.finished.processed:
            self.encounter.step()

    def legal(self) -> tuple[Step | None, ...]:
        """The steps offered now."""
        assert self.stepped.waiting is not None
        return self.stepped.waiting[1].legal()

    def answer(self, step: Step | None) -> None:
        """Declare ``step`` and run to the next question."""
        self.stepped.answer(step)
        self.go_on()


def duel(a: dict[str, Any], b: dict[str, Any], **fields: Any) -> Any:
    """``a`` (played from outside) against ``b``, who stands still (it declares nothing)."""
    return scenario(
        {**a, "controller": "external"},
        {**b, "controller": "external"},
        **fields,
    )


def strikes(legal: tuple[Step | None, ...]) -> list[tuple[str, int]]:
    return [(s.target, s.arm) for s in legal if isinstance(s, Strike)]


def test_the_menu_lists_each_enemys_move_and_strikes_then_a_borrow_then_nothing_more() -> None:
    built = scenario(
        character("a", "x", weapons=[FIST, RIFLE]), character("b", "y"), character("c", "y", position=[5, 0])
    )
    battle = FivestepBattle(built)
    step_m, move = battle.fighters["a"].step_m, battle.fighters["a"].move_cost
    fist, rifle = battle.fighters["a"].arms
    assert menu_for(battle.fighters, "a") == (
        Advance(target="b", metres=step_m, stop_m=CLOSE_IN_M, cost=move, reason=""),
        Strike(target="b", arm=0, cost=fist.cost, reason=""),
        Strike(target="b", arm=1, cost=rifle.cost, reason=""),
        Advance(target="c", metres=step_m, stop_m=CLOSE_IN_M, cost=move, reason=""),
        Strike(target="c", arm=0, cost=fist.cost, reason=""),
        Strike(target="c", arm=1, cost=rifle.cost, reason=""),
        Borrow(points=3, reason=""),
        None,
    )


def test_a_fist_out_of_reach_is_not_offered_and_a_rifle_in_range_is() -> None:
    # F1: hand to hand reaches 3 m; weaponry from 25 cm: at 10 m only the rifle strikes
    asked = Asked(duel(character("a", "x", weapons=[FIST, RIFLE]), character("b", "y", position=[10, 0])))
    assert strikes(asked.legal()) == [("b", 1)]


def test_a_move_declared_brings_the_fist_into_reach() -> None:
    # a run of 1 m per step (4 points at agility 90, a punch 14 of its 90): from 4 m, one step leaves
    # 3 m, in the fist's 3 m reach (F1)
    asked = Asked(duel(character("a", "x", agility=90), character("b", "y", position=[4, 0])))
    advance = next(s for s in asked.legal() if isinstance(s, Advance))
    assert strikes(asked.legal()) == []
    asked.answer(advance)
    assert strikes(asked.legal()) == [("b", 0)]


def test_strikes_are_offered_while_the_points_declared_leave_pay_for_them() -> None:
    asked = Asked(duel(character("a", "x"), character("b", "y", position=[1, 0])))
    points = asked.battle.fighters["a"].points
    cost = asked.battle.fighters["a"].arms[0].cost
    strike = Strike(target="b", arm=0, cost=cost, reason="")
    for _ in range(points // cost):
        assert strike in asked.legal()
        asked.answer(strike)
    assert strike not in asked.legal()


def test_a_grenade_is_offered_as_often_as_there_are_grenades_left() -> None:
    one = {**GRENADE, "count": 1}
    tables = {**TABLES, "3-4.0": "tables/fivestep/3-4.0.toml", "3-4.1": "tables/fivestep/3-4.1.toml"}
    built = duel(character("a", "x", weapons=[one]), character("b", "y", position=[10, 0]), tables=tables)
    asked = Asked(built)
    throw = next(s for s in asked.legal() if isinstance(s, Strike))
    asked.answer(throw)
    assert strikes(asked.legal()) == []


def test_borrowing_is_offered_only_to_a_character_that_borrows() -> None:
    borrower = character("a", "x", borrows=True)
    asked = Asked(duel(borrower, character("b", "y", position=[1, 0]), options={"borrowing": True}))
    assert Borrow(points=3, reason="") in asked.legal()
    plain = Asked(
        duel(character("a", "x"), character("b", "y", position=[1, 0]), options={"borrowing": True})
    )
    assert Borrow(points=3, reason="") not in plain.legal()


def test_nothing_more_is_always_offered_and_is_recorded() -> None:
    asked = Asked(duel(character("a", "x"), character("b", "y", position=[1, 0])))
    assert asked.legal()[-1] is None
    asked.answer(None)
    chosen = of_kind(asked.encounter.log, StepChosen)
    assert [(c.combatant, c.controller, c.step) for c in chosen][:1] == [("a", "external", None)]


def test_a_step_the_rules_do_not_allow_is_refused_and_ends_the_declaration() -> None:
    asked = Asked(duel(character("a", "x"), character("b", "y", position=[10, 0])))
    asked.answer(Strike(target="b", arm=0, cost=1, reason="a fist at 10 m, at a discount"))
    refused = of_kind(asked.encounter.log, ActionRefused)
    assert [(r.combatant, r.action) for r in refused] == [("a", "strike b with weapon 0")]
    # nothing of the declaration is carried out: a is next asked at its next turn
    assert of_kind(asked.encounter.log, ActionTaken) == []
    assert asked.stepped.waiting is not None
    assert asked.encounter.now > 0


def test_a_step_declared_with_its_own_reason_is_carried_out_with_it() -> None:
    asked = Asked(duel(character("a", "x"), character("b", "y", position=[1, 0])))
    cost = asked.battle.fighters["a"].arms[0].cost
    asked.answer(Strike(target="b", arm=0, cost=cost, reason="he insulted my ship"))
    (chosen,) = [c for c in of_kind(asked.encounter.log, StepChosen) if c.step is not None]
    assert chosen.step is not None
    assert chosen.step.reason == "he insulted my ship"
