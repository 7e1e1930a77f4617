"""The tactician with a slow missile weapon against enemies coming on (rules E1, E3, E17): it shoots once
the gap is aimed when the extra aim would come too late, and meets a charge it cannot outshoot with its
melee weapon, grabbed in time."""

from __future__ import annotations

from decimal import Decimal

import pytest

from affray.events.energion.kinds import AttackResolved, WeaponChanged
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import EnergionScenario, decode_scenario

SEEDS = range(1, 11)


def hill(seed: int, *, pace: int = 5, ammunition: int = 8) -> EnergionScenario:
    """A heavy crossbowman (8 bolts, a short sword at hand) behind 50 % cover, and two raiders charging
    from 41 and 46 m at ``pace`` m/s."""
    raiders = "".join(
        f'[[combatants]]\nid = "{id}"\nname = "{id}"\nside = "raiders"\ncontroller = "tactician"\n'
        f"position = [{x}, {y}]\ndamage_points = 30\nskill = 60\nstats = {{ ST = 110, AG = 100, CO = 110 }}\n"
        f'weapons = [{{ name = "{weapon}" }}]\narmor = "Leather Suit"\nmove_rate = {pace}\n\n'
        for id, x, y, weapon in (("ulf", 0, 41, "Axe, hand"), ("orm", 5, 46, "Sword, Long"))
    )
    text = f"""\
ruleset = "energion"
seed = {seed}
max_seconds = 240

[[combatants]]
id = "bolt"
name = "Bolt"
side = "hill"
controller = "tactician"
position = [0, 0]
damage_points = 30
skill = 70
stats = {{ ST = 110, AG = 105, CO = 120 }}
weapons = [
  {{ name = "Crossbow, Heavy", readiness = "in_hand", ammunition = {ammunition} }},
  {{ name = "Sword, Short", readiness = "at_hand" }},
]
armor = "Leather Suit"
cover = 50
perception = 0
reaction = 1

{raiders}"""
    return decode_scenario(text, "hill.toml")


def dealt_by_bolt(seed: int) -> Decimal:
    log = EnergionBattle(hill(seed)).run().log
    return sum(
        (e.damage.damage for e in log if isinstance(e, AttackResolved) and e.attacker == "bolt" and e.damage),
        Decimal(0),
    )


def test_the_crossbowman_deals_damage_in_most_seeds() -> None:
    # issue 24 item 6: he used to aim "15 s more" until the raiders were on him, and never struck
    dealing = [seed for seed in SEEDS if dealt_by_bolt(seed) > 0]
    assert len(dealing) >= 7, dealing


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_charge_he_cannot_outshoot_is_met_with_the_sword_grabbed_before_it_arrives(seed: int) -> None:
    # the bolt needs 13.333 s of aim (the heavy crossbow's gap, E17); raiders at 5 m/s arrive in ~8 s:
    # he drops the crossbow and grabs the sword (E3: 1 s + its initiative) as soon as he sees them come on
    log = EnergionBattle(hill(seed)).run().log
    change = next(e for e in log if isinstance(e, WeaponChanged) and e.combatant == "bolt")
    first_blow = next(e for e in log if isinstance(e, AttackResolved) and e.target == "bolt")
    assert (change.to_weapon, change.t - change.took_ms < first_blow.t) == ("Sword, Short", True)


def test_a_target_too_slow_to_arrive_is_shot_once_aimed() -> None:
    # raiders walking at 1 m/s take 40 s to arrive: the first bolt flies once aimed, and hits or misses
    log = EnergionBattle(hill(1, pace=1)).run().log
    shots = [e for e in log if isinstance(e, AttackResolved) and e.attacker == "bolt" and e.hit.ranged]
    assert shots
    first = shots[0].hit.ranged
    assert first is not None
    assert first.unaimed_penalty == 0
