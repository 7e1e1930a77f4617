"""Grappling on the clock (rule E15): a procedure's attack against its armor, the target's avoidance, damage
and effects; holds with an avoidance roll each second, holding down, knockdowns and standing up; and the
brawl example's holds.

Everyone is prepared (no reaction time) with bare hands (initiative 0 s in hand, parry 0) and stats of 100
(every bonus 0) unless a test says otherwise, so each acts from t = 0 in file order.
"""

from __future__ import annotations

import itertools
from decimal import Decimal

from affray.events.energion.kinds import (
    AttackResolved,
    GrappleResolved,
    HoldDamageDealt,
    HoldEscapeRolled,
    StoodUp,
)
from affray.events.shared import ActionRefused
from affray.events.special_damage.kinds import Injury
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.grapple import grapple_problem
from affray.handlers.energion.scenario import EnergionScenario
from affray.npc.energion.intents import Attack, BreakHold, Grapple, Intent
from tests.handlers.energion import TomlValue, fighter, of_kind, run, scenario
from tests.strategies import example_log, read

HAND: list[TomlValue] = [{"name": "Hand"}]
KICKER: dict[str, TomlValue] = {
    "weapons": [{"name": "Foot"}, {"name": "Hand"}],
    "martial_arts_level": 5,
    "grapples": ["Double Kick"],
}


def grappler(procedure: str = "Hold Down", **fields: TomlValue) -> dict[str, TomlValue]:
    """``a``: skill 60, melee bonus 0 -> a procedure's attack is 60%."""
    spec: dict[str, TomlValue] = {"weapons": HAND, "grapples": [procedure], **fields}
    return fighter("a", "ford", prepared=True, **spec)


def victim(id: str = "b", **fields: TomlValue) -> dict[str, TomlValue]:
    """``b`` at arm's length (1 m east), parry 40 with a buckler (+10): a parry chance of 50 (a shield
    parries from the start, while a hand in hand is readied only after ``a``'s first action at 0 s)."""
    spec: dict[str, TomlValue] = {
        "weapons": HAND,
        "position": [1, 0],
        "parry": 40,
        "shield": "Buckler",
        "prepared": True,
        **fields,
    }
    return fighter(id, "raiders", **spec)


def brawl(
    *rolls: int, a: dict[str, TomlValue] | None = None, b: dict[str, TomlValue] | None = None
) -> EnergionScenario:
    return scenario(a or grappler(), b or victim(), rolls=list(rolls), max_seconds=6)


def grab(procedure: str = "Hold Down", target: str = "b") -> Grapple:
    return Grapple(procedure=procedure, target=target, reason="r")


def breaks(n: int) -> list[Intent]:
    return [BreakHold(reason="r") for _ in range(n)]


# --- the procedure's attack and avoidance (E15) ---------------------------------------------------------


def test_a_hold_down_that_lands_pins_the_target() -> None:
    # rule E15: 60% - AG/luck armor (luck 0 + AGbonus 0/4 = 0) - roll 10 = quality 50;
    # avoidance by parry roll: 40 + 10 + Mod -1 = 49, roll 50 > 49 fails -> landed, Pin
    encounter, _ = run(brawl(10, 50), a=[grab()])
    (done,) = of_kind(encounter, GrappleResolved)
    assert (done.armor, done.armor_value, done.quality, done.outcome, done.effects) == (
        "ag_luck",
        Decimal(0),
        Decimal(50),
        "landed",
        ("Pin",),
    )
    assert done.avoidance is not None
    assert (done.avoidance.basis, done.avoidance.target_number, done.avoidance.avoided) == (
        "parry_roll",
        Decimal(49),
        False,
    )
    a, b = encounter.state.combatants["a"], encounter.state.combatants["b"]
    assert (a.holding, a.hold, b.held_by, b.hold) == ("b", "Hold Down", "a", "Hold Down")


def test_an_avoidance_roll_at_the_target_number_avoids() -> None:
    # rule E15 (ruling 31): 49 <= 49 avoids; nothing is held
    encounter, _ = run(brawl(10, 49), a=[grab()])
    (done,) = of_kind(encounter, GrappleResolved)
    assert done.outcome == "avoided"
    assert encounter.state.combatants["b"].held_by is None


def test_a_procedure_of_no_quality_misses_without_an_avoidance_roll() -> None:
    # rule E15: 60 - 0 - 60 = quality 0 -> a miss; the only roll is the attack's
    encounter, _ = run(brawl(60), a=[grab()])
    (done,) = of_kind(encounter, GrappleResolved)
    assert (done.quality, done.outcome, done.avoidance) == (Decimal(0), "miss", None)


