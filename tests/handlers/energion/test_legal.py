"""The intents an Energion combatant is offered: its fixed menu (affray/handlers/energion/repertoire.py),
and the ones the rules would carry out now (legal.py's checks), read where a fight puts it.

Each situation is reached by playing a small scenario step by step: the combatant under test is
``external``, and each question it is asked records what it sees and the legal intents before it is
answered; the other combatants follow scripts. Everyone is prepared with stats of 100 unless a test says
otherwise, so each acts from t = 0 in file order.
"""

from __future__ import annotations

import importlib
import random
import sys
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import msgspec
import pytest
import tomli_w
from hypothesis import given

from affray import rulesets
from affray.events.energion.kinds import IntentChosen
from affray.events.shared import ActionRefused
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.repertoire import menu, menu_for
from affray.handlers.energion.scenario import EnergionScenario
from affray.kernel.encounter import Encounter
from affray.kernel.space import distance
from affray.npc.energion.intents import (
    Aim,
    Approach,
    Attack,
    BreakHold,
    ChangeWeapon,
    Charge,
    Flee,
    Grapple,
    Intent,
    Surrender,
    Wait,
)
from affray.npc.energion.view import View
from tests.handlers.energion import Script, TomlValue, fighter, scenario
from tests.strategies import seeds

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

HAND: list[TomlValue] = [{"name": "Hand"}]
CROSSBOW: list[TomlValue] = [{"name": "Crossbow, Light"}]
SWORD_AND_DAGGER: list[TomlValue] = [{"name": "Sword, Long"}, {"name": "Dagger, Parrying"}]


def dagger(count: int) -> list[TomlValue]:
    return [{"name": "Dagger, Throwing", "class": "Daggers", "hurled": True, "count": count}]


def attack(target: str = "b", arm: int | None = None) -> Attack:
    return Attack(target=target, reason="", arm=arm)


def approach(target: str = "b") -> Approach:
    return Approach(target=target, reason="")


def aim(target: str = "b") -> Aim:
    return Aim(target=target, seconds=1, reason="")


def change(index: int, method: str = "drop_and_grab") -> ChangeWeapon:
    return msgspec.convert({"index": index, "method": method, "reason": ""}, ChangeWeapon)


@dataclass(frozen=True)
class Asked:
    """One question to the combatant under test: what it saw, the intents it was offered, and how far
    each other combatant was then (``view.look`` shows a combatant as it is when called)."""

    view: View
    legal: tuple[Intent, ...]
    gaps: dict[str, Decimal]

    @property
    def gap(self) -> Decimal:
        """How far ``b`` was."""
        return self.gaps["b"]


Answer = Callable[[Asked], object]


def play(
    built: EnergionScenario, answer: Answer, **scripts: list[Intent]
) -> tuple[Encounter[Any], list[Asked]]:
    """Run ``built`` step by step: each question to an ``external`` combatant is kept and answered by
    ``answer``; each combatant in ``scripts`` plays its intents, then stands idle."""
    battle = EnergionBattle(built)
    for combatant, intents in scripts.items():
        battle.controllers[combatant] = Script(*intents)
    stepped = battle.step_outside()
    encounter = battle.start()
    asked: list[Asked] = []
    while not encounter.finished.processed:
        if stepped.waiting is None:
            encounter.step()
            continue
        _, offer = stepped.waiting
        view = offer.view()
        gaps = {c.id: distance(view.me.position, c.position) for c in encounter.state.combatants.values()}
        asked.append(Asked(view, offer.legal(), gaps))
        stepped.answer(answer(asked[-1]))
    battle.close(encounter)
    return encounter, asked


def first(*intents: Intent) -> Answer:
    """Answer with the first of ``intents`` that is legal; nothing more when none is."""
    return lambda asked: next((i for i in intents if i in asked.legal), None)


def a(**fields: TomlValue) -> dict[str, TomlValue]:
    """``a``, played from outside, at the origin."""
    return fighter("a", "ford", controller="external", prepared=True, **fields)


def b(position: list[TomlValue], **fields: TomlValue) -> dict[str, TomlValue]:
    return fighter("b", "raiders", prepared=True, position=position, **fields)


# --- the menu -------------------------------------------------------------------------------------------


def test_a_swordsmans_menu_lists_each_intent_at_each_enemy_then_the_rest() -> None:
    battle = EnergionBattle(scenario(a(), b([3, 0]), fighter("c", "raiders", position=[0, 9])))
    assert menu_for(battle.loadouts, "a") == (
        *(attack("b"), approach("b"), Charge(target="b", reason=""), Flee(target="b", reason=""), aim("b")),
        *(attack("c"), approach("c"), Charge(target="c", reason=""), Flee(target="c", reason=""), aim("c")),
        change(0),
        change(0, "put_away"),
        Wait(seconds=1, reason=""),
        BreakHold(reason=""),
        Surrender(reason=""),
    )


