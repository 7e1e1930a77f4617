"""Shots at covered and moving targets through real Battles (rules E12, E16, E19; rulings 23-25, 47, 49).

Unless a test says otherwise the shooter ``a`` has skill 65, CO 130 and a light crossbow (type 13, SP 8,
ranges 8/60/120/180/210, DMG 15): MechBonus = 30/2 + 0/4 = 15 -> hit chance 65 + 15 = 80; 1H adj
0/10 + 30/30 = 1 -> gap 8 - 1 = 7 s; D = 15. The target ``b`` (0.75 m2, 100 % of the standard size) wears
cloth: armor value 2 against type 13. Both have prepared reactions unless a test says otherwise.
"""

from __future__ import annotations

from decimal import Decimal

from affray.events.energion.kinds import AttackResolved, Modifier, RangedDerivation
from affray.events.shared import ActionRefused
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import EnergionScenario
from affray.kernel.encounter import Encounter
from affray.npc.energion.intents import Aim, Approach, Attack, Flee, Intent, Wait
from tests.handlers.energion import Script, TomlValue, fighter, of_kind, scenario
from tests.strategies import tell

CROSSBOW: list[TomlValue] = [{"name": "Crossbow, Light", "ammunition": 10}]
SHOOTER: dict[str, TomlValue] = {"skill": 65, "stats": {"CO": 130}, "weapons": CROSSBOW, "prepared": True}
GAP_S = 7


def run(built: EnergionScenario, **scripts: Script) -> Encounter:
    """Run ``built`` with each named combatant following its script and the others standing idle."""
    battle = EnergionBattle(built)
    battle.controllers = {key: scripts.get(key, Script()) for key in battle.controllers}
    return battle.run()


def only_shot(encounter: Encounter) -> tuple[AttackResolved, RangedDerivation]:
    (shot,) = [e for e in of_kind(encounter, AttackResolved) if e.attacker == "a"]
    assert shot.hit.ranged is not None
    return shot, shot.hit.ranged


def aimed_shot(
    target: dict[str, TomlValue], rolls: list[int], options: dict[str, TomlValue] | None = None
) -> Encounter:
    """``a`` aims the 7 s gap at ``b`` and shoots once; ``b`` stands idle."""
    built = scenario(
        fighter("a", "ford", **SHOOTER),
        fighter("b", "raiders", prepared=True, **target),
        rolls=rolls,
        max_seconds=10,
        options=options,
    )
    return run(built, a=Script(Aim(target="b", seconds=GAP_S, reason="r"), Attack(target="b", reason="r")))


# --- E16 random cover ----------------------------------------------------------------------------------


def test_random_cover_shows_only_the_presented_parts_share_of_the_area() -> None:
    # rule E16 (ruling 23): presented roll 20 -> chest (11-30: 20 %) -> 0.75 * 20/100 = 0.15 m2; E19 cover
    # advantage skill 60/4 = 15 % -> 0.15 * 0.85 = 0.1275 m2 -> 0.1275/0.5 = 25.5 %; 8 m is PTB (x1.1,
    # size factor 1): 80 * 1.1 = 88, penalty (100 - 25.5) * 1 = 74.5 -> 88 - 74.5 = 13.5
    encounter = aimed_shot({"position": [0, 8], "random_cover": True}, [20, 99])
    _, shot = only_shot(encounter)
    assert shot.presented == "chest"
    assert shot.presented_roll is not None
    assert (shot.presented_roll.total, shot.presented_roll.roller) == (20, "a")
    assert (shot.visible_area, shot.size_percentage, shot.size_penalty) == (
        Decimal("0.1275"),
        Decimal("25.5"),
        Decimal("74.5"),
    )


def test_random_cover_lowers_the_hit_chance_by_the_size_penalty() -> None:
    # rule E16/E18: as above, 88 - 74.5 = 13.5; roll 99 -> quality 13.5 - 2 - 99 = -87.5: a miss
    encounter = aimed_shot({"position": [0, 8], "random_cover": True}, [20, 99])
    event, _ = only_shot(encounter)
    assert (event.hit.hit_chance, event.hit.quality, event.outcome) == (
        Decimal("13.5"),
        Decimal("-87.5"),
        "miss",
    )