def test_ag_luck_armor_is_luck_armor_plus_a_quarter_of_the_agility_bonus() -> None:
    # rule E15: luck 10 + AGbonus (140 - 100 = 40) / 4 = 20; 60 - 20 - 10 = quality 30
    b = victim(luck_armor=10, stats={"AG": 140})
    encounter, _ = run(brawl(10, 99, b=b), a=[grab()])
    (done,) = of_kind(encounter, GrappleResolved)
    assert (done.armor_value, done.quality) == (Decimal(20), Decimal(30))


def test_an_unaware_target_loses_its_agility_armor_and_rolls_no_avoidance() -> None:
    # rules E15, E24: b reacts only after 5 s; armor luck 10 + 0 (agility lost) = 10;
    # 60 - 10 - 10 = quality 40, no avoidance roll -> landed
    b = victim(luck_armor=10, stats={"AG": 140}, prepared=False, reaction=5)
    encounter, _ = run(brawl(10, b=b), a=[grab()])
    (done,) = of_kind(encounter, GrappleResolved)
    assert (done.armor_value, done.quality, done.avoidance, done.outcome) == (
        Decimal(10),
        Decimal(40),
        None,
        "landed",
    )


def test_normal_armor_is_the_armor_against_body_weapons_plus_the_shields_plus() -> None:
    # rule E15: "normal" armor: Cloth vs type 17 (body) = 8, + Small shield +20 = 28; Overbear is AG/luck,
    # so use a double kick's normal armor instead: Cloth vs type 5 (the kick) = 1 + 20 = 21;
    # 60 - 21 - 9 = quality 30; avoidance .5 AG = 50 + 0, roll 51 fails
    encounter, _ = run(
        brawl(9, 51, a=fighter("a", "ford", prepared=True, **KICKER), b=victim(shield="Small")),
        a=[grab("Double Kick")],
    )
    (done,) = of_kind(encounter, GrappleResolved)
    assert (done.armor, done.armor_value, done.quality) == ("normal", Decimal(21), Decimal(30))


# --- double kick (E13, E15) -----------------------------------------------------------------------------


def test_a_double_kick_does_twice_the_kicks_damage_and_knocks_down() -> None:
    # rules E13, E15: Foot damage 6, quality 60 - (Cloth vs type 5 = 1, + buckler 10) - 19 = 30 -> x0.4
    # -> 2.4; twice = 4.8;
    # avoidance .5 AG = 50, roll 51 fails
    encounter, _ = run(
        brawl(19, 51, a=fighter("a", "ford", prepared=True, **KICKER)), a=[grab("Double Kick")]
    )
    (done,) = of_kind(encounter, GrappleResolved)
    assert done.avoidance is not None
    assert (done.quality, done.avoidance.target_number, done.damage, done.effects) == (
        Decimal(30),
        Decimal(50),
        Decimal("4.8"),
        ("KD",),
    )
    assert encounter.state.combatants["b"].damage_taken == Decimal("4.8")


def test_a_double_kick_is_followed_by_two_seconds_of_recovery() -> None:
    # rules E13, E15: "2 sec recover": kicked at 0 s, a decides again at 2 s
    encounter, scripts = run(
        brawl(19, 51, a=fighter("a", "ford", prepared=True, **KICKER)), a=[grab("Double Kick")]
    )
    (done,) = of_kind(encounter, GrappleResolved)
    assert done.recovery_ms == 2000
    assert [view.now for view in scripts["a"].views] == [0, 2000]


def test_a_double_kick_without_a_martial_artists_foot_is_refused() -> None:
    encounter, _ = run(brawl(a=grappler("Double Kick")), a=[grab("Double Kick")])
    (refused,) = of_kind(encounter, ActionRefused)
    assert refused.reason == "a double kick needs a martial artist's kick (Foot)"


# --- refusals --------------------------------------------------------------------------------------------


def test_an_injury_that_forbids_melee_refuses_a_procedure() -> None:
    # S4, ruling 8: "no melee attacks" (a robot's arm joints damage) refuses a procedure as it does a blow
    built = brawl(90)
    encounter, _ = run(built, a=[grab()])
    mine = encounter.state.combatants["a"]
    mine.special.injuries.append(Injury(name="Arm joints damage", no_melee=True))
    me = EnergionBattle(built).loadouts["a"]
    problem = grapple_problem(me, mine, encounter.state.combatants["b"], grab())
    assert problem == "its damage allows no melee attack"


def test_a_procedure_not_known_is_refused() -> None:
    encounter, _ = run(brawl(), a=[grab("Trip")])
    (refused,) = of_kind(encounter, ActionRefused)
    assert (refused.action, refused.reason) == ("Trip b", "a does not know the Trip")


