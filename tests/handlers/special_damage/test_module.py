"""The special_damage module over real Energion battles, dice fixed (rules S1-S6, S9, S10).

Unless a test says otherwise: a (skill 60, a long sword, Energion type 2 -> Table 2 "Long melee" +2) is
prepared and strikes b, 1 m away, who never perceives (no RS check: it has not reacted). level_divisor 100
makes a's add-on skill level 60 // 100 = 0, so the chance is 3 + 2 x 0 = 3 % and Table 1 adds no skill
level; a hit roll of 3 lands (60 - 1 Cloth - 3 > 0) and scores.
"""

from __future__ import annotations

from decimal import Decimal

import msgspec
import pytest

from affray.events.energion.kinds import AttackResolved, GrappleResolved, Modifier
from affray.events.shared import ActionRefused, CombatantOut, EncounterEnded, Moved
from affray.events.special_damage.kinds import (
    ConditionEnded,
    ConditionStarted,
    EquipmentLost,
    Exploded,
    LostItem,
    ProgramsDestroyed,
    RefereeRuling,
    SpecialDamage,
    SpecialModifier,
)
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import EnergionScenario, decode_scenario
from affray.handlers.special_damage import module
from affray.kernel.encounter import Encounter
from affray.npc.energion.intents import Aim, Attack, Flee, Grapple, Intent
from affray.npc.energion.tactician import Tactician
from affray.npc.energion.view import View
from affray.rules.special_damage.tables import load_modifiers
from tests.handlers.energion import TomlValue, fighter, of_kind, run, scenario_toml

INJURED = Modifier(name="injuries", value=Decimal(-5), rule="S4, S5")
"""A chest wound's penalty to hit (S4), as a hit lists it."""


def special(
    *combatants: dict[str, TomlValue],
    rolls: list[int],
    max_seconds: int = 1,
    level_divisor: int = 100,
    extra: str = "",
    **options: TomlValue,
) -> EnergionScenario:
    """A scenario with ``modules = ["special_damage"]`` and its ``[special_damage]`` options."""
    text = scenario_toml(*combatants, rolls=rolls, max_seconds=max_seconds)
    text = text.replace("seed = 1\n", 'seed = 1\nmodules = ["special_damage"]\n', 1)
    settings = {"level_divisor": level_divisor, **options}
    text += "\n[special_damage]\n" + "".join(
        f"{key} = {str(value).lower() if isinstance(value, bool) else value}\n"
        for key, value in settings.items()
    )
    return decode_scenario(text + extra, "special.toml")


def a(**fields: TomlValue) -> dict[str, TomlValue]:
    return fighter("a", "ford", prepared=True, **fields)


def b(**fields: TomlValue) -> dict[str, TomlValue]:
    spec: dict[str, TomlValue] = {"position": [1, 0], "damage_points": 100, "perception": 100}
    spec.update(fields)
    return fighter("b", "raiders", **spec)


def fight(built: EnergionScenario) -> Encounter:
    return EnergionBattle(built).run()


def only_special(encounter: Encounter) -> SpecialDamage:
    (event,) = of_kind(encounter, SpecialDamage)
    return event


# -- S1: scoring ---------------------------------------------------------------------------------------


def test_a_hit_roll_at_the_chance_scores_special_damage() -> None:
    # S1: level 0: 3 + 2 x 0 = 3 %; hit chance 60 >= 3; roll 3 <= 3 scores; type 1 + 2 long melee = 3
    event = only_special(fight(special(a(), b(), rolls=[3, 1])))
    assert (event.skill_level, event.chance, event.hit_roll, event.total, event.damage) == (
        0,
        3,
        3,
        3,
        "Leg wound",
    )


def test_a_hit_roll_above_the_chance_scores_none() -> None:
    # S1: roll 4 > 3 %: a hit (60 - 1 - 4 > 0) but no special damage; no type roll is made (one roll given)
    encounter = fight(special(a(), b(), rolls=[4]))
    assert of_kind(encounter, AttackResolved)[0].outcome == "hit"
    assert of_kind(encounter, SpecialDamage) == []


def test_a_chance_above_the_hit_chance_scores_none() -> None:
    # S1: level 60 // 2 = 30: 3 + 2 x 30 = 63 % > hit chance 60: none, though roll 5 <= 63
    encounter = fight(special(a(), b(), rolls=[5], level_divisor=2))
    assert of_kind(encounter, AttackResolved)[0].hit.hit_chance == Decimal(60)
    assert of_kind(encounter, SpecialDamage) == []


