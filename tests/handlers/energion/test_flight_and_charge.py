"""Fleeing (ruling 48) and charging (rule E21, ruling 28) through real Battles with fixed rolls.

Unless a test says otherwise both are plain 100-stat fighters with prepared reactions and a long sword
(type 2, SP 8, DMG 18, reach 1 m): hit chance 60, Cloth vs type 2 = 1, D = 18. A hit roll of 10 gives
quality 60 - 1 - 10 = 49 -> TRUNC(59/10)/10 = x0.5 -> 0.5 x 18 = 9 damage before any charge multiple.
"""

from __future__ import annotations

from decimal import Decimal

from affray.events.energion.kinds import AttackResolved, TargetChosen
from affray.events.shared import CombatantOut, EncounterEnded, Moved
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import EnergionScenario
from affray.kernel.encounter import Encounter
from affray.npc.energion.intents import Approach, Attack, Charge, Flee, Wait
from tests.handlers.energion import Script, TomlValue, fighter, of_kind, scenario
from tests.strategies import tell


def run(built: EnergionScenario, **scripts: Script) -> Encounter:
    """Run ``built`` with each named combatant following its script and the others standing idle."""
    battle = EnergionBattle(built)
    battle.controllers = {key: scripts.get(key, Script()) for key in battle.controllers}
    return battle.run()


def pair(
    a: dict[str, TomlValue], b: dict[str, TomlValue], rolls: list[int] | None = None
) -> EnergionScenario:
    return scenario(
        fighter("a", "ford", prepared=True, **a),
        fighter("b", "raiders", prepared=True, **b),
        rolls=rolls or [],
        max_seconds=6,
    )


def at(x: str, y: str) -> tuple[Decimal, Decimal]:
    return (Decimal(x), Decimal(y))


# --- fleeing (ruling 48) -------------------------------------------------------------------------------


def test_flee_runs_a_second_straight_away_from_the_target() -> None:
    # ruling 48: b at (3, 4), 5 m off; away is (-3, -4)/5; 3 m/s -> a ends at (-1.8, -2.4) at 1 s
    encounter = run(pair({}, {"position": [3, 4]}), a=Script(Flee(target="b", reason="r")))
    (moved,) = of_kind(encounter, Moved)
    assert (moved.t, moved.fleeing, moved.toward) == (1000, True, "b")
    assert (moved.start, moved.end, moved.distance) == (at("0", "0"), at("-1.8", "-2.4"), Decimal(3))


def test_flee_records_the_target_and_the_reason() -> None:
    encounter = run(pair({}, {"position": [3, 4]}), a=Script(Flee(target="b", reason="badly hurt")))
    (chosen,) = of_kind(encounter, TargetChosen)
    assert (chosen.target, chosen.reason, chosen.distance) == ("b", "badly hurt", Decimal(5))


def test_flee_from_an_enemy_on_the_same_spot_runs_along_the_x_axis() -> None:
    # ruling 48: no direction away from a foe on the same point -> +x; 3 m/s -> (3, 0)
    encounter = run(pair({}, {"position": [0, 0]}), a=Script(Flee(target="b", reason="r")))
    (moved,) = of_kind(encounter, Moved)
    assert moved.end == at("3", "0")


def test_flee_loses_stable_cover() -> None:
    # rule E16 (ruling 23): cover is lost once the combatant moves, a flight included
    encounter = run(pair({"cover": 40}, {"position": [3, 4]}), a=Script(Flee(target="b", reason="r")))
    assert encounter.state.combatants["a"].cover == 0


def test_flee_marks_the_fleer_as_maneuvering() -> None:
    # rule E19: its last move was a flight
    encounter = run(pair({}, {"position": [3, 4]}), a=Script(Flee(target="b", reason="r")))
    assert encounter.state.combatants["a"].fleeing is True


def test_fleeing_30_m_from_every_enemy_puts_the_fleer_out() -> None:
    # ruling 48: b at (28, 0); a runs 3 m to (-3, 0): 31 m >= 30 m -> out; only raiders stand
    encounter = run(pair({}, {"position": [28, 0]}), a=Script(Flee(target="b", reason="r")))
    (out,) = of_kind(encounter, CombatantOut)
    (ended,) = of_kind(encounter, EncounterEnded)
    assert (out.t, out.combatant, out.reason) == (1000, "a", "fled: 30 m or more from every enemy")
    assert ended.winner == "raiders"


