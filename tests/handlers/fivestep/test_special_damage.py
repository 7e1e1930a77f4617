"""The special_damage module (seed 001) over fivestep hits (rules S1-S10 on F8's roll): the add-on's skill
level from MARKS or BRAWL, Stamina damage to the part struck, conditions that stop a character's turns."""

from __future__ import annotations

from typing import Any

import pytest

from affray.errors import ScenarioError
from affray.events.fivestep.kinds import DamageResolved, RoundStarted, ToHitResolved, TurnStarted
from affray.events.fivestep.state import vocabulary as fivestep_vocabulary
from affray.events.shared import EncounterEnded
from affray.events.special_damage.kinds import ConditionStarted, SpecialDamage
from affray.handlers.fivestep.battle import FivestepBattle
from affray.kernel.encounter import Encounter
from affray.kernel.fold import fold
from affray.npc.fivestep.controllers import Strike
from tests.handlers.fivestep import RIFLE, Scripted, character, of_kind, run, scenario

SURPRISE = [1, 99, 10, 50]
"""Red has surprise (blue is unaware: no RS check) and acts first."""


def _one_shot(*rolls: int, **top: Any) -> list[Any]:
    return _fought(*rolls, **top).log


def _fought(*rolls: int, **top: Any) -> Encounter[Any]:
    """Red's one rifle shot at blue, with ``rolls`` after the surprise rolls."""
    built = scenario(
        character("red", "red", aim=90, weapons=[RIFLE]),
        character("blue", "blue", position=[20, 0], weapons=[RIFLE]),
        procedures={"to_hit": 1},
        rolls=[*SURPRISE, *rolls],
        max_seconds=5,
        modules=["special_damage"],
        **top,
    )
    shot = Scripted([Strike(target="blue", arm=0, cost=13, reason="test")])
    return run(built, red=shot, blue=Scripted())


def test_a_fivestep_hit_scores_special_damage_at_the_add_ons_chance() -> None:
    # rule S1 over F8: MARKS (90 + 40) / 2 = 65, level 65 // 10 = 6, chance 3 + 2 x 6 = 15 %; the to-hit
    # roll 5 hits (procedure 1) and is at or under 15: special damage, its Stamina to the head it struck
    ruling = {"target": "blue", "replace_with": "Head wound", "stamina": 3, "reason": "test"}
    log = _one_shot(5, 1, 1, 5, 10, 30, rulings=[ruling])
    (special,) = of_kind(log, SpecialDamage)
    assert (special.skill_level, special.chance, special.hit_roll) == (6, 15, 5)
    assert (special.damage, special.stamina, special.part) == ("Head wound", 3, "head")
    (damage,) = of_kind(log, DamageResolved)
    state = fold(log, fivestep_vocabulary(["special_damage"]))
    assert state.combatants["blue"].location_damage["head"] == damage.points + 3


def test_an_unconscious_character_takes_no_turns_and_its_side_no_longer_stands() -> None:
    # rules S4, F5: a head wound's 50 % chance (roll 10) knocks blue out for 1d100 = 30 minutes; the fight
    # ends, red's side alone standing, and blue takes no turn
    ruling = {"target": "blue", "replace_with": "Head wound", "stamina": 0, "reason": "test"}
    log = _one_shot(5, 1, 1, 5, 10, 30, rulings=[ruling])
    (knocked,) = of_kind(log, ConditionStarted)
    assert (knocked.combatant, knocked.condition, knocked.until_ms) == (
        "blue",
        "unconscious",
        knocked.t + 30 * 60000,
    )
    assert of_kind(log, EncounterEnded)[0].winner == "red"
    assert not [t for t in of_kind(log, TurnStarted) if t.combatant == "blue"]


def test_a_ruling_on_the_special_damage_taken_leaves_the_run_without_a_warning() -> None:
    # S10: blue's first special damage (the to-hit roll 5 within 15 %) is ruled a head wound
    ruling = {"target": "blue", "replace_with": "Head wound", "stamina": 3, "reason": "test"}
    assert _fought(5, 1, 1, 5, 10, 30, rulings=[ruling]).warnings == []


def test_a_ruling_on_special_damage_never_taken_is_a_warning_of_the_run() -> None:
    # S10 over F8: 16 hits but is over the special chance 15: blue takes no special damage to rule on
    ruling = {"target": "blue", "replace_with": "Head wound", "reason": "test"}
    assert _fought(16, 1, 1, rulings=[ruling]).warnings == [
        "1 of the rulings on special damage (S10) was never used: "
        "$.rulings[0] (blue never took special damage)"
    ]


def test_no_special_damage_when_the_roll_is_over_the_chance() -> None:
    # rule S1: 16 hits (under MARKS 65) but is over the special chance 15
    log = _one_shot(16, 1, 1)
    assert of_kind(log, ToHitResolved)[0].outcome == "hit"
    assert not of_kind(log, SpecialDamage)


def test_weaponry_needs_its_table_2_type_under_the_module() -> None:
    # rule S9: Table 2 has no default for a fivestep weapon of the weaponry kind
    untyped = {key: value for key, value in RIFLE.items() if key != "special_type"}
    built = scenario(
        character("red", "red", weapons=[untyped]), character("blue", "blue"), modules=["special_damage"]
    )
    with pytest.raises(ScenarioError, match=r"\$\.combatants\[0\]\.weapons\[0\]\.special_type: .*Table 2"):
        FivestepBattle(built)


def test_a_robot_needs_the_module() -> None:
    # rule S5: robots are the special_damage module's
    with pytest.raises(ScenarioError, match=r"\$\.combatants\[1\]\.kind: a robot target needs"):
        scenario(character("red", "red"), character("bot", "blue", kind="robot"))


def test_a_side_of_a_computer_alone_is_attacked_but_never_acts() -> None:
    # rule S6 over fivestep: a computer takes no turn; with nobody else to act on its side there is no
    # surprise and no order to roll, and red acts alone until the computer is wrecked
    built = scenario(
        character("red", "red", aim=90, weapons=[RIFLE]),
        character(
            "vault",
            "vault",
            position=[10, 0],
            kind="computer",
            weapons=[],
            programs=[{"name": "Analysis", "level": 2}],
        ),
        procedures={"to_hit": 1},
        modules=["special_damage"],
    )
    log = run(built).log
    assert {r.acting for r in of_kind(log, RoundStarted)} == {("red",)}
    assert not [t for t in of_kind(log, TurnStarted) if t.combatant == "vault"]
    assert of_kind(log, EncounterEnded)[0].winner == "red"