def test_a_defensive_screen_takes_no_special_damage() -> None:
    # S2: roll 3 <= 3 % would score, but b's active defensive screen stops it (one roll given)
    encounter = fight(special(a(), b(defensive_screen=True), rolls=[3]))
    assert of_kind(encounter, AttackResolved)[0].outcome == "hit"
    assert of_kind(encounter, SpecialDamage) == []


# -- S9: Table 1 derived from the encounter ------------------------------------------------------------


def test_each_skill_level_adds_one_to_the_type_roll() -> None:
    # S1, S9: level 60 // 60 = 1: chance 3 + 2 x 1 = 5 %, roll 5 scores; type 1 + 1 level + 2 long = 4
    # (Arm wound: equipment roll 50)
    event = only_special(fight(special(a(), b(), rolls=[5, 1, 50], level_divisor=60)))
    assert (event.chance, event.total) == (5, 4)
    assert SpecialModifier("Per skill level with weapon", 1) in event.modifiers


def test_a_second_hit_within_six_seconds_adds_one() -> None:
    # S9: AG 130 -> the sword's gap 8 - 3 = 5 s; hits at 0 and 5 s: the second within a 6 s turn:
    # type 1 + 1 twice + 2 long = 4 (Arm wound: equipment roll 50); the first was 1 + 2 = 3
    encounter = fight(special(a(stats={"AG": 130}), b(), rolls=[3, 1, 3, 1, 50], max_seconds=6))
    first, second = of_kind(encounter, SpecialDamage)
    assert (first.t, first.total, second.t, second.total) == (0, 3, 5000, 4)
    assert SpecialModifier("Target hit twice in same turn", 1) in second.modifiers


def test_a_target_that_makes_its_rs_check_takes_two_off() -> None:
    # S9: b prepared has reacted: RS = AG 120 // 2 = 60; rs-check roll 60 <= 60: -2, rolled before the type
    # roll it modifies; 1 - 2 + 2 = 1: None
    built = special(a(), b(prepared=True, perception=0, stats={"AG": 120}), rolls=[3, 60, 1])
    encounter, _ = run(built, a=[Attack(target="b", reason="scripted")])
    event = only_special(encounter)
    assert event.modifiers[0] == SpecialModifier("Target makes RS check (60 <= RS 60)", -2)
    assert (event.total, event.damage) == (1, "None")


def test_a_target_that_fails_its_rs_check_takes_no_modifier() -> None:
    # S9: rs-check roll 61 > RS 60: no modifier; 1 + 2 = 3: Leg wound
    built = special(a(), b(prepared=True, perception=0, stats={"AG": 120}), rolls=[3, 61, 1])
    encounter, _ = run(built, a=[Attack(target="b", reason="scripted")])
    event = only_special(encounter)
    assert [m.reason for m in event.modifiers] == ["Long melee"]
    assert event.total == 3


def test_a_point_blank_crossbow_shot_adds_two() -> None:
    # S9, S2: skill 100 // 100 = level 1, chance 5; 3 m is point blank (+2); Table 2 "Bow or crossbow" +2;
    # type 1 + 2 + 1 + 2 = 6 (Shoulder wound: equipment roll 50)
    # (nearest shoots at once: the tactician would aim first)
    shooter = a(skill=100, controller="nearest", weapons=[{"name": "Crossbow, Light"}])
    built = special(shooter, b(position=[3, 0]), rolls=[3, 1, 50])
    event = only_special(fight(built))
    assert event.modifiers == (
        SpecialModifier("Point blank range", 2),
        SpecialModifier("Per skill level with weapon", 1),
        SpecialModifier("Bow or crossbow", 2),
    )
    assert event.total == 6


def test_careful_aiming_counts_whole_turns_beyond_the_gap() -> None:
    # S1, S9: aim 20 s - the crossbow's 8 s gap = 12 s = 2 six-second rounds: chance 3 + 2 x 1 + 2 = 7 %,
    # +2 careful aiming; 10 m is short range (+1): 1 + 1 + 2 + 1 + 2 = 7 (Arm wound: equipment 50)
    built = special(
        a(skill=100, weapons=[{"name": "Crossbow, Light"}]),
        b(position=[10, 0]),
        rolls=[3, 1, 50],
        max_seconds=40,
    )
    encounter, _ = run(
        built, a=[Aim(target="b", seconds=20, reason="scripted"), Attack(target="b", reason="scripted")]
    )
    event = only_special(encounter)
    assert (event.aim_rounds, event.chance, event.total) == (2, 7, 7)
    assert SpecialModifier("Careful aiming", 2) in event.modifiers
    assert SpecialModifier("Short range", 1) in event.modifiers


