"""The tactician's tactics: flee when badly hurt, parry when outmatched (rulings 47, 48), charge when fast
(rule E21, ruling 28), and wait for a target in full cover to shoot (rule E16)."""

from __future__ import annotations

from decimal import Decimal

from affray.events.energion.kinds import AttackResolved, TargetChosen
from affray.events.energion.state import EnergionCombatant, EnergionState
from affray.events.shared import CombatantOut
from affray.handlers.energion.battle import EnergionBattle
from affray.npc.energion.intents import Aim, Approach, Attack, Charge, Flee, Intent, Surrender, Wait
from affray.npc.energion.tactician import Tactician
from affray.npc.energion.view import View
from tests.handlers.energion import fighter, scenario
from tests.npc.energion import BOW, SWORD, view_of

WITH_SWORD = 1


class Idle:
    """A controller that does nothing."""

    name = "idle"

    def decide(self, view: View) -> Intent | None:
        return None


WITH_BOW = 0


def person(id: str, side: str, y: str, **fields: object) -> EnergionCombatant:
    """A 40 DP combatant at (0, ``y``) with its weapon ready."""
    values: dict[str, object] = {"weapon_ready": True, "readied": True, **fields}
    return EnergionCombatant(
        id=id,
        name=id.title(),
        side=side,
        damage_points=Decimal(40),
        position=(Decimal(0), Decimal(y)),
        weapon="Sword, Long",
        armor="Cloth",
        **values,  # type: ignore[arg-type]
    )


def decide(
    gap: str,
    *,
    taken: str = "0",
    foe_taken: str = "0",
    foe: dict[str, object] | None = None,
    weapon: int = WITH_SWORD,
    pace: str = "3",
    parries: bool = True,
    grapples: tuple[str, ...] = (),
    now: int = 0,
    **me_fields: object,
) -> Intent | None:
    """What ``me`` at the origin, having taken ``taken`` DP, does against ``foe`` ``gap`` metres away."""
    me = person("me", "wall", "0", damage_taken=Decimal(taken), weapon_index=weapon, **me_fields)
    other = person("foe", "raiders", gap, damage_taken=Decimal(foe_taken), **(foe or {}))
    state = EnergionState(combatants={"me": me, "foe": other})
    view = view_of(
        me,
        state,
        arms=(BOW, SWORD),
        now=now,
        pace=Decimal(pace),
        parries=parries,
        grapples=grapples,
    )
    return Tactician().decide(view)


# --- fleeing (ruling 48) -------------------------------------------------------------------------------


def test_flees_at_a_quarter_of_its_damage_points() -> None:
    # ruling 48: 40 - 30 = 10 left <= 40 x 0.25 = 10 -> flee from the nearest enemy
    intent = decide("1", taken="30")
    assert intent == Flee(target="foe", reason="badly hurt (10/40 DP): flee")


def test_does_not_flee_above_a_quarter_of_its_damage_points() -> None:
    # ruling 48: 40 - 29.9 = 10.1 > 10 -> it fights on (the foe has 40 > 10.1 left: it parries, ruling 47)
    assert not isinstance(decide("1", taken="29.9"), Flee)


def test_flees_from_afar_as_well() -> None:
    # ruling 48: the distance does not matter; 60 m off with the bow in hand, 8 DP left of 40
    intent = decide("60", taken="32", weapon=WITH_BOW)
    assert isinstance(intent, Flee)
    assert intent.target == "foe"


def chase(tactician: Tactician, gaps: list[str]) -> list[Intent | None]:
    """What a badly hurt ``me`` (8 of 40 DP left) decides at 0 s, 1 s, ... with its foe at each gap."""
    intents = []
    for second, gap in enumerate(gaps):
        me = person("me", "wall", "0", damage_taken=Decimal(32), weapon_index=WITH_SWORD)
        state = EnergionState(
            combatants={"me": me, "foe": person("foe", "raiders", gap)}, field_version=second
        )
        view = view_of(me, state, arms=(BOW, SWORD), now=second * 1000, pace=Decimal(3), parries=True)
        intents.append(tactician.decide(view))
    return intents