def test_a_martial_artists_menu_offers_each_martial_arm_and_grapple() -> None:
    kicker = a(weapons=[{"name": "Foot"}, {"name": "Hand"}], martial_arts_level=5, grapples=["Double Kick"])
    battle = EnergionBattle(scenario(kicker, b([1, 0])))
    offered = menu(battle.loadouts["a"], ("b",))
    assert offered[:4] == (attack(), attack(arm=0), attack(arm=1), approach())
    assert Grapple(procedure="Double Kick", target="b", reason="") in offered


def test_the_legal_intents_keep_the_menus_order_at_every_decision() -> None:
    """The menu is fixed for the run (an agent's actions): every offer is the same menu, filtered."""
    built = scenario(a(weapons=SWORD_AND_DAGGER), b([5, 0]), max_seconds=40)
    rng = random.Random(3)
    _, asked = play(built, lambda asked: rng.choice([i for i in asked.legal if not isinstance(i, Surrender)]))
    full = menu_for(EnergionBattle(built).loadouts, "a")
    assert len(asked) > 5
    for one in asked:
        assert [intent for intent in full if intent in one.legal] == list(one.legal)


# --- held: only breaking the hold (E15) -----------------------------------------------------------------


def test_a_held_combatant_may_only_try_to_break_the_hold() -> None:
    # rule E15: b's hold down (60% - roll 10 = quality 50) is not avoided (parry roll 50 > 49): a is held
    grappler = fighter("b", "raiders", prepared=True, position=[1, 0], weapons=HAND, grapples=["Hold Down"])
    defender = a(weapons=HAND, parry=40, shield="Buckler")
    held = scenario(grappler, defender, rolls=[10, 50], max_seconds=3)
    encounter, asked = play(
        held, lambda asked: None, b=[Grapple(procedure="Hold Down", target="a", reason="")]
    )
    assert encounter.state.combatants["a"].held_by == "b"
    assert [(one.view.me.held_by, one.legal) for one in asked] == [("b", (BreakHold(reason=""),))]


def test_breaking_a_hold_is_not_legal_when_not_held() -> None:
    _, asked = play(scenario(a(), b([3, 0])), lambda asked: None)
    assert BreakHold(reason="") not in asked[0].legal


# --- reach and range (E8, E10, E21) ---------------------------------------------------------------------


def test_a_blow_is_legal_within_reach_and_an_approach_only_beyond_it() -> None:
    # a long sword reaches 1 m; a moves 3 m a second and stops at reach
    _, asked = play(scenario(a(), b([3, 0])), first(attack(), approach()), b=[])
    assert [(one.gap, attack() in one.legal, approach() in one.legal) for one in asked[:2]] == [
        (Decimal(3), False, True),
        (Decimal(1), True, False),
    ]


def test_a_charge_is_legal_beyond_reach_with_a_melee_weapon_in_hand() -> None:
    charge = Charge(target="b", reason="")
    _, asked = play(scenario(a(), b([3, 0])), first(approach()), b=[])
    assert [(one.gap, charge in one.legal) for one in asked[:2]] == [(Decimal(3), True), (Decimal(1), False)]


def test_a_charge_is_not_legal_when_its_strike_on_arrival_is_barred() -> None:
    """Rule E20 (ruling 40): b's right arm is made unusable at 0 s (arm share 20 % of 10 = 2; 60 - 8 - 2 =
    50 -> x0.6 of 4 = 2.4 >= 2 at location 55); a then steps back out of reach. b's blow is not legal;
    neither is a charge, whose strike on arrival the rules refuse as they refuse the blow."""
    b_ = fighter(
        "b", "raiders", controller="external", prepared=True, position=[1, 0], weapons=HAND, damage_points=10
    )
    a_ = fighter("a", "ford", prepared=True, weapons=HAND)
    built = scenario(b_, a_, rolls=[2, 55], max_seconds=4, options={"hit_locations": True})
    encounter, asked = play(
        built, first(Wait(seconds=1, reason="")), a=[attack(), Flee(target="b", reason="")]
    )
    assert "right arm" in encounter.state.combatants["b"].disabled
    beyond = next(one for one in asked if one.gaps["a"] > 1)
    assert attack("a") not in beyond.legal
    assert Charge(target="a", reason="") not in beyond.legal