def test_random_cover_rolls_the_presented_part_at_every_shot() -> None:
    # rule E16: two shots 7 s apart roll 1d100 each: 5 -> head (1-10), then 90 -> left leg (86-100)
    built = scenario(
        fighter("a", "ford", **SHOOTER),
        fighter("b", "raiders", prepared=True, position=[0, 8], random_cover=True),
        rolls=[5, 99, 90, 99],
        max_seconds=20,
    )
    encounter = run(
        built,
        a=Script(
            Aim(target="b", seconds=GAP_S, reason="r"),
            Attack(target="b", reason="r"),
            Attack(target="b", reason="r"),
        ),
    )
    shots = [e.hit.ranged for e in of_kind(encounter, AttackResolved)]
    assert [s.presented for s in shots if s is not None] == ["head", "left leg"]


def test_random_cover_without_hit_locations_rolls_no_location() -> None:
    # rule E16 (ruling 23): the presented part only sizes the target unless hit locations are on
    encounter = aimed_shot({"position": [0, 8], "random_cover": True}, [20, 1])
    event, _ = only_shot(encounter)
    assert (event.hit.location, event.hit.location_roll) == (None, None)


def test_random_cover_with_hit_locations_lands_the_shot_on_the_presented_part() -> None:
    # rules E16/E20 (ruling 23): presented 20 -> chest; no separate location roll (rolls: presented, hit).
    # 13.5 as above; roll 1 -> quality 13.5 - 2 - 1 = 10.5 -> x0.2 of 15 * 1.1 = 16.5 -> 3.3 on the chest
    encounter = aimed_shot(
        {"position": [0, 8], "random_cover": True}, [20, 1], options={"hit_locations": True}
    )
    event, _ = only_shot(encounter)
    assert (event.hit.location, event.hit.location_roll, event.hit.location_armored) == ("chest", None, True)
    assert event.damage is not None
    assert event.damage.damage == Decimal("3.3")
    assert encounter.state.combatants["b"].location_damage == {"chest": Decimal("3.3")}


def test_random_cover_is_narrated_with_the_part_presented() -> None:
    encounter = aimed_shot({"position": [0, 8], "random_cover": True}, [20, 99])
    (line,) = [text for text in tell(encounter.log) if "shoots at" in text]
    assert "0.128 m2 visible, random cover presents the chest (20 @a/presented#1, manual)" in line


def test_random_cover_is_kept_while_moving() -> None:
    # rule E16 (ruling 23): stable cover is lost on moving, random cover is not. b (reaction 0.5 s) moves
    # 3 m from (0, 11) toward a, ending at 1.5 s at (0, 8); shot at 7 s -> b at rest; presented 20 -> chest
    built = scenario(
        fighter("a", "ford", **SHOOTER),
        fighter("b", "raiders", reaction=0.5, position=[0, 11], random_cover=True, weapons=CROSSBOW),
        rolls=[20, 99],
        max_seconds=10,
    )
    encounter = run(
        built,
        a=Script(Aim(target="b", seconds=GAP_S, reason="r"), Attack(target="b", reason="r")),
        b=Script(Approach(target="a", reason="r")),
    )
    _, shot = only_shot(encounter)
    assert (shot.distance, shot.presented, shot.visible_area) == (Decimal(8), "chest", Decimal("0.1275"))


# --- E16 firing from full cover ------------------------------------------------------------------------

HIDDEN: dict[str, TomlValue] = {"position": [0, 20], "cover": 100, "skill": 40, "weapons": CROSSBOW}


def hidden_duel(*a_intents: Intent, firing_cover: int = 50) -> Encounter:
    """``b`` in full cover aims 7 s and shoots at ``a`` at 7 s (roll 99: a miss); ``a`` reacts at 0.5 s."""
    built = scenario(
        fighter("a", "ford", **{**SHOOTER, "prepared": False, "reaction": 0.5}),
        fighter("b", "raiders", prepared=True, firing_cover=firing_cover, **HIDDEN),
        rolls=[99, 1, 99],
        max_seconds=10,
    )
    b = Script(Aim(target="a", seconds=GAP_S, reason="r"), Attack(target="a", reason="r"))
    return run(built, a=Script(*a_intents), b=b)


def test_no_shot_at_a_target_wholly_behind_cover() -> None:
    # rule E16 (ruling 23): cover 100 -> 0 m2 visible; a tries at 0.5 s, before b has shot
    encounter = hidden_duel(Attack(target="b", reason="r"))
    (refused,) = of_kind(encounter, ActionRefused)
    assert (refused.t, refused.combatant, refused.reason) == (500, "a", "b is wholly behind cover")