def test_fleeing_short_of_30_m_keeps_the_fleer_in() -> None:
    # ruling 48: b at (26, 0); one run -> 29 m < 30 m: still in
    encounter = run(pair({}, {"position": [26, 0]}), a=Script(Flee(target="b", reason="r")))
    assert not of_kind(encounter, CombatantOut)


def test_fleeing_exactly_30_m_away_is_out() -> None:
    # ruling 48: "30 m or more": b at (27, 0) -> 30 m after one run
    encounter = run(pair({}, {"position": [27, 0]}), a=Script(Flee(target="b", reason="r")))
    (out,) = of_kind(encounter, CombatantOut)
    assert out.combatant == "a"


def test_a_fleer_far_from_its_target_but_near_another_enemy_stays_in() -> None:
    # ruling 48: every standing enemy counts: b at (28, 0) is 31 m off after the run, c at (-5, 0) is 2 m off
    built = scenario(
        fighter("a", "ford", prepared=True),
        fighter("b", "raiders", prepared=True, position=[28, 0]),
        fighter("c", "raiders", prepared=True, position=[-5, 0]),
        max_seconds=3,
    )
    encounter = run(built, a=Script(Flee(target="b", reason="r")))
    assert not of_kind(encounter, CombatantOut)


def test_flight_is_narrated_as_running_away_from_the_target() -> None:
    encounter = run(pair({}, {"position": [10, 0]}), a=Script(Flee(target="b", reason="r")))
    assert any(line.endswith("a flees 3 m away from b, (0, 0) -> (-3, 0)") for line in tell(encounter.log))


# --- charging (E21, ruling 28) -------------------------------------------------------------------------


def charge(a: dict[str, TomlValue], b_position: list[TomlValue], rolls: list[int]) -> Encounter:
    return run(pair(a, {"position": b_position}, rolls), a=Script(Charge(target="b", reason="r")))


def test_a_charge_that_arrives_strikes_at_once() -> None:
    # rule E21: 8 m/s from 9 m -> (8, 0) at 1 s, 1 m off = reach -> the blow at 1 s
    encounter = charge({"move_rate": 8}, [9, 0], [10])
    (moved,) = of_kind(encounter, Moved)
    (blow,) = of_kind(encounter, AttackResolved)
    assert (moved.t, moved.end, moved.fleeing) == (1000, at("8", "0"), False)
    assert (blow.t, blow.attacker, blow.target) == (1000, "a", "b")


def test_charge_multiplies_the_damage_by_speed_over_4() -> None:
    # rule E21: 8 m/s / 4 = x2; quality 49 -> x0.5 of 18 = 9 -> x2 = 18
    (blow,) = of_kind(charge({"move_rate": 8}, [9, 0], [10]), AttackResolved)
    assert blow.damage is not None
    assert (blow.damage.charge_speed, blow.damage.charge_multiple) == (Decimal(8), Decimal(2))
    assert (blow.damage.multiplier, blow.damage.damage) == (Decimal("0.5"), Decimal(18))


def test_a_charge_cut_short_at_reach_counts_the_distance_run() -> None:
    # rule E21 (ruling 28): 8 m/s from 6 m stops at reach: 5 m in the second -> 5 m/s / 4 = x1.25;
    # 9 x 1.25 = 11.25
    (blow,) = of_kind(charge({"move_rate": 8}, [6, 0], [10]), AttackResolved)
    assert blow.damage is not None
    assert (blow.damage.charge_speed, blow.damage.charge_multiple, blow.damage.damage) == (
        Decimal(5),
        Decimal("1.25"),
        Decimal("11.25"),
    )


def test_a_slow_charge_does_not_reduce_the_damage() -> None:
    # rule E21 (ruling 28): 3 m/s from 4 m -> 3 / 4 = 0.75, applied only above 1 -> x1 -> 9
    (blow,) = of_kind(charge({}, [4, 0], [10]), AttackResolved)
    assert blow.damage is not None
    assert (blow.damage.charge_speed, blow.damage.charge_multiple, blow.damage.damage) == (
        Decimal(3),
        Decimal(1),
        Decimal(9),
    )