def test_a_shot_and_an_aim_are_legal_within_a_ready_missile_weapons_range() -> None:
    _, asked = play(scenario(a(weapons=CROSSBOW), b([6, 0])), lambda asked: None)
    assert {attack(), aim()} <= set(asked[0].legal)


def test_no_shot_nor_aim_is_legal_beyond_the_last_range_band() -> None:
    # rule E8: the light crossbow's EXT limit is 210 m
    _, asked = play(scenario(a(weapons=CROSSBOW), b([0, 250])), lambda asked: None)
    assert attack() not in asked[0].legal
    assert aim() not in asked[0].legal
    assert approach() in asked[0].legal


def test_aiming_is_not_legal_with_a_melee_weapon() -> None:
    _, asked = play(scenario(a(), b([6, 0])), lambda asked: None)
    assert aim() not in asked[0].legal


def test_a_shot_at_a_target_wholly_behind_stable_cover_is_not_legal() -> None:
    # rule E16: 100 % stable cover hides it wholly
    _, asked = play(scenario(a(weapons=CROSSBOW), b([6, 0], cover=100)), lambda asked: None)
    assert attack() not in asked[0].legal


def test_a_shot_at_a_target_in_random_cover_is_legal_the_part_presented_is_rolled() -> None:
    _, asked = play(scenario(a(weapons=CROSSBOW), b([6, 0], cover=60, random_cover=True)), lambda asked: None)
    assert attack() in asked[0].legal


def test_a_shot_at_a_target_wholly_behind_random_cover_is_not_legal() -> None:
    """Full cover leaves no part to present, whatever the roll: the shot is always refused."""
    _, asked = play(
        scenario(a(weapons=CROSSBOW), b([6, 0], cover=100, random_cover=True)), lambda asked: None
    )
    assert attack() not in asked[0].legal


# --- weapons (E3, E17) ----------------------------------------------------------------------------------


def test_a_spent_weapon_can_neither_strike_nor_be_taken_up() -> None:
    # one throwing dagger: thrown at the first decision (roll 99, a miss), it is spent
    _, asked = play(scenario(a(weapons=dagger(1)), b([6, 0]), rolls=[99]), first(attack()), b=[])
    assert attack() in asked[0].legal
    assert [intent for intent in asked[1].legal if isinstance(intent, Attack | Aim | ChangeWeapon)] == []


def test_an_empty_hand_may_take_up_the_next_dagger_but_not_throw_or_aim() -> None:
    # two throwing daggers: after the first throw the hand is empty, one is left to take up
    _, asked = play(scenario(a(weapons=dagger(2)), b([6, 0]), rolls=[99]), first(attack()), b=[])
    after = asked[1]
    assert (after.view.me.weapon_ready, after.view.arm.uses_left) == (False, 1)
    assert attack() not in after.legal
    assert aim() not in after.legal
    assert {change(0), change(0, "put_away")} <= set(after.legal)


def test_a_missile_weapon_without_ammunition_can_neither_shoot_nor_aim() -> None:
    # one bolt: shot at the first decision (roll 99, a miss); the crossbow stays in hand, ready, empty
    one_bolt: list[TomlValue] = [{"name": "Crossbow, Light", "ammunition": 1}]
    _, asked = play(scenario(a(weapons=one_bolt), b([6, 0]), rolls=[99]), first(attack()), b=[])
    assert {attack(), aim()} <= set(asked[0].legal)
    after = asked[1]
    assert (after.view.me.weapon_ready, after.view.arm.uses_left) == (True, 0)
    assert attack() not in after.legal
    assert aim() not in after.legal


def test_changing_to_the_weapon_in_hand_is_not_legal_and_to_another_is() -> None:
    _, asked = play(scenario(a(weapons=SWORD_AND_DAGGER), b([50, 0])), lambda asked: None)
    changes = [intent for intent in asked[0].legal if isinstance(intent, ChangeWeapon)]
    assert changes == [change(1), change(1, "put_away")]


def test_intents_at_a_combatant_who_is_out_are_not_legal() -> None:
    # b surrenders at 0 s; c, the other raider, stands on
    c = fighter("c", "raiders", prepared=True, position=[0, 9])
    encounter, asked = play(
        scenario(a(), b([3, 0]), c, max_seconds=5),
        first(Wait(seconds=1, reason="")),
        b=[Surrender(reason="r")],
    )
    assert encounter.state.combatants["b"].out
    later = asked[-1]
    assert later.view.now > 0
    assert [i for i in later.legal if getattr(i, "target", None) == "b"] == []
    assert Flee(target="c", reason="") in later.legal