def test_a_target_in_full_cover_is_exposed_in_the_second_of_its_own_shot() -> None:
    # rule E16: b shoots at 7 s; a (aiming from 0.5 s) shoots 0.5 s later: b's firing cover 50
    # -> 0.75 * 50/100 = 0.375 m2; advantage 40/4 = 10 % -> 0.3375 m2 -> 67.5 %; 20 m is SHT (x1, size
    # factor 2): 80 - (100 - 67.5) * 2 = 80 - 65 = 15; ruling 58: b was seen from 7 s only, 0.5 s of aim
    # against the 7 s gap (E17): unaimed, 15 - 100 = -85
    encounter = hidden_duel(Aim(target="b", seconds=GAP_S, reason="r"), Attack(target="b", reason="r"))
    event, shot = only_shot(encounter)
    assert (event.t, shot.firing_from_cover, shot.cover) == (7500, True, 50)
    assert (shot.visible_area, shot.size_penalty, event.hit.hit_chance) == (
        Decimal("0.3375"),
        Decimal(65),
        Decimal(-85),
    )


def test_aim_at_a_target_in_full_cover_counts_from_when_it_shows_itself() -> None:
    # ruling 58 (E16, E17): a aimed from 0.5 s at b, hidden until its shot at 7 s: the aim counts from 7 s
    encounter = hidden_duel(Aim(target="b", seconds=GAP_S, reason="r"), Attack(target="b", reason="r"))
    _, shot = only_shot(encounter)
    assert (shot.aim_restarted_ms, shot.aim_ms, shot.unaimed_penalty) == (7000, 500, 100)


def test_a_shooter_in_full_cover_shoots_unaimed() -> None:
    # ruling 58: b aimed 7 s from full cover, unseen: the gap was not "spent visible", so no aim counts
    encounter = hidden_duel(Attack(target="b", reason="r"))
    (shot,) = [e for e in of_kind(encounter, AttackResolved) if e.attacker == "b"]
    assert shot.hit.ranged is not None
    assert (shot.hit.ranged.aim_ms, shot.hit.ranged.unaimed_penalty) == (0, 100)


def test_firing_cover_is_the_combatants_own_setting() -> None:
    # rule E16: firing_cover 80 -> 0.75 * 20/100 = 0.15 m2 -> 0.15 * 0.9 = 0.135 m2 -> 27 %
    encounter = hidden_duel(
        Aim(target="b", seconds=GAP_S, reason="r"), Attack(target="b", reason="r"), firing_cover=80
    )
    _, shot = only_shot(encounter)
    assert (shot.cover, shot.visible_area, shot.size_percentage) == (80, Decimal("0.135"), Decimal(27))


def test_a_target_in_full_cover_is_hidden_again_a_second_after_its_shot() -> None:
    # rule E16: b shot at 7 s; a's shot at 8.5 s is 1.5 s later -> b is wholly behind cover again
    encounter = hidden_duel(Aim(target="b", seconds=8, reason="r"), Attack(target="b", reason="r"))
    refused = [e for e in of_kind(encounter, ActionRefused) if e.combatant == "a"]
    assert [(e.t, e.reason) for e in refused] == [(8500, "b is wholly behind cover")]


def test_shot_at_a_target_firing_from_cover_is_narrated() -> None:
    encounter = hidden_duel(Aim(target="b", seconds=GAP_S, reason="r"), Attack(target="b", reason="r"))
    (line,) = [text for text in tell(encounter.log) if text.split()[3:5] == ["a", "shoots"]]
    assert "(0.338 m2 visible, 50% covered while it shoots from full cover)" in line


# --- E19 maneuvering -----------------------------------------------------------------------------------


def fleeing_target(ag: int, *, flee: bool = True) -> Encounter:
    """``b`` (reaction 0.5 s) runs 3 m a second away from ``a`` from (0, 2), each run ending at x.5 s;
    ``a`` aims the 7 s gap and shoots at 7 s, when b's last run (ending at 6.5 s, at (0, 20)) is 0.5 s old."""
    runs: list[Intent] = [
        Flee(target="a", reason="r") if flee else Approach(target="a", reason="r") for _ in range(6)
    ]
    start = [0, 2] if flee else [0, 38]
    built = scenario(
        fighter("a", "ford", **SHOOTER),
        fighter("b", "raiders", reaction=0.5, position=start, stats={"AG": ag}, weapons=CROSSBOW),
        rolls=[99],
        max_seconds=8,
    )
    return run(
        built,
        a=Script(Aim(target="b", seconds=GAP_S, reason="r"), Attack(target="b", reason="r")),
        b=Script(*runs),
    )