def test_tiny_suited_underwater_target_modifiers() -> None:
    # S9: size 0.2 m2 < 0.25: tiny +2; suit-type defense -2; underwater -2: 5 + 2 - 2 - 2 + 2 = 5
    # (Shoulder wound: equipment roll 50)
    built = special(a(), b(size_m2=0.2, suit_defense=True), rolls=[3, 5, 50], underwater=True)
    event = only_special(fight(built))
    assert event.modifiers == (
        SpecialModifier("Tiny target", 2),
        SpecialModifier("Suit-type defense", -2),
        SpecialModifier("Target is underwater", -2),
        SpecialModifier("Long melee", 2),
    )
    assert event.total == 5


def test_small_target_adds_one() -> None:
    # S9: 0.25 <= 0.4 m2 < 0.5: small +1: 1 + 1 + 2 = 4 (Arm wound: equipment roll 50)
    event = only_special(fight(special(a(), b(size_m2=0.4), rolls=[3, 1, 50])))
    assert SpecialModifier("Small target", 1) in event.modifiers
    assert event.total == 4


def test_robotics_skill_against_a_robot_and_a_giant_target() -> None:
    # S9: Robotics 2 x 2 = +4 against a robot; 5 m2 > 4: giant -2: 5 + 4 - 2 + 2 = 9 -> Table 4 Leg broken
    built = special(a(robotics_skill=2), b(kind="robot", size_m2=5), rolls=[3, 5, 50])
    event = only_special(fight(built))
    assert event.modifiers == (
        SpecialModifier("Per Robotics or Computer skill", 4),
        SpecialModifier("Giant target", -2),
        SpecialModifier("Long melee", 2),
    )
    assert (event.table, event.total, event.damage) == ("robot", 9, "Leg broken")


def test_robotics_skill_does_not_count_against_a_living_target() -> None:
    # S9 (** footnote): against robots only: 1 + 2 = 3
    event = only_special(fight(special(a(robotics_skill=2), b(), rolls=[3, 1])))
    assert event.total == 3


