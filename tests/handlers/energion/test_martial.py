"""Martial artists on the clock (rule E13): punches and kicks as bludgeons with the hand bonuses, the 0 s
speed and 1 s initiative minimums, two attacks a second, the kick's recovery second and its AGbonus roll,
and the dodge.

``a`` is a level 5 martial artist with AG 140 (AGbonus 40; speed adjustment 40/10 = 4) and skill 60; ``b``
stands 1 m away in Cloth with bare hands and parry 0 (no parry roll), everyone prepared, unless a test says
otherwise.
"""

from __future__ import annotations

from decimal import Decimal

from affray.events.energion.kinds import AttackResolved
from affray.events.shared import ActionRefused
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import EnergionScenario
from affray.npc.energion.intents import Attack
from tests.handlers.energion import TomlValue, fighter, of_kind, run, scenario

HAND: list[TomlValue] = [{"name": "Hand"}]
FEET_AND_HANDS: list[TomlValue] = [{"name": "Foot"}, {"name": "Hand"}]
KICK, PUNCH = 0, 1


def artist(id: str = "a", side: str = "ford", level: int = 5, **fields: TomlValue) -> dict[str, TomlValue]:
    spec: dict[str, TomlValue] = {
        "weapons": FEET_AND_HANDS,
        "martial_arts_level": level,
        "stats": {"AG": 140},
        "prepared": True,
        **fields,
    }
    return fighter(id, side, **spec)


def plain(id: str = "b", side: str = "raiders", **fields: TomlValue) -> dict[str, TomlValue]:
    spec: dict[str, TomlValue] = {"weapons": HAND, "position": [1, 0], "prepared": True, **fields}
    return fighter(id, side, **spec)


def bout(
    *rolls: int, a: dict[str, TomlValue] | None = None, b: dict[str, TomlValue] | None = None
) -> EnergionScenario:
    return scenario(a or artist(), b or plain(), rolls=list(rolls), max_seconds=4)


def kick(target: str = "b") -> Attack:
    return Attack(target=target, arm=KICK, reason="r")


def punch(target: str = "b") -> Attack:
    return Attack(target=target, arm=PUNCH, reason="r")


# --- figures (E13) --------------------------------------------------------------------------------------


def test_a_martial_artists_speed_may_fall_to_zero_and_its_initiative_stays_at_one_second() -> None:
    # rule E13: Foot SP 1 - 4 = -3 -> 0 s (minimum 0); IN 1 - 4/2 = -1 -> 1 s (minimum 1)
    arm = EnergionBattle(bout()).loadouts["a"].arms[KICK]
    assert (arm.speed_ms, arm.initiative_ms) == (0, 1000)


def test_anyone_elses_hand_keeps_the_one_second_speed_and_zero_initiative_minimums() -> None:
    # rule E1: Hand SP 1 - 4 -> 1 s; IN 1 - 2 -> 0 s
    arm = EnergionBattle(bout(a=plain("a", "ford", stats={"AG": 140}))).loadouts["a"].arms[0]
    assert (arm.martial, arm.weapon_type, arm.speed_ms, arm.initiative_ms) == (None, 17, 1000, 0)


def test_a_punch_gains_one_percent_a_level_and_a_point_per_five_full_levels() -> None:
    # rule E13: level 5: 60 + 5 = 65%, Hand 4 + 5 // 5 = 5; level 4: 64%, 4 + 0 = 4
    five = EnergionBattle(bout()).loadouts["a"].arms[PUNCH]
    four = EnergionBattle(bout(a=artist(level=4))).loadouts["a"].arms[PUNCH]
    assert (five.hit_chance, five.damage_potential, five.weapon_type) == (Decimal(65), Decimal(5), 4)
    assert (four.hit_chance, four.damage_potential) == (Decimal(64), Decimal(4))


def test_a_kick_strikes_as_a_two_handed_bludgeon() -> None:
    # rule E13: type 5; 60 - Cloth vs 5 (1) - 29 = quality 30 -> x0.4 of Foot's 6 = 2.4
    encounter, _ = run(bout(29), a=[kick()])
    (blow,) = of_kind(encounter, AttackResolved)
    assert blow.damage is not None
    assert (
        blow.weapon,
        blow.hit.weapon_type,
        blow.hit.armor_value,
        blow.hit.quality,
        blow.damage.damage,
    ) == (
        "Foot",
        5,
        1,
        Decimal(30),
        Decimal("2.4"),
    )


def test_a_punch_strikes_as_a_one_handed_bludgeon_without_changing_weapons() -> None:
    # rule E13: type 4; 65 - Cloth vs 4 (2) - 33 = quality 30 -> x0.4 of 5 = 2; Foot stays in hand
    encounter, _ = run(bout(33), a=[punch()])
    (blow,) = of_kind(encounter, AttackResolved)
    assert blow.damage is not None
    assert (blow.weapon, blow.hit.weapon_type, blow.hit.quality, blow.damage.damage) == (
        "Hand",
        4,
        Decimal(30),
        Decimal(2),
    )
    a = encounter.state.combatants["a"]
    assert (a.weapon, a.weapon_index) == ("Foot", KICK)


# --- two attacks a second (E13) -------------------------------------------------------------------------


def test_a_martial_artist_attacks_at_most_twice_a_second() -> None:
    # rule E13: speed 0 s, but 1 s / 2 attacks = 500 ms between them
    encounter, _ = run(bout(99, 99, 99), a=[punch(), punch(), punch()])
    assert [blow.t for blow in of_kind(encounter, AttackResolved)] == [0, 500, 1000]