# --- the examples: whatever legal() offers, the rules carry out ------------------------------------------

ROLLED = ("malfunction: ", "recovering from a kick: AGbonus roll ")
"""The starts of the refusals that a roll decides (legal.py's docstring: S5, E13); a shot at a part
presented in random cover (E16) is refused as "wholly behind cover", allowed below only when the target
moves through random cover."""

RANDOM_LEGAL = """\
import random

from affray.npc.energion.intents import Flee, Surrender


class RandomLegal:
    \"\"\"Any legal intent, at random from the seat's own seed; never a flight or surrender while anything
    else is legal (neither can be refused, and both end a fight early).\"\"\"

    def __init__(self, seat):
        self.rng = random.Random(seat.seed)

    def decide(self, view, legal):
        picks = [i for i in legal if not isinstance(i, Flee | Surrender)] or list(legal)
        return self.rng.choice(picks)


def make(seat):
    return RandomLegal(seat)
"""


def _examples() -> list[str]:
    """The Energion examples whose dice are generated (a manual one runs out of rolls)."""
    names = []
    for path in sorted(EXAMPLES.glob("*.toml")):
        raw = tomllib.loads(path.read_text())
        if raw.get("ruleset") == "energion" and raw.get("dice", {}).get("source", "generated") == "generated":
            names.append(path.stem)
    return names


class Played(dict[str, EnergionScenario]):
    """The examples played at random, by name (shown by name only when a property fails)."""

    def __repr__(self) -> str:
        return f"Played({', '.join(self)})"


@pytest.fixture(scope="module")
def randomly_played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """Each example with every combatant played by a controller picking a random legal intent, written
    next to the controller's module and read as ``affray run`` reads it."""
    folder = tmp_path_factory.mktemp("random-legal")
    (folder / "legal_at_random.py").write_text(RANDOM_LEGAL)
    importlib.invalidate_caches()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "path", list(sys.path))
        found = Played()
        for name in _examples():
            raw: dict[str, Any] = tomllib.loads((EXAMPLES / f"{name}.toml").read_text())
            for combatant in raw["combatants"]:
                combatant["controller"] = "legal_at_random:make"
            path = folder / f"{name}.toml"
            path.write_text(tomli_w.dumps(raw))
            found[name] = rulesets.load_scenario(path)[1]
        yield found
    sys.modules.pop("legal_at_random", None)


def refused_after_a_decision(built: EnergionScenario) -> list[str]:
    """Each refusal, at the instant of the decision, of an intent its controller chose from the legal
    ones, but for those a roll decides: the scenario, seed, seq, intent and reason. (A charge strikes a
    second later, on arrival: what that second did is not the decision's. A strike already barred when
    the charge is chosen is tested above.)"""
    log = EnergionBattle(built).run().log
    chosen: dict[str, IntentChosen] = {}
    found = []
    for event in log:
        if isinstance(event, IntentChosen):
            chosen[event.combatant] = event
        elif isinstance(event, ActionRefused) and event.combatant in chosen:
            decided = chosen[event.combatant]
            if decided.t != event.t:
                continue
            target = getattr(decided.intent, "target", None)
            random_cover = target is not None and _spec(built, target).random_cover
            if event.reason.startswith(ROLLED) or (random_cover and event.reason.endswith("behind cover")):
                continue
            intent = msgspec.json.encode(decided.intent).decode()
            found.append(
                f"{built.name} seed {built.seed}: seq {event.seq} at {event.t} ms refused {intent} "
                f"(chosen at seq {decided.seq}): {event.reason}"
            )
    return found


def _spec(built: EnergionScenario, combatant: str) -> Any:
    return next(c for c in built.combatants if c.id == combatant)


@pytest.mark.parametrize("example", _examples())
@given(seed=seeds)
def test_every_intent_legal_offers_is_carried_out_unless_a_roll_says_otherwise(
    randomly_played: Played, example: str, seed: int
) -> None:
    built = msgspec.structs.replace(randomly_played[example], seed=seed)
    refused = refused_after_a_decision(built)
    assert not refused, "\n".join(refused)


def test_a_random_legal_fight_of_each_example_is_decided_by_its_outside_controllers(
    randomly_played: Played,
) -> None:
    """The property above is not empty: the examples' fights are played by the random controller."""
    for name, built in randomly_played.items():
        log = EnergionBattle(built).run().log
        fighting = {c.id for c in built.combatants if c.kind != "computer"}
        assert {e.combatant for e in log if isinstance(e, IntentChosen)} == fighting, name