def test_a_fleeing_target_is_maneuvering_and_multiplies_the_speed_penalty_by_agb_over_8() -> None:
    # rule E19 (ruling 25): 3 m/s relative; AG 124 -> AGB 24 -> 24/8 = x3 -> 9 points; 20 m is SHT (x1);
    # E17: each flight ruins the aim (the last at 6.5 s): unaimed, -100 -> 80 - 9 - 100 = -29
    event, shot = only_shot(fleeing_target(124))
    assert (shot.distance, shot.relative_speed, shot.maneuvering) == (Decimal(20), Decimal(3), True)
    assert (shot.speed_penalty, shot.aim_restarted_ms, event.hit.hit_chance) == (
        Decimal(9),
        6500,
        Decimal(-29),
    )


def test_a_maneuvering_target_with_a_low_agb_costs_at_least_the_plain_penalty() -> None:
    # rule E19 (ruling 25): AG 104 -> AGB 4 -> 4/8 = 0.5, at least x1 -> 3 * 1 = 3; unaimed (E17, the
    # flight): 80 - 3 - 100 = -23
    event, shot = only_shot(fleeing_target(104))
    assert (shot.maneuvering, shot.speed_penalty, event.hit.hit_chance) == (True, Decimal(3), Decimal(-23))


def test_a_target_approaching_is_not_maneuvering() -> None:
    # rule E19: b approaches 3 m/s from (0, 38), ending at (0, 20) at 6.5 s: AGB 24 does not count -> 3.
    # E17: it set off at 1.5 s, after a began to aim, and then came on steadily: the aim counts from 1.5 s,
    # 5.5 s at 7 s, under the 7 s gap: unaimed -> 80 - 3 - 100 = -23
    event, shot = only_shot(fleeing_target(124, flee=False))
    assert (shot.distance, shot.maneuvering, shot.speed_penalty) == (Decimal(20), False, Decimal(3))
    assert (shot.aim_restarted_ms, event.hit.hit_chance) == (1500, Decimal(-23))


def test_a_flight_more_than_a_second_old_is_no_longer_maneuvering() -> None:
    # rule E19 (ruling 25): b runs once, ending at 1.5 s at (0, 5); a shoots at 7 s: at rest, no penalty
    built = scenario(
        fighter("a", "ford", **SHOOTER),
        fighter("b", "raiders", reaction=0.5, position=[0, 2], stats={"AG": 124}, weapons=CROSSBOW),
        rolls=[99],
        max_seconds=8,
    )
    encounter = run(
        built,
        a=Script(Aim(target="b", seconds=GAP_S, reason="r"), Attack(target="b", reason="r")),
        b=Script(Flee(target="a", reason="r")),
    )
    _, shot = only_shot(encounter)
    assert (shot.maneuvering, shot.relative_speed, shot.speed_penalty) == (False, Decimal(0), Decimal(0))


def test_a_shot_at_a_maneuvering_target_is_narrated() -> None:
    (line,) = [text for text in tell(fleeing_target(124).log) if "shoots at" in text]
    assert "- speed 9 (3 m/s, maneuvering)" in line


# --- E19 acrobats' dodge -------------------------------------------------------------------------------

ACROBAT: dict[str, TomlValue] = {"position": [0, 8], "acrobatics_level": 5, "stats": {"AG": 120}}


def test_an_acrobat_dodges_a_shot() -> None:
    # rule E19 (acrobatics, as E13's dodge): AGB 20 -> 20/4 + 5 = 10 %; PTB 88 - 2 - roll 1 = 85 would land;
    # dodge roll 10 <= 10 -> dodged
    event, _ = only_shot(aimed_shot(ACROBAT, [1, 10]))
    assert event.parry is not None
    assert (event.parry.device, event.parry.chance, event.parry.gap_ms) == ("dodge", Decimal(10), 1000)
    assert event.outcome == "parried"


def test_an_acrobats_dodge_fails_above_its_chance() -> None:
    # rule E19: dodge 10 %, roll 11 -> the shot lands: quality 85 -> x0.9 of 16.5 = 14.85
    event, _ = only_shot(aimed_shot(ACROBAT, [1, 11]))
    assert event.parry is not None
    assert (event.parry.parried, event.outcome) == (False, "hit")
    assert event.damage is not None
    assert event.damage.damage == Decimal("14.85")