def test_a_procedure_beyond_arms_length_is_refused() -> None:
    encounter, _ = run(brawl(b=victim(position=[3, 0])), a=[grab()])
    (refused,) = of_kind(encounter, ActionRefused)
    assert refused.reason == "b is 3.000 m away, beyond arm's length"


def test_a_holder_cannot_start_a_second_hold() -> None:
    # c stands beside b; a holds b (roll 10, avoidance 99 fails) and keeps holding, so it never decides
    # again: the second Grapple is never asked for; the state shows the one hold
    c = victim("c", position=[0, 1])
    encounter, scripts = run(
        scenario(grappler(), victim(), c, rolls=[10, 99], max_seconds=4), a=[grab(), grab("Hold Down", "c")]
    )
    assert [view.now for view in scripts["a"].views] == [0]
    assert encounter.state.combatants["c"].held_by is None


# --- holds on the clock (E15) ---------------------------------------------------------------------------


def test_a_held_combatant_rolls_its_avoidance_once_a_second() -> None:
    # rule E15: landed at 0 s, b's avoidance 50 failing then; "the avoidance may be rolled subsequently
    # each second": b's rolls 60, 90, 80 against 49 fail at 1, 2 and 3 s, not again at 0 s
    encounter, _ = run(brawl(10, 50, 60, 90, 80), a=[grab()], b=breaks(3))
    rolls = of_kind(encounter, HoldEscapeRolled)
    assert [(e.t, e.holder, e.procedure, e.avoidance.target_number) for e in rolls] == [
        (1000, "a", "Hold Down", Decimal(49)),
        (2000, "a", "Hold Down", Decimal(49)),
        (3000, "a", "Hold Down", Decimal(49)),
    ]
    assert [e.avoidance.roll.purpose for e in rolls] == ["avoidance"] * 3


def test_a_successful_avoidance_roll_breaks_the_hold() -> None:
    # rule E15: b's second escape roll 49 <= 49 breaks the hold at 2 s
    encounter, _ = run(brawl(10, 50, 60, 49), a=[grab()], b=breaks(2))
    last = of_kind(encounter, HoldEscapeRolled)[-1]
    assert (last.t, last.avoidance.avoided) == (2000, True)
    a, b = encounter.state.combatants["a"], encounter.state.combatants["b"]
    assert (a.holding, a.hold, b.held_by, b.hold) == (None, None, None, None)


def test_the_holder_decides_again_once_the_hold_is_broken() -> None:
    # the hold lands at 0 s and its seconds begin at once; broken at 2 s, the holder's holding second
    # ends at 2 s too and it decides again then
    _, scripts = run(brawl(10, 50, 60, 49), a=[grab()], b=breaks(2))
    assert [view.now for view in scripts["a"].views] == [0, 2000]


def test_holding_down_does_half_a_point_each_second() -> None:
    # rule E15: landed at 0 s; each second held ends with 0.5: at 1, 2, 3, 4 and 5 s before the 6 s
    # limit -> 5 x 0.5 = 2.5 points
    encounter, _ = run(brawl(10, 50), a=[grab()])
    ticks = of_kind(encounter, HoldDamageDealt)
    assert [(e.t, e.damage) for e in ticks] == [(t, Decimal("0.5")) for t in (1000, 2000, 3000, 4000, 5000)]
    assert encounter.state.combatants["b"].damage_taken == Decimal("2.5")


def test_a_full_hold_does_no_damage_while_it_lasts() -> None:
    # rule E15: Full Hold damage "None"; avoidance 50 + Mod -1 = 49, roll 50 fails
    encounter, _ = run(brawl(10, 50, a=grappler("Full Hold")), a=[grab("Full Hold")])
    assert encounter.state.combatants["b"].held_by == "a"
    assert not of_kind(encounter, HoldDamageDealt)


def test_a_held_combatant_is_refused_anything_but_breaking_the_hold() -> None:
    encounter, _ = run(brawl(10, 50), a=[grab()], b=[Attack(target="a", reason="r")])
    (refused,) = of_kind(encounter, ActionRefused)
    assert (refused.combatant, refused.action, refused.reason) == (
        "b",
        "attack",
        "held by a (Hold Down): it can only try to break the hold",
    )


def test_breaking_a_hold_when_not_held_is_refused() -> None:
    encounter, _ = run(brawl(), b=breaks(1))
    (refused,) = of_kind(encounter, ActionRefused)
    assert (refused.action, refused.reason) == ("break a hold", "it is not held")