def test_a_flight_gaining_no_ground_for_ten_seconds_surrenders() -> None:
    # ruling 48: the gap stays 2 m (the foe as fast as it): at 10 s the flight has gained no ground
    intents = chase(Tactician(), ["2"] * 11)
    assert all(isinstance(intent, Flee) for intent in intents[:10])
    assert intents[10] == Surrender(reason="gained no ground on foe in 10 s of flight")


def test_a_flight_that_opens_a_metre_goes_on() -> None:
    # ruling 48: 2 m, then 3 m at 9 s (a metre gained): 10 s more from then before it gives up
    intents = chase(Tactician(), ["2"] * 9 + ["3"] * 10)
    assert all(isinstance(intent, Flee) for intent in intents)


def test_a_cornered_tactician_that_stands_fights_on_and_flees_no_more() -> None:
    # ruling 48 (cornered = "stand"): at 10 s it turns on the foe 2 m off: sword in hand, it closes in
    tactician = Tactician(cornered="stand")
    intents = chase(tactician, ["2"] * 11 + ["5"])
    assert all(isinstance(intent, Flee) for intent in intents[:10])
    assert not isinstance(intents[10], Flee | Surrender)
    assert not isinstance(intents[11], Flee | Surrender)


def test_a_chased_archer_surrenders_rather_than_flee_to_the_time_limit() -> None:
    # ruling 48: both tacticians at 3 m/s; the hurt archer runs, the brute keeps pace, and 10 s on she
    # gives up: the fight ends with a winner long before its 600 s
    built = scenario(
        fighter("archer", "wall", damage_points=24, controller="tactician"),
        fighter("brute", "raiders", damage_points=60, skill=70, position=[1, 0], controller="tactician"),
        max_seconds=600,
    )
    encounter = EnergionBattle(built).run()
    out = [e for e in encounter.log if isinstance(e, CombatantOut)]
    assert [(e.combatant, e.reason) for e in out] == [
        ("archer", "surrendered: gained no ground on brute in 10 s of flight")
    ]
    assert encounter.state.winner == "raiders"
    assert encounter.state.t < 120_000


def test_a_chased_archer_who_stands_fights_it_out() -> None:
    # ruling 48 (cornered = "stand"): the same chase, but she turns and fights until one of them falls
    built = scenario(
        fighter("archer", "wall", damage_points=24, controller="tactician", cornered="stand"),
        fighter("brute", "raiders", damage_points=60, skill=70, position=[1, 0], controller="tactician"),
        max_seconds=600,
    )
    encounter = EnergionBattle(built).run()
    out = [e for e in encounter.log if isinstance(e, CombatantOut)]
    assert len(out) == 1
    assert not out[0].reason.startswith(("surrendered", "fled"))
    assert encounter.state.winner is not None


# --- parrying rather than striking when outmatched (ruling 47) -----------------------------------------


def test_waits_to_parry_when_outmatched() -> None:
    # ruling 47: 40 - 21 = 19 left, 19 x 2 = 38 < 40; the foe has 40 > 19; within reach 1 m, its weapon ready;
    # it can parry -> hold back to keep the weapon free to parry
    intent = decide("1", taken="21")
    assert intent == Wait(seconds=1, reason="outmatched (19 DP to 40): parry rather than strike")


def test_strikes_at_exactly_half_its_damage_points() -> None:
    # ruling 47: "below half": 20 left, 20 x 2 = 40, not < 40 -> strike
    assert isinstance(decide("1", taken="20"), Attack)


def test_strikes_when_the_foe_has_no_more_left() -> None:
    # ruling 47: 19 left against a foe with 40 - 21 = 19 left: not more -> strike
    assert isinstance(decide("1", taken="21", foe_taken="21"), Attack)


def test_strikes_when_outmatched_but_unable_to_parry() -> None:
    # ruling 47: no shield, no parrying weapon, no parry of its own -> holding back gains nothing
    assert isinstance(decide("1", taken="21", parries=False), Attack)


def test_does_not_wait_to_parry_a_foe_without_a_ready_weapon() -> None:
    # ruling 47: the foe's weapon is not ready: nothing to parry yet -> strike
    assert isinstance(decide("1", taken="21", foe={"weapon_ready": False}), Attack)


