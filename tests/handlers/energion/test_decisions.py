"""A steady controller's answer kept while the field stands as it was (handlers/energion/actions.py)."""

from __future__ import annotations

from affray.events.shared import Moved
from affray.handlers.energion.battle import EnergionBattle
from affray.npc.energion.intents import Intent
from affray.npc.energion.nearest import NearestEnemy
from affray.npc.energion.view import View
from tests.handlers.energion import fighter, of_kind, scenario


class CountingNearest(NearestEnemy):
    """The nearest-enemy controller, counting the views it is asked about."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[int] = []

    def decide(self, view: View) -> Intent | None:
        self.asked.append(view.now)
        return super().decide(view)


def _fight(steady: bool, gap: int) -> tuple[EnergionBattle, dict[str, CountingNearest]]:
    built = scenario(
        fighter("ann", "a", position=[0, 0], damage_points=500),
        fighter("bob", "b", position=[gap, 0], damage_points=500),
        max_seconds=40,
    )
    battle = EnergionBattle(built)
    controllers = {key: CountingNearest() for key in battle.controllers}
    for controller in controllers.values():
        controller.steady = steady
    battle.controllers = dict(controllers)
    return battle, controllers


def test_a_steady_controller_is_asked_once_while_nothing_on_the_field_changes() -> None:
    battle, controllers = _fight(steady=True, gap=1)
    encounter = battle.run()
    assert of_kind(encounter, Moved) == []
    assert len(controllers["ann"].asked) == 1


def test_a_steady_controller_is_asked_again_after_someone_moves() -> None:
    battle, controllers = _fight(steady=True, gap=6)
    encounter = battle.run()
    moves = len(of_kind(encounter, Moved))
    assert moves > 0
    assert 1 < len(controllers["ann"].asked) <= moves + 2


def test_keeping_a_steady_answer_gives_the_same_log_as_asking_every_time() -> None:
    kept, _ = _fight(steady=True, gap=6)
    asked, controllers = _fight(steady=False, gap=6)
    assert kept.run().log == asked.run().log
    assert len(controllers["ann"].asked) > 5
