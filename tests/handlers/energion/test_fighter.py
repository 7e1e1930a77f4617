"""A combatant's actions on the clock, driven by a scripted controller: refusals, throws, weapon changes
and waits (rules E1, E3, E8, E17); and the archers example end to end."""

from __future__ import annotations

from decimal import Decimal

from affray.events.energion.kinds import AimStarted, AttackResolved, Waited, WeaponChanged
from affray.events.shared import ActionRefused
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import EnergionScenario
from affray.kernel.encounter import Encounter
from affray.npc.energion.intents import Aim, Attack, ChangeWeapon, Intent, Wait
from tests.handlers.energion import Script, TomlValue, fighter, of_kind, scenario
from tests.strategies import example_log, read, verdict

SWORD_AND_DAGGER: list[TomlValue] = [{"name": "Sword, Long"}, {"name": "Dagger, Parrying"}]


def run(built: EnergionScenario, *intents: Intent) -> tuple[Encounter, Script]:
    """Run ``built`` with ``a`` following ``intents`` and every other combatant standing idle."""
    battle = EnergionBattle(built)
    script = Script(*intents)
    battle.controllers = {key: Script() for key in battle.controllers}
    battle.controllers["a"] = script
    return battle.run(), script


def duel(
    a: dict[str, TomlValue], b_position: list[TomlValue], rolls: list[int] | None = None
) -> EnergionScenario:
    return scenario(
        fighter("a", "ford", prepared=True, **a),
        fighter("b", "raiders", prepared=True, position=b_position),
        rolls=rolls or [],
        max_seconds=30,
    )


# --- refusals ------------------------------------------------------------------------------------------


def test_shot_beyond_the_last_range_band_is_refused_and_costs_a_second() -> None:
    # rule E8: the light crossbow's EXT limit is 210 m; b stands 250 m away
    encounter, script = run(
        duel({"weapons": [{"name": "Crossbow, Light"}]}, [0, 250]), Attack(target="b", reason="r")
    )
    (refused,) = of_kind(encounter, ActionRefused)
    assert (refused.t, refused.action, refused.reason) == (
        0,
        "attack b",
        "b is 250.000 m away, beyond Crossbow, Light's range",
    )
    assert not of_kind(encounter, AttackResolved)
    assert [view.now for view in script.views] == [0, 1000]


def test_blow_beyond_reach_is_refused() -> None:
    # rule E10 (ruling 11): a long sword reaches 1 m; b is 3 m away
    encounter, _ = run(duel({}, [3, 0]), Attack(target="b", reason="r"))
    (refused,) = of_kind(encounter, ActionRefused)
    assert refused.reason == "b is 3.000 m away, beyond reach 1 m"


# --- hurled weapons (E3, E17) --------------------------------------------------------------------------

THROWER: dict[str, TomlValue] = {
    "weapons": [{"name": "Dagger, Throwing", "class": "Daggers", "hurled": True, "count": 2}]
}


def test_a_throw_spends_one_of_the_count_and_empties_the_hand() -> None:
    # rule E17: Dagger, Throwing SP 3, adj 0 -> gap 3 s; aim 3 s, throw at 3 s (roll 99: a miss);
    # the next decision, after the 3 s speed, sees 2 - 1 = 1 dagger left and no weapon ready
    encounter, script = run(
        duel(THROWER, [6, 0], rolls=[99]),
        Aim(target="b", seconds=3, reason="r"),
        Attack(target="b", reason="r"),
    )
    (throw,) = of_kind(encounter, AttackResolved)
    assert throw.hit.ranged is not None
    assert (throw.t, throw.hit.ranged.mode, throw.hit.ranged.unaimed_penalty) == (3000, "hurled", Decimal(0))
    after = script.views[-1]
    assert (after.now, after.arm.uses_left, after.me.weapon_ready) == (6000, 1, False)
    assert encounter.state.combatants["a"].used == {"0": 1}


def test_the_next_dagger_taken_up_after_a_throw_costs_only_its_initiative() -> None:
    # rule E3: the hand is empty after the throw: Dagger, Throwing IN 6, adj 0 -> 6 s, no second for the drop;
    # decided at 6 s (throw at 3 s + speed 3 s) -> in hand at 12 s
    encounter, _ = run(
        duel(THROWER, [6, 0], rolls=[99]),
        Aim(target="b", seconds=3, reason="r"),
        Attack(target="b", reason="r"),
        ChangeWeapon(index=0, method="drop_and_grab", reason="r"),
    )
    (changed,) = of_kind(encounter, WeaponChanged)
    assert (changed.t, changed.took_ms, changed.from_weapon, changed.to_weapon) == (
        12_000,
        6000,
        None,
        "Dagger, Throwing",
    )
    assert encounter.state.combatants["a"].weapon_ready


def test_the_last_dagger_thrown_cannot_be_taken_up_again() -> None:
    # count 1: after the only throw the weapon is spent; taking it up is refused
    one: dict[str, TomlValue] = {"weapons": [{"name": "Dagger, Throwing", "hurled": True, "count": 1}]}
    encounter, _ = run(
        duel(one, [6, 0], rolls=[99]),
        Attack(target="b", reason="r"),
        ChangeWeapon(index=0, method="drop_and_grab", reason="r"),
    )
    (refused,) = of_kind(encounter, ActionRefused)
    assert (refused.action, refused.reason) == ("change to weapon 0", "Dagger, Throwing is spent")