# --- the kick's recovery second (E13) -------------------------------------------------------------------


def test_a_kick_in_the_second_after_a_kick_is_refused() -> None:
    # rule E13: kicked at 0 s; at 0.5 s a kick is refused (a second's wait), at 1.5 s it is allowed
    encounter, _ = run(bout(99, 99), a=[kick(), kick(), kick()])
    (refused,) = of_kind(encounter, ActionRefused)
    assert (refused.t, refused.reason) == (500, "recovering from a kick: punches only this second")
    assert [blow.t for blow in of_kind(encounter, AttackResolved)] == [0, 1500]


def test_a_punch_in_the_recovery_second_needs_a_roll_at_or_under_the_agility_bonus() -> None:
    # rule E13: AGbonus 40; the recovery roll 40 <= 40 lets the punch through at 0.5 s (hit roll 99)
    encounter, _ = run(bout(99, 40, 99), a=[kick(), punch()])
    punched = of_kind(encounter, AttackResolved)[1]
    assert punched.hit.recovery_roll is not None
    assert (
        punched.t,
        punched.weapon,
        punched.hit.recovery_roll.total,
        punched.hit.recovery_roll.purpose,
    ) == (
        500,
        "Hand",
        40,
        "recovery",
    )


def test_a_punch_in_the_recovery_second_is_refused_on_a_roll_over_the_agility_bonus() -> None:
    # rule E13: 41 > 40: refused, and the second is lost
    encounter, _ = run(bout(99, 41), a=[kick(), punch()])
    (refused,) = of_kind(encounter, ActionRefused)
    assert (refused.t, refused.reason) == (500, "recovering from a kick: AGbonus roll 41 over 40")
    assert len(of_kind(encounter, AttackResolved)) == 1


def test_a_punch_after_the_recovery_second_needs_no_roll() -> None:
    # punches at 0 and 0.5 s carry no recovery roll when no kick came before
    encounter, _ = run(bout(99, 99), a=[punch(), punch()])
    assert [blow.hit.recovery_roll for blow in of_kind(encounter, AttackResolved)] == [None, None]


# --- the dodge (E13) ------------------------------------------------------------------------------------


def test_a_martial_artist_dodges_at_a_quarter_of_its_agility_bonus_plus_its_level() -> None:
    # rule E13: b dodges at 40/4 + 5 = 15%; a's blow 60 - 8 - 10 = quality 42; dodge roll 15 <= 15
    encounter, _ = run(
        bout(10, 15, a=plain("a", "ford"), b=artist("b", "raiders", position=[1, 0])),
        a=[Attack(target="b", reason="r")],
    )
    (blow,) = of_kind(encounter, AttackResolved)
    assert blow.parry is not None
    assert (blow.parry.device, blow.parry.chance, blow.parry.parried, blow.outcome) == (
        "dodge",
        Decimal(15),
        True,
        "parried",
    )


def test_a_martial_artist_dodges_once_a_second() -> None:
    # rule E13: punches at 0 and 0.5 s: 65 - 2 - 10 = 53 each; b dodges the first (roll 99 fails) and has
    # no dodge left for the second
    encounter, _ = run(bout(10, 99, 10, b=artist("b", "raiders", position=[1, 0])), a=[punch(), punch()])
    first, second = of_kind(encounter, AttackResolved)
    assert first.parry is not None
    assert (first.parry.device, second.t, second.parry) == ("dodge", 500, None)


# --- the minimums belong to the character (E1, E13; ruling 33) -------------------------------------------

DAGGER: list[TomlValue] = [{"name": "Dagger, Normal"}]


def test_a_martial_artists_minimums_apply_to_any_weapon_it_wields() -> None:
    # rule E1: "a minimum of one (unless character is a martial artist)"; E13: speed 0, initiative 1.
    # Dagger, Normal SP 4, IN 6; AGbonus 160 - 100 = 60 -> adjustment 60/10 = 6:
    # speed 4 - 6 = -2 -> 0 s; initiative 6 - 6/2 = 3 s (above the 1 s minimum)
    arm = EnergionBattle(bout(a=artist(weapons=DAGGER, stats={"AG": 160}))).loadouts["a"].arms[0]
    assert (arm.martial, arm.artist, arm.speed_ms, arm.initiative_ms) == (None, True, 0, 3000)


def test_a_martial_artist_attacks_at_most_twice_a_second_with_a_dagger_too() -> None:
    # rule E13: speed 0 s with any weapon, but never more than two attacks in a second: 500 ms apart
    built = bout(99, 99, 99, a=artist(weapons=DAGGER, stats={"AG": 160}))
    encounter, _ = run(built, a=[Attack(target="b", reason="r")] * 3)
    assert [blow.t for blow in of_kind(encounter, AttackResolved)] == [0, 500, 1000]


def test_the_body_weapons_option_keeps_a_weapons_minimums_for_a_martial_artist() -> None:
    # options.martial_minimums = "body_weapons": the dagger keeps E1's 1 s speed minimum and 0 s initiative
    built = scenario(
        artist(weapons=DAGGER, stats={"AG": 160}), plain(), options={"martial_minimums": "body_weapons"}
    )
    arm = EnergionBattle(built).loadouts["a"].arms[0]
    assert (arm.artist, arm.speed_ms, arm.initiative_ms) == (False, 1000, 3000)