def test_a_held_combatant_cannot_parry() -> None:
    # rule E15: b (parry 50) is held by a at 0 s; c's blow: 60 - (Cloth vs 17 = 8, + buckler 10) - roll 10
    # = quality 32 -> no parry roll, x0.4 of Hand's 4 = 1.6 damage
    c = fighter("c", "ford", prepared=True, weapons=HAND, position=[1, 1])
    encounter, _ = run(
        scenario(grappler(), victim(), c, rolls=[10, 50, 10], max_seconds=3),
        a=[grab()],
        c=[Attack(target="b", reason="r")],
    )
    (blow,) = of_kind(encounter, AttackResolved)
    assert blow.damage is not None
    assert (blow.hit.quality, blow.parry, blow.damage.damage) == (Decimal(32), None, Decimal("1.6"))


# --- knockdowns (E15) -----------------------------------------------------------------------------------


def test_a_trip_knocks_down_with_a_fall_of_one_d10() -> None:
    # rule E15: b AG 20 -> AG/luck armor 0 + max(-80, 0)/4 = 0; 60 - 0 - 10 = 50; avoidance AG 20 + 0,
    # roll 21 fails; fall 1d10 = 7 on "a/fall"
    encounter, _ = run(brawl(10, 21, 7, a=grappler("Trip"), b=victim(stats={"AG": 20})), a=[grab("Trip")])
    (done,) = of_kind(encounter, GrappleResolved)
    assert done.damage_roll is not None
    assert (done.effects, done.damage, done.damage_roll.purpose, done.damage_roll.roller) == (
        ("KD",),
        Decimal(7),
        "fall",
        "a",
    )


def test_a_knocked_down_combatant_stands_up_after_a_second() -> None:
    encounter, scripts = run(
        brawl(10, 21, 7, a=grappler("Trip"), b=victim(stats={"AG": 20})), a=[grab("Trip")]
    )
    (up,) = of_kind(encounter, StoodUp)
    assert (up.t, up.combatant, up.took_ms) == (1000, "b", 1000)
    assert not encounter.state.combatants["b"].knocked_down
    assert [view.now for view in scripts["b"].views] == [1000]


def test_a_knocked_down_combatant_cannot_parry() -> None:
    # rule E15: tripped at 0 s (10, 21, 7); a's blow at 1 s comes before b is up (a's wait began first):
    # 60 - (8 + buckler 10) - 10 = quality 32, no parry roll
    encounter, _ = run(
        brawl(10, 21, 7, 10, a=grappler("Trip"), b=victim(stats={"AG": 20})),
        a=[grab("Trip"), Attack(target="b", reason="r")],
    )
    (blow,) = of_kind(encounter, AttackResolved)
    assert (blow.t, blow.hit.quality, blow.parry) == (1000, Decimal(32), None)


# --- the brawl example ----------------------------------------------------------------------------------


def test_in_the_brawl_each_held_combatant_rolls_once_a_second_while_a_hold_lasts() -> None:
    events = read(example_log("brawl")).events
    runs: list[list[int]] = []
    holding: dict[str, str] = {}
    for event in events:
        if isinstance(event, GrappleResolved) and {"Pin", "Disable"} & set(event.effects):
            holding[event.target] = event.attacker
            runs.append([])
        if isinstance(event, HoldEscapeRolled):
            assert holding[event.combatant] == event.holder
            runs[-1].append(event.t)
            if event.avoidance.avoided:
                del holding[event.combatant]
    # gull's two Hold Downs on shen (6 s, 9 s) and brok's two Full Holds (15 s, 18 s): shen strains at 7.5 and
    # 8.5 s against the first (half a second past the second: its kicks' 0.5 s gap), on whole seconds against
    # the other three
    assert len(runs) == 4
    for times in runs:
        assert all(later - earlier == 1000 for earlier, later in itertools.pairwise(times))


def test_a_defender_without_a_parrying_device_avoids_by_its_own_parry() -> None:
    # rule E15: avoidance by "a standard parry roll": b has no shield, a hand (no parry plus) and parry 40:
    # 40 + Mod -1 = 39; roll 39 avoids
    encounter, _ = run(brawl(10, 39, b=victim(shield="")), a=[grab()])
    (done,) = of_kind(encounter, GrappleResolved)
    assert done.avoidance is not None
    assert (done.avoidance.target_number, done.avoidance.avoided, done.outcome) == (
        Decimal(39),
        True,
        "avoided",
    )


def test_a_weapon_readied_at_the_instant_of_a_hold_parries_it() -> None:
    # ruling 16: b's battle initiative ends at 0 s, the instant of a's hold: it is settled first, so b's
    # long sword in hand parries: 40 + sword parry 0 (chart) + Mod -1 = 39 with the weapon, as without
    encounter, _ = run(brawl(10, 39, b=victim(shield="", weapons=[{"name": "Sword, Long"}])), a=[grab()])
    order = [
        type(e).__name__ for e in encounter.log if type(e).__name__ in ("WeaponReadied", "GrappleResolved")
    ]
    assert order[:3] == ["WeaponReadied", "WeaponReadied", "GrappleResolved"]