def test_an_empty_hand_cannot_throw() -> None:
    encounter, _ = run(
        duel(THROWER, [6, 0], rolls=[99]), Attack(target="b", reason="r"), Attack(target="b", reason="r")
    )
    (refused,) = of_kind(encounter, ActionRefused)
    assert refused.reason == "no usable weapon in hand (Dagger, Throwing)"


# --- changing weapons (E3) -----------------------------------------------------------------------------


def test_drop_and_grab_takes_a_second_plus_the_new_initiative() -> None:
    # rule E3: Dagger, Parrying IN 6, adj 0 -> 1 + 6 = 7 s
    encounter, _ = run(
        duel({"weapons": SWORD_AND_DAGGER}, [50, 0]),
        ChangeWeapon(index=1, method="drop_and_grab", reason="r"),
    )
    (changed,) = of_kind(encounter, WeaponChanged)
    assert (changed.t, changed.took_ms, changed.from_weapon, changed.to_index) == (
        7000,
        7000,
        "Sword, Long",
        1,
    )
    assert (encounter.state.combatants["a"].weapon, encounter.state.combatants["a"].weapon_index) == (
        "Dagger, Parrying",
        1,
    )


def test_put_away_takes_the_initiative_of_each_weapon() -> None:
    # rule E3: Sword, Long IN 10 + Dagger, Parrying IN 6 (adj 0) = 16 s
    encounter, _ = run(
        duel({"weapons": SWORD_AND_DAGGER}, [50, 0]), ChangeWeapon(index=1, method="put_away", reason="r")
    )
    (changed,) = of_kind(encounter, WeaponChanged)
    assert (changed.t, changed.took_ms, changed.method) == (16_000, 16_000, "put_away")


def test_changing_to_the_weapon_in_hand_is_refused() -> None:
    encounter, _ = run(
        duel({"weapons": SWORD_AND_DAGGER}, [50, 0]), ChangeWeapon(index=0, method="put_away", reason="r")
    )
    (refused,) = of_kind(encounter, ActionRefused)
    assert refused.reason == "Sword, Long is already in hand"


def test_changing_to_a_weapon_not_carried_is_refused() -> None:
    encounter, _ = run(duel({}, [50, 0]), ChangeWeapon(index=2, method="put_away", reason="r"))
    (refused,) = of_kind(encounter, ActionRefused)
    assert refused.reason == "there is no weapon number 2"


# --- waiting and aiming --------------------------------------------------------------------------------


def test_wait_emits_waited_and_passes_the_time() -> None:
    encounter, script = run(duel({}, [50, 0]), Wait(seconds=3, reason="hold"))
    (waited,) = of_kind(encounter, Waited)
    assert (waited.t, waited.seconds, waited.reason) == (0, 3, "hold")
    assert [view.now for view in script.views] == [0, 3000]


def test_aiming_again_at_the_same_target_starts_no_new_aim() -> None:
    # rule E17: the aim keeps running while the aimer holds still at the same target
    encounter, script = run(
        duel({"weapons": [{"name": "Crossbow, Light"}]}, [0, 50]),
        Aim(target="b", seconds=2, reason="r"),
        Aim(target="b", seconds=3, reason="r"),
    )
    (started,) = of_kind(encounter, AimStarted)
    assert (started.t, started.weapon) == (0, "Crossbow, Light")
    assert (script.views[-1].now, script.views[-1].me.aim_since_ms) == (5000, 0)


def test_aiming_a_melee_weapon_is_refused() -> None:
    # rule E17: aiming belongs to missile and hurled weapons; a long sword has nothing to aim
    encounter, _ = run(duel({}, [0, 50]), Aim(target="b", seconds=2, reason="r"))
    assert of_kind(encounter, AimStarted) == []
    (refused,) = of_kind(encounter, ActionRefused)
    assert (refused.action, refused.reason) == (
        "aim at b",
        "Sword, Long is not a ready missile or hurled weapon",
    )


# --- the archers example -------------------------------------------------------------------------------


def test_archers_example_verifies() -> None:
    found = verdict(read(example_log("archers")))
    assert found.ok, found.message


def test_archers_example_changes_weapons_aims_shoots_and_throws() -> None:
    events = read(example_log("archers")).events
    modes = {e.hit.ranged.mode for e in events if isinstance(e, AttackResolved) and e.hit.ranged is not None}
    assert any(isinstance(e, WeaponChanged) for e in events)
    assert any(isinstance(e, AimStarted) for e in events)
    assert modes == {"missile", "hurled"}


def test_archers_example_ranged_damage_carries_the_range_factor() -> None:
    events = read(example_log("archers")).events
    shots = [e for e in events if isinstance(e, AttackResolved) and e.hit.ranged and e.damage]
    assert shots
    for e in shots:
        assert e.damage is not None
        assert e.hit.ranged is not None
        assert e.damage.range_factor == e.hit.ranged.range_factor
        assert e.hit.ranged.range_factor in {Decimal(f) for f in ("1.1", "1.0", "0.9", "0.8", "0.7")}
