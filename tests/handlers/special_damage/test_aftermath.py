"""The aftermath (rules S7, S8): healing times and costs, robot repair, who does not heal."""

from __future__ import annotations

from decimal import Decimal

from affray.events.special_damage.kinds import (
    AftermathEnded,
    AftermathStarted,
    ConditionEnded,
    Healed,
    HealingScheduled,
    NotHealed,
)
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.special_damage.aftermath import run_aftermath
from affray.kernel.encounter import Encounter
from affray.kernel.fold import fold
from tests.handlers.energion import TomlValue, fighter, of_kind
from tests.handlers.special_damage.test_module import a, b, special
from tests.strategies import condition_scenario

HOUR_MS = 3600 * 1000
DAY_MS = 24 * HOUR_MS


def healed(
    rolls: list[int],
    days: int,
    *combatants: dict[str, TomlValue],
    level_divisor: int = 100,
    limbs_set_in_time: bool = True,
) -> Encounter:
    """Run the special scenario of ``combatants`` (a and b by default), then ``days`` of aftermath."""
    built = special(
        *(combatants or (a(), b())),
        rolls=rolls,
        max_seconds=5,
        level_divisor=level_divisor,
        limbs_set_in_time=limbs_set_in_time,
    )
    battle = EnergionBattle(built)
    encounter = battle.run()
    run_aftermath(encounter, battle, days)
    return encounter


def test_a_wound_heals_in_1d10_plus_1_hours_at_no_cost() -> None:
    # S7: Leg wound (1 + 2 = 3) heals as a wound: 1d10+1 = 4 + 1 = 5 h after the fight's end at 5 s
    encounter = healed([3, 1, 4], 1)
    (scheduled,) = of_kind(encounter, HealingScheduled)
    assert (scheduled.heals_as, scheduled.roll.total, scheduled.ready_ms, scheduled.cost) == (
        "wound",
        5,
        5000 + 5 * HOUR_MS,
        0,
    )
    (done,) = of_kind(encounter, Healed)
    assert (done.injury, done.t) == ("Leg wound", 5000 + 5 * HOUR_MS)
    assert encounter.state.combatants["b"].special.injuries == []


def test_a_broken_limb_set_in_time_heals_in_3d10_plus_1_days() -> None:
    # S7: 7 + 2 = 9: Leg broken (b carries no equipment: no roll); set in time: 3d10+1 = 15 + 1 = 16 days
    encounter = healed([3, 7, 5, 5, 5], 20)
    (scheduled,) = of_kind(encounter, HealingScheduled)
    assert (scheduled.roll.expr, scheduled.ready_ms, scheduled.cost) == ("3d10+1", 5000 + 16 * DAY_MS, 0)
    assert len(of_kind(encounter, Healed)) == 1


def test_a_broken_limb_not_set_in_time_needs_the_hospital_at_50_credits_a_day() -> None:
    # S7: not set within 2 hours: hospital 3d10 = 15 days x 50 Cr = 750 Cr
    encounter = healed([3, 7, 5, 5, 5], 20, limbs_set_in_time=False)
    assert of_kind(encounter, AftermathStarted)[0].limbs_set_in_time is False
    (scheduled,) = of_kind(encounter, HealingScheduled)
    assert (scheduled.roll.expr, scheduled.ready_ms, scheduled.cost) == ("3d10", 5000 + 15 * DAY_MS, 750)


def test_an_injury_not_healed_within_the_days_keeps_its_penalties() -> None:
    # S7: 16 days to heal, 3 days given: no healed event; the injury stays
    encounter = healed([3, 7, 5, 5, 5], 3)
    assert of_kind(encounter, Healed) == []
    assert [i.name for i in encounter.state.combatants["b"].special.injuries] == ["Leg broken"]
    assert of_kind(encounter, AftermathEnded)[0].t == 5000 + 3 * DAY_MS


def test_a_robot_is_repaired_by_the_best_robotics_skill_of_its_side() -> None:
    # S8: Leg damage (1 + 2 = 3) is "damage": 2d10 = 10 minutes, by m (Robotics 3) rather than n (1)
    robot = b(kind="robot")
    m = fighter("m", "raiders", position=[5, 0], robotics_skill=3, perception=100)
    n = fighter("n", "raiders", position=[6, 0], robotics_skill=1, perception=100)
    encounter = healed([3, 1, 5, 5], 1, a(), n, robot, m)
    (scheduled,) = of_kind(encounter, HealingScheduled)
    assert (scheduled.roll.total, scheduled.ready_ms, scheduled.note) == (
        10,
        5000 + 10 * 60000,
        "repaired by m (Robotics 3)",
    )
    assert len(of_kind(encounter, Healed)) == 1


def test_a_robot_without_a_mechanic_is_not_repaired() -> None:
    # S8: a character with Robotics skill is required; no one on the vault's side has it
    encounter = healed([3, 1], 1, a(), b(kind="robot"))
    (not_healed,) = of_kind(encounter, NotHealed)
    assert (not_healed.injury, not_healed.reason) == ("Leg damage", "no one of its side has Robotics skill")
    assert of_kind(encounter, HealingScheduled) == []


def test_a_combatant_killed_by_special_damage_does_not_heal() -> None:
    # S4: 9 + 12 + 2 = 23: Dead; the aftermath schedules nothing for b
    encounter = healed([3, 9], 30, level_divisor=5)
    assert of_kind(encounter, HealingScheduled) == []
    assert of_kind(encounter, Healed) == []


def test_an_unconscious_combatant_comes_round_during_the_aftermath() -> None:
    # S4: knocked out at 0 s for 1 minute; the fight ends at 10 s; condition_ended at 60 s
    battle = EnergionBattle(condition_scenario())
    encounter = battle.run()
    run_aftermath(encounter, battle, 1)
    (ended,) = of_kind(encounter, ConditionEnded)
    assert (ended.combatant, ended.condition, ended.t) == ("b", "unconscious", 60000)
    assert "unconscious" not in encounter.state.combatants["b"].conditions


def test_the_aftermath_folds_to_the_live_state() -> None:
    battle = EnergionBattle(condition_scenario())
    encounter = battle.run()
    taken = encounter.state.combatants["b"].damage_taken
    run_aftermath(encounter, battle, 1)
    assert fold(encounter.log, encounter.vocabulary) == encounter.state
    assert taken > Decimal(0)


def test_a_living_survivors_damage_points_are_healed_as_the_aftermath_begins() -> None:
    # ruling 21: b took special damage's Stamina in the fight; the aftermath starts with it restored
    battle = EnergionBattle(condition_scenario())
    encounter = battle.run()
    assert encounter.state.combatants["b"].damage_taken > 0
    run_aftermath(encounter, battle, 1)
    (started,) = of_kind(encounter, AftermathStarted)
    assert started.restored == ("b",)
    assert encounter.state.combatants["b"].damage_taken == 0


def test_a_robot_keeps_its_damage_points() -> None:
    # ruling 21: only the living heal by the host's rules; the robot's Leg damage Stamina stays taken
    encounter = healed([3, 1], 1, a(), b(kind="robot"))
    (started,) = of_kind(encounter, AftermathStarted)
    assert started.restored == ()
    assert encounter.state.combatants["b"].damage_taken > 0


def test_the_dead_are_not_restored() -> None:
    # ruling 25: 9 + 12 + 2 = 23: Dead; its damage points stay as the fight left them
    encounter = healed([3, 9], 1, level_divisor=5)
    (started,) = of_kind(encounter, AftermathStarted)
    assert "b" not in started.restored