def test_an_acrobat_dodges_at_most_once_a_second() -> None:
    # rule E19 (as E13, once a second): a and c strike b with daggers at 0 s (rolls 1: both would land);
    # b dodges a's blow (roll 10 <= 10 %); c's blow in the same second gets no dodge roll
    built = scenario(
        fighter("a", "ford", prepared=True, weapons=[{"name": "Dagger, Parrying"}]),
        fighter("c", "ford", prepared=True, position=[1, 1], weapons=[{"name": "Dagger, Parrying"}]),
        fighter("b", "raiders", prepared=True, position=[0, 1], acrobatics_level=5, stats={"AG": 120}),
        rolls=[1, 10, 1],
        max_seconds=3,
    )
    encounter = run(built, a=Script(Attack(target="b", reason="r")), c=Script(Attack(target="b", reason="r")))
    first, second = of_kind(encounter, AttackResolved)
    assert first.parry is not None
    assert (first.parry.roll.total, first.outcome) == (10, "parried")
    assert (second.t, second.parry, second.outcome) == (0, None, "hit")


# --- E12 weapon proficiency (ruling 49) ----------------------------------------------------------------


def proficient_blow(proficiency: int, rolls: list[int]) -> Encounter:
    built = scenario(
        fighter("a", "ford", prepared=True, weapons=[{"name": "Sword, Long", "proficiency": proficiency}]),
        fighter("b", "raiders", prepared=True, position=[1, 0]),
        rolls=rolls,
        max_seconds=2,
    )
    return run(built, a=Script(Attack(target="b", reason="r")))


def test_weapon_proficiency_adds_to_the_hit_chance() -> None:
    # rule E12 (ruling 49): skill 60 + proficiency 25 + melee bonus 0 = 85; Cloth vs type 2 = 1;
    # roll 83 -> quality 85 - 1 - 83 = 1 -> a hit (without the plus: 60 - 1 - 83 = -24, a miss)
    (event,) = of_kind(proficient_blow(25, [83]), AttackResolved)
    assert (event.hit.modifiers, event.hit.hit_chance, event.hit.quality, event.outcome) == (
        (Modifier(name="proficiency", value=Decimal(25), rule="E12"),),
        Decimal(85),
        Decimal(1),
        "hit",
    )


def test_the_proficiency_plus_is_narrated_beside_the_skill() -> None:
    lines = [text for text in tell(proficient_blow(25, [83]).log) if "a attacks b" in text]
    assert "85% (skill 60 melee +0, proficiency +25)" in lines[0]


def test_no_proficiency_leaves_the_hit_chance_at_the_skill() -> None:
    # rule E12: proficiency 0 -> 60; roll 83 -> 60 - 1 - 83 = -24: a miss
    (event,) = of_kind(proficient_blow(0, [83]), AttackResolved)
    assert (event.hit.modifiers, event.hit.hit_chance, event.outcome) == ((), Decimal(60), "miss")


# --- E5 ruling 47: a weapon that attacked cannot parry until its speed has run ----------------------


def weapon_parry_duel(b_waits: int, rolls: list[int]) -> Encounter:
    """``a`` (Dagger, Parrying: SP 4 -> gap 4 s, Parry 20) strikes at 0 s; ``b`` strikes back later."""
    built = scenario(
        fighter("a", "ford", prepared=True, weapons=[{"name": "Dagger, Parrying"}]),
        fighter("b", "raiders", prepared=True, position=[1, 0]),
        rolls=rolls,
        max_seconds=b_waits + 2,
    )
    return run(
        built,
        a=Script(Attack(target="b", reason="r")),
        b=Script(Wait(seconds=b_waits, reason="r"), Attack(target="a", reason="r")),
    )


def test_a_weapon_that_attacked_cannot_parry_within_its_speed() -> None:
    # rule E5 (ruling 47): a's dagger struck at 0 s (roll 99: a miss); b's blow at 3 s (< 4 s): no parry
    # roll. Cloth vs type 2 = 1; roll 10 -> 60 - 1 - 10 = 49 -> x0.5 of 18 = 9
    encounter = weapon_parry_duel(3, [99, 10])
    _, blow = of_kind(encounter, AttackResolved)
    assert encounter.state.combatants["a"].last_parry_ms == {"weapon:Dagger, Parrying": 0}
    assert (blow.t, blow.parry, blow.outcome) == (3000, None, "hit")


def test_a_weapon_that_attacked_parries_again_once_its_speed_has_run() -> None:
    # rule E5 (ruling 47): b's blow at 4 s, the dagger's 4 s gap has run: parry 0 + 20 = 20, roll 5 -> parried
    encounter = weapon_parry_duel(4, [99, 10, 5])
    _, blow = of_kind(encounter, AttackResolved)
    assert blow.parry is not None
    assert (blow.t, blow.parry.device, blow.parry.chance, blow.outcome) == (
        4000,
        "weapon:Dagger, Parrying",
        Decimal(20),
        "parried",
    )