def test_a_target_running_at_the_charger_adds_its_speed() -> None:
    # rule E21 (ruling 28): b (first in file order) runs 3 m/s at a, (12, 0) -> (9, 0) at 1 s: (-3, 0);
    # a charges 8 m/s -> (8, 0): |(8, 0) - (-3, 0)| = 11 m/s -> x2.75 -> 9 x 2.75 = 24.75
    built = scenario(
        fighter("b", "raiders", prepared=True, position=[12, 0]),
        fighter("a", "ford", prepared=True, move_rate=8),
        rolls=[10],
        max_seconds=3,
    )
    encounter = run(
        built, a=Script(Charge(target="b", reason="r")), b=Script(Approach(target="a", reason="r"))
    )
    (blow,) = of_kind(encounter, AttackResolved)
    assert blow.damage is not None
    assert (blow.damage.charge_speed, blow.damage.charge_multiple, blow.damage.damage) == (
        Decimal(11),
        Decimal("2.75"),
        Decimal("24.75"),
    )


def test_a_charge_that_falls_short_makes_no_attack() -> None:
    # rule E21: 8 m/s from 20 m -> (8, 0), 12 m off, beyond reach 1 m: only the move
    encounter = charge({"move_rate": 8}, [20, 0], [])
    assert len(of_kind(encounter, Moved)) == 1
    assert not of_kind(encounter, AttackResolved)


def test_a_charge_with_a_missile_weapon_makes_no_attack() -> None:
    # rule E21: the charge strikes with a melee weapon only; a light crossbow's reach is its PTB 8 m
    encounter = charge({"move_rate": 8, "weapons": [{"name": "Crossbow, Light"}]}, [20, 0], [])
    assert len(of_kind(encounter, Moved)) == 1
    assert not of_kind(encounter, AttackResolved)


def test_an_ordinary_blow_has_no_charge_figures() -> None:
    # rule E7: a standing blow: quality 49 -> x0.5 of 18 = 9, no charge speed or multiple
    encounter = run(pair({}, {"position": [1, 0]}, [10]), a=Script(Attack(target="b", reason="r")))
    (blow,) = of_kind(encounter, AttackResolved)
    assert blow.damage is not None
    assert (blow.damage.charge_speed, blow.damage.charge_multiple, blow.damage.damage) == (
        None,
        None,
        Decimal(9),
    )


def test_a_charge_is_narrated_with_its_multiple_and_speed() -> None:
    lines = list(tell(charge({"move_rate": 8}, [9, 0], [10]).log))
    assert any(
        "x0.5 of 18 (base 18 + ST 0 + weapon 0 + skill 0) x2 for the charge at 8 m/s = 18 damage" in line
        for line in lines
    )


def test_a_slow_charge_is_narrated_as_no_bonus() -> None:
    lines = list(tell(charge({}, [4, 0], [10]).log))
    assert any(", charging at 3 m/s (x1: no bonus) = 9 damage" in line for line in lines)


def test_a_charge_from_within_reach_has_no_speed_bonus() -> None:
    # rule E21 (ruling 28, 25): a runs 8 m at 8 m/s, ending at 1 s 1 m from b; waits 2 s; charges at 3 s:
    # no move is made and a has been at rest since 2 s -> 0 m/s -> x1 -> 9 at 4 s (fixed in 8fd5b14: the
    # stale velocity of the old move gave x2 -> 18)
    built = pair({"move_rate": 8}, {"position": [9, 0]}, [10])
    encounter = run(
        built,
        a=Script(
            Approach(target="b", reason="r"), Wait(seconds=2, reason="r"), Charge(target="b", reason="r")
        ),
    )
    (blow,) = of_kind(encounter, AttackResolved)
    assert blow.damage is not None
    assert (blow.t, blow.damage.charge_speed, blow.damage.charge_multiple, blow.damage.damage) == (
        4000,
        Decimal(0),
        Decimal(1),
        Decimal(9),
    )