def test_a_row_the_table_keeps_to_robots_does_not_count_against_a_living_target(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # S9: a row counts only against the kinds of target its applies_to names (the data's ** rows): made
    # "Tiny target" a robots' row, a tiny living target takes no +2: 5 - 2 - 2 + 2 = 3 (Arm wound)
    table = load_modifiers()
    rows = tuple(
        msgspec.structs.replace(row, applies_to=("robot",)) if row.reason == "Tiny target" else row
        for row in table.modifiers
    )
    monkeypatch.setattr(module, "load_modifiers", lambda: msgspec.structs.replace(table, modifiers=rows))
    built = special(a(), b(size_m2=0.2, suit_defense=True), rolls=[3, 5, 50], underwater=True)
    event = only_special(fight(built))
    assert SpecialModifier("Tiny target", 2) not in event.modifiers
    assert event.total == 3


def test_a_moving_attacker_and_a_large_target() -> None:
    # S9: a walks 2 m to reach b (3 m away) and strikes at 1 s while moving: -1 once; 2 m2 > 1: large -1;
    # 5 - 1 - 1 + 2 = 5 (Shoulder wound: equipment roll 50)
    built = special(a(), b(position=[3, 0], size_m2=2), rolls=[3, 5, 50], max_seconds=3)
    encounter = fight(built)
    assert of_kind(encounter, Moved)
    event = only_special(encounter)
    assert event.modifiers == (
        SpecialModifier("Large target", -1),
        SpecialModifier("Moving target", -1),
        SpecialModifier("Long melee", 2),
    )


# -- S9: Table 2 ---------------------------------------------------------------------------------------


def test_a_dagger_is_a_short_melee_weapon() -> None:
    # S9: Dagger, Normal is Energion type 1 -> "Short melee" +1: 1 + 1 = 2: Chest wound
    event = only_special(fight(special(a(weapons=[{"name": "Dagger, Normal"}]), b(), rolls=[3, 1])))
    assert event.modifiers == (SpecialModifier("Short melee", 1),)
    assert event.damage == "Chest wound"


def test_a_weapons_special_type_overrides_its_energion_type() -> None:
    # S9: special_type "Heavy gyrojet": +6: 1 + 6 = 7 (Arm wound, primary: equipment roll 50)
    built = special(
        a(weapons=[{"name": "Sword, Long", "special_type": "Heavy gyrojet"}]), b(), rolls=[3, 1, 50]
    )
    event = only_special(fight(built))
    assert event.modifiers == (SpecialModifier("Heavy gyrojet", 6),)
    assert event.total == 7


# -- S3, S4: Table 3 and its effects ------------------------------------------------------------------


def test_a_chest_wound_takes_five_off_the_victims_later_attacks() -> None:
    # S4: dagger 1 + 1 = 2: Chest wound, -5 to hit; b (perceives at 1 s) strikes a with 60 - 5 = 55
    built = special(
        a(weapons=[{"name": "Dagger, Normal"}]), b(perception=1), rolls=[3, 1, 100], max_seconds=2
    )
    encounter, _ = run(
        built, a=[Attack(target="b", reason="scripted")], b=[Attack(target="a", reason="scripted")]
    )
    assert only_special(encounter).injury is not None
    (blow,) = [e for e in of_kind(encounter, AttackResolved) if e.attacker == "b"]
    assert (blow.hit.modifiers, blow.hit.hit_chance) == ((INJURED,), Decimal(55))
    # the blade's damage plus the chest wound's 5 extra Stamina points (S3)
    first = of_kind(encounter, AttackResolved)[0].damage
    assert first is not None
    assert encounter.state.combatants["b"].damage_taken == first.damage + Decimal(5)


def struck_then_grappling(built: EnergionScenario) -> Encounter:
    """``built`` fought with a striking a and b trying a Hold Down on a."""
    encounter, _ = run(
        built,
        a=[Attack(target="b", reason="scripted")],
        b=[Grapple(procedure="Hold Down", target="a", reason="s")],
    )
    return encounter


def test_a_chest_wound_takes_five_off_the_victims_grappling_procedures_too() -> None:
    # S4, ruling 8: a procedure is an attack: b tries a Hold Down at 60 - 5 = 55 (its roll of 90 misses)
    built = special(
        a(weapons=[{"name": "Dagger, Normal"}]),
        b(perception=1, grapples=["Hold Down"]),
        rolls=[3, 1, 100, 90],
        max_seconds=2,
    )
    encounter = struck_then_grappling(built)
    (grab,) = of_kind(encounter, GrappleResolved)
    assert (grab.modifiers, grab.hit_chance, grab.outcome) == ((INJURED,), Decimal(55), "miss")


def test_a_leg_wound_slows_the_victim_by_half_a_metre_a_second() -> None:
    # S4: dagger 2 + 1 = 3: Leg wound, -3 m/turn = -0.5 m/s: b flees 3 - 0.5 = 2.5 m in its first second
    built = special(a(weapons=[{"name": "Dagger, Normal"}]), b(perception=1), rolls=[3, 2], max_seconds=3)
    encounter, _ = run(
        built, a=[Attack(target="b", reason="scripted")], b=[Flee(target="a", reason="scripted")]
    )
    assert only_special(encounter).damage == "Leg wound"
    step = of_kind(encounter, Moved)[0]
    assert (step.combatant, step.distance) == ("b", Decimal("2.5"))


def test_a_broken_leg_caps_the_victim_at_two_metres_a_turn() -> None:
    # S4: 7 + 2 = 9: Leg broken, at most 2 m/turn = 0.333 m/s (equipment roll 50)
    built = special(a(), b(perception=1), rolls=[3, 7, 50], max_seconds=3)
    encounter, _ = run(
        built, a=[Attack(target="b", reason="scripted")], b=[Flee(target="a", reason="scripted")]
    )
    assert only_special(encounter).damage == "Leg broken"
    step = of_kind(encounter, Moved)[0]
    assert (step.combatant, step.distance) == ("b", Decimal("0.333"))


def test_a_deadly_special_damage_puts_the_target_out_and_ends_the_fight() -> None:
    # S3, S4: level 60 // 5 = 12: chance 3 + 24 = 27 %; roll 3; type 9 + 12 + 2 = 23: Head removed: Dead
    encounter = fight(special(a(), b(), rolls=[3, 9], level_divisor=5))
    event = only_special(encounter)
    assert (event.total, event.dead, event.stamina) == (23, True, Decimal(1000))
    (out,) = of_kind(encounter, CombatantOut)
    assert out.reason.startswith("special damage: Head removed")
    assert of_kind(encounter, EncounterEnded)[0].winner == "ford"


def test_an_unconscious_combatant_does_nothing_until_it_comes_round() -> None:
    # S4: 6 + 2 = 8: Head wound; 50 % roll 50 knocks b out for 1d100 = 1 minute (until 60 s); b carries no
    # equipment (no roll). b perceives at 1 s, but neither acts nor reacts until condition_ended at 60 s; it
    # then strikes at 60 s and 68 s (rolls 100 miss). An idle raider far off keeps the fight going.
    far = fighter("c", "raiders", position=[500, 0], perception=100)
    built = special(a(), b(perception=1), far, rolls=[3, 6, 50, 1, 100, 100], max_seconds=70)
    encounter, _ = run(
        built, a=[Attack(target="b", reason="scripted")], b=[Attack(target="a", reason="scripted")] * 2
    )
    (started,) = of_kind(encounter, ConditionStarted)
    (ended,) = of_kind(encounter, ConditionEnded)
    assert (started.condition, started.until_ms, ended.t) == ("unconscious", 60000, 60000)
    assert [e.t for e in of_kind(encounter, AttackResolved) if e.attacker == "b"] == [60000, 68000]


def test_an_unconsciousness_roll_above_the_chance_leaves_the_victim_awake() -> None:
    # S4: Head wound's 50 %: roll 51 > 50: no condition, no duration roll
    encounter = fight(special(a(), b(), rolls=[3, 6, 51, 50]))
    assert only_special(encounter).damage == "Head wound"
    assert of_kind(encounter, ConditionStarted) == []


# -- S5: robots ----------------------------------------------------------------------------------------


def test_a_robots_brain_casing_damage_stuns_it() -> None:
    # S5: 6 + 2 = 8: Brain casing damage: 50 % stun roll 50: stunned 1d100 = 2 minutes (until 120 s)
    encounter = fight(special(a(), b(kind="robot"), rolls=[3, 6, 50, 2, 50]))
    (started,) = of_kind(encounter, ConditionStarted)
    assert (started.combatant, started.condition, started.until_ms) == ("b", "stunned", 120000)


def test_a_robots_broken_brain_casing_deactivates_it_for_good() -> None:
    # S5: level 60 // 6 = 10: chance 23 %; 8 + 10 + 2 = 20: Brain casing broken: deactivated (no roll);
    # equipment roll 50; b perceives at 1 s but never acts
    built = special(a(), b(kind="robot", perception=1), rolls=[3, 8, 50], level_divisor=6, max_seconds=20)
    encounter, _ = run(
        built, a=[Attack(target="b", reason="scripted")], b=[Attack(target="a", reason="scripted")]
    )
    (started,) = of_kind(encounter, ConditionStarted)
    assert (started.condition, started.until_ms, started.chance_roll) == ("deactivated", None, None)
    assert [e.attacker for e in of_kind(encounter, AttackResolved)] == ["a"]
    assert encounter.state.combatants["b"].conditions == {"deactivated": None}


def test_a_damaged_robot_malfunctions_before_an_attack() -> None:
    # S5: Brain casing damage (stun roll 51 fails; no equipment, no roll): 20 % malfunction; b's malfunction
    # roll 20 <= 20 refuses its attack
    built = special(a(), b(kind="robot", perception=1), rolls=[3, 6, 51, 20], max_seconds=2)
    encounter, _ = run(
        built, a=[Attack(target="b", reason="scripted")], b=[Attack(target="a", reason="scripted")]
    )
    (refused,) = of_kind(encounter, ActionRefused)
    assert (refused.combatant, refused.reason) == ("b", "malfunction: 20 within 20%")


def test_a_damaged_robot_malfunctions_before_a_grappling_procedure() -> None:
    # S5, ruling 8: a procedure is an attack: b's malfunction roll 20 <= 20 loses its Hold Down
    built = special(
        a(), b(kind="robot", perception=1, grapples=["Hold Down"]), rolls=[3, 6, 51, 20], max_seconds=2
    )
    encounter = struck_then_grappling(built)
    (refused,) = of_kind(encounter, ActionRefused)
    assert (refused.combatant, refused.reason) == ("b", "malfunction: 20 within 20%")
    assert not of_kind(encounter, GrappleResolved)


def test_a_robot_whose_arm_joints_are_damaged_tries_no_grappling_procedure() -> None:
    # S5, ruling 8: Arm joints damage (as below): no melee attack, and a procedure is one
    built = special(
        a(),
        b(kind="robot", perception=1, grapples=["Hold Down"]),
        rolls=[3, 2, 50],
        level_divisor=20,
        max_seconds=2,
    )
    encounter = struck_then_grappling(built)
    (refused,) = of_kind(encounter, ActionRefused)
    assert refused.reason == "its damage allows no melee attack"


def test_a_damaged_robot_that_does_not_malfunction_attacks_with_its_penalty() -> None:
    # S5: malfunction roll 21 > 20: b strikes with 60 - 5 (Brain casing damage) = 55
    built = special(a(), b(kind="robot", perception=1), rolls=[3, 6, 51, 21, 100], max_seconds=2)
    encounter, _ = run(
        built, a=[Attack(target="b", reason="scripted")], b=[Attack(target="a", reason="scripted")]
    )
    (blow,) = [e for e in of_kind(encounter, AttackResolved) if e.attacker == "b"]
    assert blow.hit.hit_chance == Decimal(55)


def test_a_robot_whose_arm_joints_are_damaged_makes_no_melee_attack() -> None:
    # S5: level 60 // 20 = 3: chance 9 %; 2 + 3 + 2 = 7: Arm joints damage: no melee (equipment 50)
    built = special(a(), b(kind="robot", perception=1), rolls=[3, 2, 50], level_divisor=20, max_seconds=2)
    encounter, _ = run(
        built, a=[Attack(target="b", reason="scripted")], b=[Attack(target="a", reason="scripted")]
    )
    (refused,) = of_kind(encounter, ActionRefused)
    assert refused.reason == "its damage allows no melee attack"


# -- S3: equipment and weapons -------------------------------------------------------------------------


def test_equipment_goes_last_listed_first_two_units_of_a_kind_held_more_than_once() -> None:
    # S3: 2 + 2 = 4: Arm wound, 1 unit; roll 11 > 10: equipment; the last listed, ration x4, loses 2
    gear: list[TomlValue] = [{"name": "medkit"}, {"name": "ration", "count": 4}]
    encounter = fight(special(a(), b(equipment=gear), rolls=[3, 2, 11]))
    (lost,) = of_kind(encounter, EquipmentLost)
    assert (lost.weapon, lost.items) == (None, (LostItem("ration", 2),))


def test_a_single_piece_costs_one_unit() -> None:
    # S3: the last listed, a medkit held once, loses 1
    gear: list[TomlValue] = [{"name": "rope"}, {"name": "medkit"}]
    (lost,) = of_kind(fight(special(a(), b(equipment=gear), rolls=[3, 2, 50])), EquipmentLost)
    assert lost.items == (LostItem("medkit", 1),)


class Picker:
    """A victim's controller that gives up its rope first and does nothing else."""

    name = "picker"

    def decide(self, view: View) -> Intent | None:
        return None

    def give_up(self, pieces: tuple[tuple[str, int], ...], units: int) -> list[str]:
        return ["rope"]


def test_the_victims_controller_picks_the_equipment_it_loses() -> None:
    # S3: "The victim's player can pick which piece of his equipment has been destroyed": b's controller
    # gives up the rope, though the default would take the ration listed last
    gear: list[TomlValue] = [{"name": "rope"}, {"name": "ration"}]
    battle = EnergionBattle(special(a(), b(equipment=gear), rolls=[3, 2, 50]))
    battle.controllers["b"] = Picker()
    (lost,) = of_kind(battle.run(), EquipmentLost)
    assert lost.items == (LostItem("rope", 1),)


def test_the_tactician_gives_up_what_it_has_most_of() -> None:
    # S3: four rations before the only medkit
    assert Tactician().give_up((("medkit", 1), ("ration", 4)), 1) == ["ration", "medkit"]


def test_an_equipment_roll_of_ten_destroys_the_last_carried_weapon_instead() -> None:
    # S3: roll 10 <= 10: a weapon instead: b's last carried, the dagger
    arms: list[TomlValue] = [{"name": "Sword, Long"}, {"name": "Dagger, Normal"}]
    encounter = fight(special(a(), b(weapons=arms, equipment=[{"name": "rope"}]), rolls=[3, 2, 10]))
    (lost,) = of_kind(encounter, EquipmentLost)
    assert (lost.weapon, lost.items) == ("Dagger, Normal", ())
    assert encounter.state.combatants["b"].special.destroyed_weapons == ["Dagger, Normal"]


# -- S6: computers -------------------------------------------------------------------------------------

PROGRAMS = (
    '{ name = "Computer Security", level = 3, alarms = ["door"] }, { name = "Robot Management", level = 2 }, '
    '{ name = "Analysis", level = 1 }'
)


def computer_scenario(
    rolls: list[int],
    level_divisor: int = 100,
    programs: str = PROGRAMS,
    extra: str = "",
    **fields: TomlValue,
) -> EnergionScenario:
    spec: dict[str, TomlValue] = {
        "id": "c",
        "name": "C",
        "side": "raiders",
        "kind": "computer",
        "damage_points": 30,
    }
    spec |= {"skill": 0, "position": [1, 0], **fields}
    text = scenario_toml(fighter("a", "ford", prepared=True), rolls=rolls, max_seconds=1)
    text = text.replace("seed = 1\n", 'seed = 1\nmodules = ["special_damage"]\n', 1)
    lines = [
        f"{key} = {value!r}" if not isinstance(value, list) else f"{key} = {value}"
        for key, value in spec.items()
    ]
    text += "\n[[combatants]]\n" + "\n".join(lines).replace("'", '"') + f"\nprograms = [{programs}]\n"
    text += f"\n[special_damage]\nlevel_divisor = {level_divisor}\n"
    return decode_scenario(text + extra, "computer.toml")


def test_a_computer_loses_its_lowest_level_program_and_sounds_its_alarms() -> None:
    # S6: 3 + 2 = 5: 5 // 5 = 1 program, the lowest level (Analysis 1); Security is intact: its alarms ring
    encounter = fight(computer_scenario([3, 3]))
    (lost,) = of_kind(encounter, ProgramsDestroyed)
    assert (lost.total, lost.destroyed, lost.alarms, lost.explodes) == (5, ("Analysis",), ("door",), False)
    assert lost.remaining == ("Computer Security", "Robot Management")


def test_a_computer_scored_under_five_loses_nothing_but_its_security_program_rings_its_alarms() -> None:
    # S6: 1 + 2 = 3: 3 // 5 = 0 programs destroyed; "if the computer has a Computer Security program which
    # has not been destroyed, then any alarms it controls are set off": special damage to it rings them
    (lost,) = of_kind(fight(computer_scenario([3, 1])), ProgramsDestroyed)
    assert (lost.destroyed, lost.alarms) == ((), ("door",))


def test_a_computer_whose_security_program_is_destroyed_rings_no_alarm() -> None:
    # S6: 3 + 2 = 5: 5 // 5 = 1 program, the lowest level: here Computer Security (1) itself, so its alarms
    # stay silent
    low = '{ name = "Computer Security", level = 1, alarms = ["door"] }, { name = "Analysis", level = 2 }'
    (lost,) = of_kind(fight(computer_scenario([3, 3], programs=low)), ProgramsDestroyed)
    assert (lost.destroyed, lost.alarms) == (("Computer Security",), ())


def test_a_computer_losing_more_programs_than_it_has_explodes() -> None:
    # S6: level 60 // 6 = 10: 8 + 10 + 2 = 20: 20 // 5 = 4 > 3 programs: explodes, 6d10 = 6 x 5 = 30
    # within 5 m; a (AG 100: RS 50) at 1 m: rs-check 50 <= 50 halves: 15
    encounter = fight(computer_scenario([3, 8, 5, 5, 5, 5, 5, 5, 50], level_divisor=6))
    (lost,) = of_kind(encounter, ProgramsDestroyed)
    assert lost.explodes
    (blast,) = of_kind(encounter, Exploded)
    (hit,) = blast.hits
    assert (blast.roll.total, blast.radius_m, hit.combatant, hit.rs_target, hit.halved, hit.damage) == (
        30,
        5,
        "a",
        50,
        True,
        Decimal(15),
    )
    assert of_kind(encounter, CombatantOut)[-1].reason.startswith("exploded")


def test_an_explosion_not_dodged_does_full_damage() -> None:
    # S6: rs-check 51 > 50: the full 30
    encounter = fight(computer_scenario([3, 8, 5, 5, 5, 5, 5, 5, 51], level_divisor=6))
    (hit,) = of_kind(encounter, Exploded)[0].hits
    assert (hit.halved, hit.damage) == (False, Decimal(30))


# -- S7: Vrusk arms, electrical weapons; S10: rulings --------------------------------------------------


def test_a_vrusks_arm_wound_rolls_for_the_side() -> None:
    # S7: 2 + 2 = 4: Arm wound; b is a Vrusk: vrusk-arm 1d10 = 3 (1-5 left); equipment roll 50
    event = only_special(fight(special(a(), b(race="vrusk"), rolls=[3, 2, 3, 50])))
    assert event.injury is not None
    assert event.injury.name == "Arm wound (left arms)"


def test_an_electrical_weapons_broken_limb_heals_as_nerve_damage() -> None:
    # S7: level 60 // 20 = 3 (chance 9 %): 7 + 3 + 2 = 12: Arm broken -> nerve damage (equipment 50)
    built = special(
        a(weapons=[{"name": "Sword, Long", "electrical": True}]), b(), rolls=[3, 7, 50], level_divisor=20
    )
    event = only_special(fight(built))
    assert event.injury is not None
    assert (event.damage, event.injury.heals_as) == ("Arm broken", "nerve damage")


def test_the_same_blow_without_electricity_heals_as_a_broken_limb() -> None:
    event = only_special(fight(special(a(), b(), rolls=[3, 7, 50], level_divisor=20)))
    assert event.injury is not None
    assert event.injury.heals_as == "broken limb"


RULING = '\n[[rulings]]\ntarget = "b"\nnth = 1\nreplace_with = "Leg wound"\nreason = "a glancing blow"\n'


def test_a_ruling_replaces_the_nth_special_damage_and_is_recorded() -> None:
    # S10: rolled 5 + 2 = 7: Arm wound (+9); ruled a Leg wound (+5, no equipment: no equipment roll)
    encounter = fight(special(a(), b(), rolls=[3, 5], extra=RULING))
    (ruling,) = of_kind(encounter, RefereeRuling)
    assert (ruling.rolled, ruling.ruled, ruling.stamina_rolled, ruling.stamina_ruled) == (
        "Arm wound",
        "Leg wound",
        Decimal(9),
        Decimal(5),
    )
    assert (only_special(encounter).damage, ruling.reason) == ("Leg wound", "a glancing blow")


def test_a_ruling_for_the_second_special_damage_leaves_the_first_alone() -> None:
    # S10: nth = 2: the first (5 + 2 = 7; no equipment, no roll) stands; the second (AG 130: at 5 s) is
    # ruled
    extra = RULING.replace("nth = 1", "nth = 2")
    built = special(a(stats={"AG": 130}), b(), rolls=[3, 5, 3, 5], max_seconds=6, extra=extra)
    encounter = fight(built)
    first, second = of_kind(encounter, SpecialDamage)
    assert (first.damage, second.damage) == ("Arm wound", "Leg wound")
    assert [r.nth for r in of_kind(encounter, RefereeRuling)] == [2]


# -- S10: rulings never used ---------------------------------------------------------------------------


def unused(built: EnergionScenario) -> str | None:
    """What the module says of the rulings on special damage the fight never used (S10)."""
    battle = EnergionBattle(built)
    encounter = battle.run()
    assert battle.special is not None
    return battle.special.unused(encounter.state)


NEVER_USED = "1 of the rulings on special damage (S10) was never used: "


def test_a_ruling_that_altered_its_special_damage_is_not_unused() -> None:
    # S10: b's first special damage (5 + 2 = 7) is ruled a Leg wound
    assert unused(special(a(), b(), rolls=[3, 5], extra=RULING)) is None


def test_a_ruling_on_a_target_that_never_took_special_damage_is_unused() -> None:
    # S10: roll 4 hits but is over the 3 % chance: b takes no special damage for the ruling to alter
    said = unused(special(a(), b(), rolls=[4], extra=RULING))
    assert said == NEVER_USED + "$.rulings[0] (b never took special damage)"


def test_a_ruling_on_a_later_special_damage_than_the_target_took_is_unused() -> None:
    # S10: nth = 2, and b's only special damage is its first (5 + 2 = 7, within the one second)
    said = unused(special(a(), b(), rolls=[3, 5], extra=RULING.replace("nth = 1", "nth = 2")))
    assert said == NEVER_USED + "$.rulings[0] (nth = 2, but b took special damage only once)"


def test_a_second_ruling_on_the_same_special_damage_is_unused() -> None:
    # S10: the first ruling on b's first special damage alters it; the second never does
    second = RULING.replace('replace_with = "Leg wound"', "stamina = 1")
    said = unused(special(a(), b(), rolls=[3, 5], extra=RULING + second))
    assert said == NEVER_USED + "$.rulings[1] ($.rulings[0] ruled on the same special damage)"


def test_a_ruling_on_a_computer_is_unused() -> None:
    # S6, S10: a computer's special damage (3 + 2 = 5) destroys programs and reads no table to rule on
    ruling = '\n[[rulings]]\ntarget = "c"\nstamina = 0\nreason = "the casing held"\n'
    said = unused(computer_scenario([3, 3], extra=ruling))
    assert said == NEVER_USED + (
        "$.rulings[0] (c is a computer: its special damage destroys programs and reads no table)"
    )


def test_more_than_five_unused_rulings_are_counted_and_the_first_five_named() -> None:
    # S10: rulings on b's 2nd to 7th special damages; b takes one
    extra = "".join(RULING.replace("nth = 1", f"nth = {nth}") for nth in range(2, 8))
    said = unused(special(a(), b(), rolls=[3, 5], extra=extra))
    assert said is not None
    assert said.startswith(
        "6 of the rulings on special damage (S10) were never used: $.rulings[0] (nth = 2, "
    )
    assert said.endswith("$.rulings[4] (nth = 6, but b took special damage only once) and 1 more")


def test_the_ruling_on_a_special_damage_is_the_first_that_names_it() -> None:
    # S10: of two rulings on b's first special damage, the first is the one that alters it
    built = special(a(), b(), rolls=[3, 5], extra=RULING.replace("nth = 1", "nth = 2") + RULING + RULING)
    assert module.ruling_on(built.rulings, "b", 1) == 1