def test_does_not_wait_to_parry_a_foe_out_of_reach() -> None:
    # ruling 47: 3 m is beyond the sword's 1 m reach -> close in
    assert isinstance(decide("3", taken="21"), Approach)


# --- charging (E21, ruling 28) -------------------------------------------------------------------------


def test_charges_with_a_pace_above_4_metres_a_second() -> None:
    # rule E21 (ruling 28): at 5 m/s the multiple 5/4 = 1.25 exceeds 1 -> charge rather than approach
    intent = decide("5", pace="5")
    assert intent == Charge(target="foe", reason="charge foe, 5.000 m away, at 5 m/s")


def test_approaches_at_a_pace_of_4_metres_a_second() -> None:
    # rule E21: 4/4 = x1, no bonus -> an ordinary approach
    assert isinstance(decide("5", pace="4"), Approach)


def test_a_grappler_approaches_rather_than_charges() -> None:
    # ruling 28: a combatant with grappling procedures closes in to grapple, not to strike at a run
    assert isinstance(decide("5", pace="8", grapples=("Tackle",)), Approach)


def test_strikes_rather_than_charges_within_reach() -> None:
    assert isinstance(decide("1", pace="8"), Attack)


def test_charges_in_a_real_battle() -> None:
    # rule E21: a tactician at 8 m/s with a long sword, b 9 m off: charge -> 8 m in the second -> strike at
    # 1 s with 8 m/s / 4 = x2 (roll 10: 60 - 1 - 10 = 49 -> x0.5 of 18 = 9 -> 18)
    built = scenario(
        fighter("a", "ford", prepared=True, controller="tactician", move_rate=8),
        fighter("b", "raiders", prepared=True, position=[9, 0]),
        rolls=[10],
        max_seconds=2,
    )
    battle = EnergionBattle(built)
    battle.controllers["b"] = Idle()
    encounter = battle.run()
    chosen = [e for e in encounter.log if isinstance(e, TargetChosen) and e.combatant == "a"]
    (blow,) = [e for e in encounter.log if isinstance(e, AttackResolved)]
    assert chosen[0].reason == "charge b, 9.000 m away, at 8.000 m/s"
    assert blow.damage is not None
    assert (blow.t, blow.damage.charge_multiple, blow.damage.damage) == (1000, Decimal(2), Decimal(18))


# --- a target in full cover (E16) ----------------------------------------------------------------------


def test_aims_at_a_target_in_full_cover_waiting_for_it_to_shoot() -> None:
    # rule E16: cover 100 and no attack of its own -> no shot can be made; keep aiming a second at a time
    intent = decide("30", weapon=WITH_BOW, foe={"cover": 100})
    assert intent == Aim(target="foe", seconds=1, reason="foe is in full cover: wait for it to shoot")


def test_shoots_at_a_target_in_full_cover_in_the_second_of_its_own_shot() -> None:
    # rule E16: the foe shot at 4 s; at 4.999 s it is still exposed; aimed 3 s (the 2.5 s gap + 0 at SHT)
    intent = decide(
        "30",
        weapon=WITH_BOW,
        foe={"cover": 100, "attacked_ms": 4000},
        now=4999,
        aim_target="foe",
        aim_since_ms=1999,
    )
    assert isinstance(intent, Attack)


def test_a_target_in_full_cover_is_hidden_again_a_second_after_its_shot() -> None:
    # rule E16: the foe shot at 4 s; at 5 s, 1000 ms later, it is back behind full cover
    intent = decide(
        "30",
        weapon=WITH_BOW,
        foe={"cover": 100, "attacked_ms": 4000},
        now=5000,
        aim_target="foe",
        aim_since_ms=0,
    )
    assert intent == Aim(target="foe", seconds=1, reason="foe is in full cover: wait for it to shoot")


def test_a_target_in_partial_cover_is_aimed_at_as_usual() -> None:
    # rule E16/E17: cover 99 leaves something to shoot at: the usual aim, 2.5 s gap -> 3 s at SHT
    intent = decide("30", weapon=WITH_BOW, foe={"cover": 99})
    assert isinstance(intent, Aim)
    assert "aim 3 s more" in intent.reason
