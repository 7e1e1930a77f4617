"""Attacks: reach, percent to hit by procedure, where hits land, grenades, damage to body parts (rules F1,
F5, F8-F12). Red has surprise (rolls 1 and 99), the order is rolled (10 and 50), then the attack's rolls."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from affray.errors import TableError
from affray.events.fivestep.kinds import (
    AlertnessRaised,
    DamageResolved,
    GrenadeThrown,
    PoisonResolved,
    ToHitResolved,
)
from affray.events.shared import ActionRefused, CombatantOut
from affray.handlers.fivestep.battle import FivestepBattle
from affray.npc.fivestep.controllers import Advance, Strike
from affray.rules.fivestep.damage import description
from affray.rules.fivestep.damage_tables import load_table
from tests.handlers.fivestep import (
    BODY,
    EXAMPLES,
    GRENADE,
    RIFLE,
    TABLES,
    Scripted,
    character,
    of_kind,
    run,
    scenario,
)

KNIFE = {
    "name": "Knife",
    "combat": "hand_to_hand",
    "difficulty": 20,
    "damage": "1",
    "wep_mod": 2,
    "damage_type": "blade",
    "action": "punch",
}
FIRST = [1, 99, 10, 50]
"""Surprise to red, then the order: red first."""


def _attack(*rolls: int, red: dict[str, Any] | None = None, blue_at: float = 2, **setup: Any) -> list[Any]:
    """Red strikes blue once (its first weapon); the log."""
    built = scenario(
        character("red", "red", **(red or {})),
        character("blue", "blue", position=[blue_at, 0]),
        rolls=[*FIRST, *rolls],
        max_seconds=5,
        **setup,
    )
    script = Scripted([Strike(target="blue", arm=0, cost=8, reason="test")])
    return run(built, red=script, blue=Scripted()).log


def test_hand_to_hand_beyond_three_metres_fails_without_a_roll() -> None:
    # rule F1: fisticuffs "cannot be used at over three meters": 3.5 m is out of reach, and nothing is rolled
    (hit,) = of_kind(_attack(blue_at=3.5), ToHitResolved)
    assert (hit.outcome, hit.roll, hit.range_m) == ("out_of_reach", None, Decimal("3.5"))


def test_procedure_1_hits_under_brawlmanship() -> None:
    # rule F8 (procedure 1): BRAWL = (60 + ATTACK DIF 20) / 2 = 40; 39 is under it: a hit, on the part aimed
    # at (the target's first vital part, the head); the Fist's DAMAGE DIE ROLL "1" rolls 1d10 = 7
    log = _attack(39, 7)
    (hit,) = of_kind(log, ToHitResolved)
    assert (hit.skill_name, hit.skill, hit.chance, hit.outcome, hit.part) == ("BRAWL", 40, 40, "hit", "head")
    (damage,) = of_kind(log, DamageResolved)
    assert (damage.part, damage.points, damage.part_taken) == ("head", 7, 7)


def test_procedure_1_misses_on_a_roll_equal_to_the_skill() -> None:
    # rule F8 (ruling 24): "under" is strictly under: 40 against BRAWL 40 misses
    log = _attack(40)
    assert of_kind(log, ToHitResolved)[0].outcome == "miss"
    assert not of_kind(log, DamageResolved)


def test_procedure_2_reads_table_3_1_for_marksmanship_and_range() -> None:
    # rule F8 (procedure 2): MARKS = (AIM 60 + WEP DIF 40) / 2 = 50, in the column up to 60; at 2 m (the row
    # up to 3 m) the example Table 3-1 gives 65; 64 hits. Damage "2" is 2d10: 3 + 4 = 7
    log = _attack(64, 3, 4, red={"weapons": [RIFLE]}, procedures={"to_hit": 2})
    (hit,) = of_kind(log, ToHitResolved)
    assert (hit.skill_name, hit.skill, hit.percent_to_hit, hit.outcome) == ("MARKS", 50, 65, "hit")
    assert of_kind(log, DamageResolved)[0].points == 7


def _procedure_3(*rolls: int, **setup: Any) -> list[Any]:
    return _attack(
        *rolls,
        red={"weapons": [RIFLE]},
        procedures={"to_hit": 3, **setup.pop("procedures", {})},
        adversity={"always": [{"table": "3-7.0", "condition": "light rain"}]},
        **setup,
    )


def test_procedure_3_more_than_20_under_is_a_direct_hit() -> None:
    # rule F8 (procedure 3): Percent to Hit 65 (Table 3-1) - Percent Against 5 (Table 3-2: adversity
    # light rain 3 reads the column up to 5, row up to 10 m) = 60; 39 is 21 under: direct, where aimed
    (hit,) = of_kind(_procedure_3(39, 1, 1), ToHitResolved)
    assert (hit.modifier_sum, hit.percent_against, hit.chance, hit.under) == (3, 5, 60, 21)
    assert (hit.outcome, hit.part, hit.part_roll) == ("direct", "head", None)


def test_procedure_3_twenty_or_less_under_is_a_random_hit_on_table_3_3_4() -> None:
    # rule F8 (procedure 3): 40 is 20 under 60: a random hit; 1d100 = 15 is the chest on Table 3-3.4
    (hit,) = of_kind(_procedure_3(40, 15, 1, 1), ToHitResolved)
    assert (hit.outcome, hit.part) == ("random", "chest")
    assert hit.part_roll is not None
    assert hit.part_roll.total == 15


def test_damage_procedure_3_reads_wep_mod_against_range_on_table_3_3() -> None:
    # rule F10 (procedure 3): WEP MOD 4 at 2 m, the band up to 3 m of the example Table 3-3: 30 points; the
    # head (10 points) has no function left and red's shot puts blue out
    log = _procedure_3(39, procedures={"damage": 3})
    (damage,) = of_kind(log, DamageResolved)
    assert damage.wep_mod is not None
    assert (damage.procedure, damage.wep_mod.band_bound_m, damage.points) == (3, 3, 30)
    assert (damage.functional, damage.destroyed) == (False, False)
    assert of_kind(log, CombatantOut)[0].reason == "head without function (30 of 10 points)"


def test_a_grazing_shot_scales_the_points_by_how_far_under_the_roll_was() -> None:
    # rule F10: 30 points x %UNDER 21 / 60 = 10.5 -> 11 (halves up)
    log = _procedure_3(39, procedures={"damage": 3}, options={"grazing": True})
    (damage,) = of_kind(log, DamageResolved)
    assert damage.grazing is not None
    assert (damage.grazing.points_before, damage.grazing.percent_under, damage.points) == (30, 21, 11)


def test_a_fractional_damage_die_roll_multiplies_its_die() -> None:
    # rule F10 (procedure 2): "1/2+1" rolls 1d10 = 7, x 1/2 = 3.5 -> 4, + 1 = 5
    fist = {"name": "Fist", "combat": "hand_to_hand", "difficulty": 20, "damage": "1/2+1", "action": "punch"}
    (damage,) = of_kind(_attack(39, 7, red={"weapons": [fist]}), DamageResolved)
    assert damage.die_roll is not None
    assert (damage.die_roll.fraction_points, damage.die_roll.bonus, damage.points) == (4, 1, 5)


def test_damage_percentage_and_category_of_the_part() -> None:
    # rule F11: 7 of the head's 10 points is 70 %, category 14 (66-70); its 1 structure point (the first
    # 10 %) is lost first, then 6 of its 9 points of function: 3 are left
    (damage,) = of_kind(_attack(39, 7), DamageResolved)
    assert (damage.percentage, damage.category) == (70, 14)
    assert (damage.structure_lost, damage.function_left, damage.functional) == (1, 3, True)


def test_the_description_is_read_from_the_weapon_damage_types_table() -> None:
    # rule F11: a "blade" weapon reads the example Table 3-8 (damage type blade) at category 14
    (damage,) = of_kind(_attack(39, 7, red={"weapons": [KNIFE]}), DamageResolved)
    table = load_table(EXAMPLES / "tables/fivestep/3-8.toml")
    assert damage.description == description(table, 14).text  # type: ignore[arg-type]


def _organ_tables() -> dict[str, str]:
    return {**TABLES, "3-3.1": "tables/fivestep/3-3.1.toml", "3-15.1": "tables/fivestep/3-15.1.toml"}


def test_organ_damage_is_the_tissue_percentage_times_the_parts_factor() -> None:
    # rule F12: 70 % to the head x the example Table 3-3.1 circulatory factor 0.5 = 35, read on Table 3-15.1
    # (limbs read the rows "arm" and "leg")
    body = [{**part, "organ_row": part["name"].split()[-1]} for part in BODY]
    log = _attack(39, 7, tables=_organ_tables(), body=body)
    (organ,) = of_kind(log, DamageResolved)[0].organs
    assert (organ.system, organ.factor, organ.value) == ("circulatory", Decimal("0.5"), 35)
    assert organ.effect == "Noticeable blood loss; the pulse quickens."


def test_a_poisoned_blade_damages_the_organ_systems_it_affects() -> None:
    # rule F12: the poison's WEP MOD 2 at the first band of Table 3-3 (a blade, ruling 18) is 12 points, 120 %
    # of the head's 10 (ignored as tissue damage); x the head's circulatory factor 0.5 = 60 on Table 3-15.1
    knife = {**KNIFE, "poison": {"wep_mod": 2, "systems": ["circulatory"]}}
    body = [{**part, "organ_row": part["name"].split()[-1]} for part in BODY]
    log = _attack(39, 7, red={"weapons": [knife]}, tables=_organ_tables(), body=body)
    (dose,) = of_kind(log, PoisonResolved)
    assert (dose.part, dose.points, dose.tissue_percentage) == ("head", 12, 120)
    (organ,) = dose.organs
    assert (organ.system, organ.value) == ("circulatory", 60)
    assert organ.effect == "Severe blood loss; shock begins within a few rounds unless treated."


def test_a_poison_needs_the_organ_table_of_each_system_it_affects() -> None:
    # rule F12: a nervous-endocrine poison with only the circulatory table (3-15.1) supplied
    knife = {**KNIFE, "poison": {"wep_mod": 2, "systems": ["nervous-endocrine"]}}
    body = [{**part, "organ_row": part["name"].split()[-1]} for part in BODY]
    built = scenario(
        character("red", "red", weapons=[knife]), character("blue", "blue"), tables=_organ_tables(), body=body
    )
    with pytest.raises(TableError, match=r"\$\.combatants\[0\]\.weapons\[0\]\.poison: table 3-15\.x"):
        FivestepBattle(built)


def test_a_body_part_missing_from_table_3_3_1_is_refused_at_load() -> None:
    # rule F12: with organ tables supplied, "right arm" needs a row of Table 3-3.1 (or an organ_row)
    built = scenario(character("red", "red"), character("blue", "blue"), tables=_organ_tables())
    with pytest.raises(TableError, match=r"\$\.bodies\.human\[3\]: .*no body part 'right arm'"):
        FivestepBattle(built)


def _grenade(*rolls: int, blue_at: float = 10) -> list[Any]:
    tables = {**TABLES, "3-4.0": "tables/fivestep/3-4.0.toml", "3-4.1": "tables/fivestep/3-4.1.toml"}
    return _attack(*rolls, red={"weapons": [GRENADE]}, blue_at=blue_at, tables=tables)


def test_a_grenade_under_brawl_lands_where_aimed_and_hurts_those_within_its_blast() -> None:
    # rule F9: 59 under BRAWL 60 lands at blue (10, 0); blue is 0 m from it: a random part (1d100 = 5, the
    # head) takes "2" = 2d10 = 1 + 1
    log = _grenade(59, 5, 1, 1)
    (thrown,) = of_kind(log, GrenadeThrown)
    assert (thrown.outcome, thrown.landed) == ("exact", (10, 0))
    (damage,) = of_kind(log, DamageResolved)
    assert (damage.target, damage.part, damage.points, damage.blast) == ("blue", "head", 2, True)


def test_a_grenade_up_to_20_over_bounces_by_table_3_4_1() -> None:
    # rule F9: 73 is 13 over BRAWL 60: the example Table 3-4.1 row up to 15: 2 bounces, 5 m; the d8 says 3,
    # east: it lands at (15, 0), 5 m from blue, outside the 4 m blast
    log = _grenade(73, 3)
    (thrown,) = of_kind(log, GrenadeThrown)
    assert (thrown.outcome, thrown.bounces, thrown.off_m, thrown.direction, thrown.landed) == (
        "bounce",
        2,
        5,
        "east",
        (15, 0),
    )
    assert not of_kind(log, DamageResolved)


def test_a_grenade_more_than_20_over_misses_and_may_hurt_its_thrower() -> None:
    # rule F9: 85 is 25 over: a miss by 1d10 = 1 + 13 = 14 m; the d8 says 7, west: (-4, 0), 4 m from red,
    # who is within its own blast
    log = _grenade(85, 1, 7, 30, 1, 1)
    (thrown,) = of_kind(log, GrenadeThrown)
    assert (thrown.outcome, thrown.off_m, thrown.landed) == ("miss", 14, (-4, 0))
    (damage,) = of_kind(log, DamageResolved)
    assert (damage.target, damage.range_m) == ("red", 4)


def test_an_attack_raises_the_targets_alertness_once_a_round() -> None:
    # rule F5 (procedure 3): blue's own alertness 50 rises by 10 when first attacked this round, not again
    built = scenario(
        character("red", "red"),
        character("blue", "blue", position=[2, 0]),
        procedures={"surprise": 3},
        rolls=[*FIRST, 99, 99],
        max_seconds=5,
    )
    blows = [Strike(target="blue", arm=0, cost=8, reason="test")] * 2
    raised = of_kind(run(built, red=Scripted(blows), blue=Scripted()).log, AlertnessRaised)
    assert [(r.who, r.before, r.after) for r in raised] == [("blue", 50, 60)]


def test_every_part_of_table_3_3_4_must_be_a_part_of_every_body() -> None:
    # rule F8: a random hit must land on a part the body has
    short = [part for part in BODY if part["name"] != "left leg"]
    built = scenario(character("red", "red"), character("blue", "blue"), body=short)
    with pytest.raises(TableError, match=r"part 'left leg' of Table 3-3\.4 is not a part of body 'human'"):
        FivestepBattle(built)


def _moving_marksman(*plans: list[Any], rolls: list[int]) -> list[Any]:
    built = scenario(
        character("red", "red", weapons=[RIFLE]),
        character("blue", "blue", position=[12, 0]),
        procedures={"to_hit": 3},
        options={"over_misses": True},
        adversity={"attacker_moved": {"table": "3-7.1", "condition": "marksman moving"}},
        rolls=rolls,
        max_seconds=10,
    )
    return run(built, red=Scripted(*plans), blue=Scripted()).log


def test_a_marksman_who_moved_this_round_shoots_under_adversity() -> None:
    # rule F8 (procedure 3b): red runs 1 m (2 points, done at 200 ms) and fires: "marksman moving" applies
    log = _moving_marksman(
        [
            Advance(target="blue", metres=Decimal(1), stop_m=Decimal(2), cost=2, reason="test"),
            Strike(target="blue", arm=0, cost=13, reason="test"),
        ],
        rolls=[*FIRST, 99],
    )
    (shot,) = of_kind(log, ToHitResolved)
    assert [a.condition for a in shot.adversity] == ["marksman moving"]


def test_a_move_that_ended_the_last_round_is_not_this_rounds() -> None:
    # rule F8 (procedure 3b): a move spending all 50 points ends at 5.000 s, the last instant of round 1; a
    # shot in round 2 is not a moving marksman's
    log = _moving_marksman(
        [Advance(target="blue", metres=Decimal(1), stop_m=Decimal(2), cost=50, reason="test")],
        [Strike(target="blue", arm=0, cost=13, reason="test")],
        rolls=[*FIRST, 99],
    )
    (shot,) = of_kind(log, ToHitResolved)
    assert shot.t > 5000
    assert shot.adversity == ()


def test_a_grenade_beyond_a_throw_is_not_thrown() -> None:
    # rule F9: the example Table 3-4.0 lets strength 60 throw 0.5 kg 35 m; blue stands 50 m off
    tables = {**TABLES, "3-4.0": "tables/fivestep/3-4.0.toml", "3-4.1": "tables/fivestep/3-4.1.toml"}
    log = _attack(red={"weapons": [GRENADE]}, blue_at=50, tables=tables)
    (refused,) = of_kind(log, ActionRefused)
    assert refused.reason == "blue is 50.000 m away, beyond a throw of 35 m (Table 3-4.0)"
    assert not of_kind(log, GrenadeThrown)


def test_a_weapon_out_of_ammunition_fires_no_more() -> None:
    # ruling 49: one round of ammunition: the second declared shot is refused
    rifle = {**RIFLE, "ammunition": 1}
    built = scenario(
        character("red", "red", weapons=[rifle]),
        character("blue", "blue", position=[2, 0]),
        rolls=[*FIRST, 99],
        max_seconds=5,
    )
    shots = [Strike(target="blue", arm=0, cost=13, reason="test")] * 2
    log = run(built, red=Scripted(shots), blue=Scripted()).log
    assert len(of_kind(log, ToHitResolved)) == 1
    assert of_kind(log, ActionRefused)[0].reason == "no Rifle shots or throws left"


def test_no_shot_is_declared_at_a_target_nearer_than_25_cm() -> None:
    # rule F1: weaponry is used from 25 cm; a rifleman with nothing else does not shoot at 10 cm
    built = scenario(
        character("red", "red", weapons=[RIFLE]),
        character("blue", "blue", position=[0.1, 0]),
        rolls=FIRST,
        max_seconds=5,
    )
    assert not of_kind(run(built, blue=Scripted()).log, ToHitResolved)


def test_an_exoskeleton_reads_the_bone_descriptions_first() -> None:
    # rule F11: an Aracnian's wound of 70 % (category 14) reads the 14th row of the bone-first order
    table = load_table(EXAMPLES / "tables/fivestep/3-8.toml")
    built = scenario(
        character("red", "red", weapons=[KNIFE]),
        character("blue", "blue", position=[2, 0], exoskeleton=True),
        rolls=[*FIRST, 39, 7],
        max_seconds=5,
    )
    (damage,) = of_kind(
        run(built, red=Scripted([Strike(target="blue", arm=0, cost=8, reason="test")]), blue=Scripted()).log,
        DamageResolved,
    )
    assert damage.description == description(table, 14, exoskeleton=True).text  # type: ignore[arg-type]
    assert damage.description != description(table, 14).text  # type: ignore[arg-type]


def test_a_decentralized_system_takes_the_mean_factor_of_its_column() -> None:
    # rule F12 (ruling 16): an Eebek's circulatory system spreads over the body: the head's 70 % is read at
    # the mean circulatory factor of the example Table 3-3.1, not the head's 0.5
    body = [{**part, "organ_row": part["name"].split()[-1]} for part in BODY]
    built = scenario(
        character("red", "red"),
        character("blue", "blue", position=[2, 0], decentralized=["circulatory"]),
        tables=_organ_tables(),
        body=body,
        rolls=[*FIRST, 39, 7],
        max_seconds=5,
    )
    log = run(built, red=Scripted([Strike(target="blue", arm=0, cost=8, reason="test")]), blue=Scripted()).log
    (organ,) = of_kind(log, DamageResolved)[0].organs
    factors = load_table(EXAMPLES / "tables/fivestep/3-3.1.toml")
    assert organ.factor == factors.mean_factor("circulatory") != Decimal("0.5")  # type: ignore[union-attr]
    assert organ.value == 70 * organ.factor
