"""Whole Energion encounters: the clock, the end, movement, determinism (rules E1, E3; rulings 13-17)."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from affray.errors import DiceExhausted, ScenarioError
from affray.events.codec import ENCODER
from affray.events.energion.kinds import AttackResolved, Perceived, Reacted, TargetChosen
from affray.events.shared import CombatantOut, EncounterEnded, Moved
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import EnergionScenario, decode_scenario, load_scenario
from affray.kernel.encounter import Encounter
from affray.kernel.space import distance
from tests.handlers.energion import TomlValue, fighter, of_kind, scenario, scenario_toml

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
FAR = [100, 0]


def run(built: EnergionScenario) -> Encounter:
    return EnergionBattle(built).run()


def test_encounter_ends_when_one_side_is_left() -> None:
    # rule E1 (ruling 15): a hits with roll 1 -> 60 - 1 (Cloth vs type 2) - 1 = 58 -> TRUNC(68/10) = 6
    # -> x0.6 * 18 = 10.8 >= b's 1 point: b is out and only side ford stands
    encounter = run(
        scenario(
            fighter("a", "ford", prepared=True),
            fighter("b", "raiders", prepared=True, position=[1, 0], damage_points=1),
            rolls=[1],
        )
    )
    out, ended = encounter.log[-2:]
    assert isinstance(out, CombatantOut)
    assert out.combatant == "b"
    assert isinstance(ended, EncounterEnded)
    assert (ended.winner, ended.t) == ("ford", 0)
    assert (encounter.state.ended, encounter.state.winner) == (True, "ford")


def test_target_left_at_exactly_zero_damage_points_is_out() -> None:
    # rule E1 (ruling 15: out "at 0 damage points or fewer"): skill 100, roll 55 -> 100 - 1 - 55 = 44
    # -> TRUNC(54/10) = 5 -> x0.5 * 18 = 9 = b's damage points
    encounter = run(
        scenario(
            fighter("a", "ford", prepared=True, skill=100),
            fighter("b", "raiders", prepared=True, position=[1, 0], damage_points=9),
            rolls=[55],
        )
    )
    assert [event.combatant for event in of_kind(encounter, CombatantOut)] == ["b"]


def test_time_limit_ends_the_fight_with_no_winner() -> None:
    # rule E1 (ruling 15): 100 m apart, nobody reaches anybody within max_seconds = 2
    encounter = run(scenario(fighter("a", "ford"), fighter("b", "raiders", position=FAR), max_seconds=2))
    ended = encounter.log[-1]
    assert isinstance(ended, EncounterEnded)
    assert (ended.t, ended.winner, ended.reason) == (2000, None, "time limit of 2 s reached")
    assert encounter.state.winner is None


def test_clock_starts_at_the_first_perception() -> None:
    # rule E1 (ruling 13): perceptions rolled 7 s (a) and 4 s (b); shifted by the smallest, 4 s:
    # b perceives at 0 ms, a at 7 - 4 = 3 s
    encounter = run(
        scenario(
            fighter("a", "ford", perception="1d10"),
            fighter("b", "raiders", perception="1d10", position=FAR),
            rolls=[7, 4],
            max_seconds=5,
        )
    )
    seen = {event.combatant: (event.t, event.after_ms) for event in of_kind(encounter, Perceived)}
    assert seen == {"a": (3000, 3000), "b": (0, 0)}


def test_prepared_reaction_takes_no_reaction_time() -> None:
    # rule E1: "Any time a character has not prepared a set reaction ... reaction time is required".
    # a is prepared: its "1d10" reaction is never rolled (no rolls given); b waits its 2 s
    encounter = run(
        scenario(
            fighter("a", "ford", prepared=True, reaction="1d10"),
            fighter("b", "raiders", reaction=2, position=FAR),
            rolls=[],
            max_seconds=5,
        )
    )
    reacted = {
        event.combatant: (event.t, event.reaction_ms, event.prepared) for event in of_kind(encounter, Reacted)
    }
    assert reacted == {"a": (0, 0, True), "b": (2000, 2000, False)}


def attack_times(readiness: str) -> list[int]:
    """When a (AG 130, a long sword) strikes b, who stands in reach but never perceives within 16 s."""
    encounter = run(
        scenario(
            fighter(
                "a",
                "ford",
                prepared=True,
                stats={"AG": 130},
                weapons=[{"name": "Sword, Long", "readiness": readiness}],
            ),
            fighter("b", "raiders", perception=100, position=[1, 0]),
            rolls=[100] * 5,
            max_seconds=16,
        )
    )
    return [event.t for event in of_kind(encounter, AttackResolved)]


def test_attacks_are_separated_by_the_modified_speed() -> None:
    # rules E1, E2: Sword, Long SP 8; AG 130 -> adj 30/10 = 3 -> gap 8 - 3 = 5 s; in hand, the first
    # attack comes at 0 ms, then every 5 s (every roll of 100 misses)
    assert attack_times("in_hand") == [0, 5000, 10000, 15000]


def test_first_attack_follows_battle_initiative_without_a_speed_gap() -> None:
    # rules E1, E3: unready -> modified initiative 10 - 3/2 = 8.5 s, then the attack at once (no gap
    # before the first attack), the next 5 s later
    assert attack_times("unready") == [8500, 13500]


def approach(target_at: list[float], *, rolls: list[int]) -> Encounter:
    """a (move 2.5 m/s, reach 1 m) goes for b, who never perceives within the 4 s the fight lasts."""
    return run(
        scenario(
            fighter("a", "ford", prepared=True, move_rate=2.5),
            fighter("b", "raiders", perception=100, position=target_at),
            rolls=rolls,
            max_seconds=4,
        )
    )


def test_out_of_reach_combatant_moves_its_move_rate_each_second() -> None:
    # rule E1 (ruling 17, movement): b is 7 m away, reach 1 m: 2.5 m in the first second, 2.5 m in the second
    moves = of_kind(approach([7, 0], rolls=[100]), Moved)
    assert [(m.t, m.distance) for m in moves[:2]] == [(1000, Decimal("2.5")), (2000, Decimal("2.5"))]


def test_approach_stops_at_reach_and_attacks() -> None:
    # rule E1 (ruling 17, movement): after 5 m, 2 m are left; the third second moves 2 - 1 = 1 m,
    # to x = 6, 1 m (the reach) from b.
    # The attack follows at once (E1: no gap before the first attack); roll 100 misses.
    encounter = approach([7, 0], rolls=[100])
    last_move = of_kind(encounter, Moved)[-1]
    attack = of_kind(encounter, AttackResolved)[0]
    assert (last_move.t, last_move.distance, last_move.end) == (3000, Decimal(1), (Decimal(6), Decimal(0)))
    assert attack.t == 3000


def test_diagonal_approach_stops_at_reach() -> None:
    # rule E1 (ruling 17, movement): b at (0.143, 2) is 2.005 m away; one second's move of
    # 2.005 - 1 = 1.005 m (< 2.5 m) should end at reach, and the attack follow at 1000 ms
    encounter = approach([0.143, 2], rolls=[100])
    first_move = of_kind(encounter, Moved)[0]
    assert distance(first_move.end, (Decimal("0.143"), Decimal("2.000"))) <= 1
    assert of_kind(encounter, AttackResolved)[0].t == 1000


def test_out_combatant_acts_no_more() -> None:
    # rule E1 (ruling 16): a, b1 and b2 all act at 0 ms in file order. a's roll 1 puts b1 out
    # (100 - 1 - 1 = 98 -> TRUNC(108/10) = 10 -> x1.0 * 18 = 18 >= 1) before b1's turn at that instant;
    # every later roll (100) misses, so a and b2 fight on.
    encounter = run(
        scenario(
            fighter("a", "ford", prepared=True, skill=100, damage_points=100),
            fighter("b1", "raiders", prepared=True, position=[1, 0], damage_points=1, skill=0),
            fighter(
                "b2",
                "raiders",
                prepared=True,
                position=[0, 1],
                damage_points=100,
                skill=0,
                weapons=[{"name": "Dagger, Normal"}],
            ),
            rolls=[1] + [100] * 20,
            max_seconds=10,
        )
    )
    out_at = next(event.seq for event in of_kind(encounter, CombatantOut) if event.combatant == "b1")
    later = encounter.log[out_at:]
    actors = {getattr(event, "combatant", None) or getattr(event, "attacker", None) for event in later}
    assert "b1" not in actors
    assert sum(isinstance(event, AttackResolved) for event in later) >= 3  # the fight went on without b1
    assert not any(isinstance(event, TargetChosen) and event.target == "b1" for event in later)


@pytest.mark.parametrize("name", ["duel", "skirmish"])
def test_example_runs_to_an_end(name: str) -> None:
    encounter = run(load_scenario(EXAMPLES / f"{name}.toml"))
    assert encounter.state.ended
    assert isinstance(encounter.log[-1], EncounterEnded)
    assert sum(isinstance(event, EncounterEnded) for event in encounter.log) == 1


def test_same_scenario_twice_gives_equal_logs() -> None:
    built = load_scenario(EXAMPLES / "skirmish.toml")
    first, second = run(built), run(built)
    assert [ENCODER.encode(event) for event in first.log] == [ENCODER.encode(event) for event in second.log]


def test_running_out_of_manual_dice_names_the_roll_and_when_it_was_wanted() -> None:
    # a, in hand and in reach at 0 ms, needs its hit roll, but no rolls were supplied; b joined last (seq 2)
    built = scenario(fighter("a", "ford", prepared=True), fighter("b", "raiders", position=[1, 0]), rolls=[])
    wanted = "a/hit#1 (a d100 for a's hit roll) was not entered, wanted at 0.000 s after seq"
    with pytest.raises(DiceExhausted, match=re.escape(wanted)):
        run(built)


def test_a_missing_roll_later_in_the_fight_says_its_game_time() -> None:
    # rule E1: a's hit roll 99 misses (60 - 1 - 99 < 0); its next blow comes the long sword's speed later
    # (8, 1H adjustment 0): at 8 s
    # (b reacts only at 20 s, so it neither parries nor strikes before)
    built = scenario(
        fighter("a", "ford", prepared=True), fighter("b", "raiders", position=[1, 0], reaction=20), rolls=[99]
    )
    with pytest.raises(DiceExhausted, match=r"wanted at 8\.000 s after seq \d+ \(attack_resolved\)"):
        run(built)


# --- which controller decides (ruling 50) --------------------------------------------------------------


def controller_of(**fields: TomlValue) -> str:
    """The name of the controller ``me`` gets, with ``fields``, against a plain foe."""
    battle = EnergionBattle(scenario(fighter("me", "ford", **fields), fighter("foe", "raiders")))
    return battle.controllers["me"].name


def test_a_plain_swordsman_is_left_to_nearest() -> None:
    assert controller_of() == "nearest"


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"weapons": [{"name": "Bow, Self, Long"}]}, id="missile"),
        pytest.param({"weapons": [{"name": "Dagger, Throwing", "hurled": True}]}, id="hurled"),
        pytest.param({"weapons": [{"name": "Sword, Long"}, {"name": "Dagger, Normal"}]}, id="two-weapons"),
        pytest.param({"spells": [{"name": "Bolt", "casting_seconds": 2, "damage": "1d6"}]}, id="spells"),
        pytest.param({"grapples": ["Trip"]}, id="grapples"),
        pytest.param({"martial_arts_level": 2, "weapons": [{"name": "Hand"}]}, id="martial-arts"),
    ],
)
def test_a_combatant_with_more_to_use_gets_the_tactician(fields: dict[str, TomlValue]) -> None:
    # ruling 50: nearest would walk a bowman into melee and never cast a spell
    assert controller_of(**fields) == "tactician"


def test_a_controller_named_in_the_scenario_is_kept() -> None:
    assert controller_of(controller="nearest", weapons=[{"name": "Bow, Self, Long"}]) == "nearest"


def test_a_special_type_table_2_does_not_list_is_refused_at_load_naming_its_field() -> None:
    # rule S9: a weapon's special_type is read at its first hit; it is checked before the fight starts
    zapper = fighter("a", "left", weapons=[{"name": "Sword, Long", "special_type": "Zap gun"}])
    text = scenario_toml(zapper, fighter("b", "right")).replace(
        "seed = 1\n", 'seed = 1\nmodules = ["special_damage"]\n'
    )
    with pytest.raises(
        ScenarioError, match=r"^\$\.combatants\[0\]\.weapons\[0\]\.special_type: unknown weapon type"
    ):
        EnergionBattle(decode_scenario(text, "zap.toml"))
