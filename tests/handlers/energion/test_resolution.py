"""One attack with its rolls fixed: hit roll, parry, damage (rules E1, E5, E6, E7).

Every test uses the same attacker: ST 130, CO 102, skill 60, a long sword (type 2, DMG 18) in hand, so
STbonus 30, CObonus 2; MeleeBonus = 30/2 + 2/4 = 15.5; hit chance 60 + 15.5 = 75.5; DB = 30/20 = 1.5;
D = 18 + 1.5 = 19.5. The defender wears a leather suit: armor value 10 against type 2.
"""

from __future__ import annotations

from decimal import Decimal

from affray.events.energion.kinds import AttackResolved, Reacted, WeaponReadied
from affray.events.energion.state import vocabulary
from affray.events.shared import CombatantOut
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.resolution import resolve_attack
from affray.kernel.dice import Dice, ManualDice
from affray.kernel.encounter import Encounter
from tests.handlers.energion import TomlValue, fighter, scenario

ATTACKER: dict[str, TomlValue] = {"skill": 60, "stats": {"ST": 130, "CO": 102}}


class Bout:
    """An encounter holding an attacker and a defender, joined the way ``EnergionBattle.run`` joins them."""

    def __init__(
        self, rolls: list[int], attacker: dict[str, TomlValue] | None = None, **defender: TomlValue
    ) -> None:
        defender = {"armor": "Leather Suit", "damage_points": 40, "position": [1, 0], **defender}
        self.battle = EnergionBattle(
            scenario(fighter("att", "ford", **(attacker or ATTACKER)), fighter("def", "raiders", **defender))
        )
        self.encounter = Encounter(Dice(ManualDice(rolls)), vocabulary())
        self.battle.join(self.encounter)

    def react(self) -> None:
        """The defender's reaction time has run (rule E1)."""
        self.encounter.emit(Reacted(combatant="def", reaction_ms=0))

    def ready(self) -> None:
        """The defender's weapon in hand is ready (rule E3: in hand, 0 s)."""
        arm = self.battle.loadouts["def"].arms[0]
        self.encounter.emit(
            WeaponReadied(
                combatant="def",
                weapon=arm.weapon.name,
                readiness="in_hand",
                chart_initiative=arm.weapon.initiative,
                chart_speed=arm.weapon.speed,
                speed_adjustment=arm.speed_adjustment,
                initiative_ms=0,
                speed_ms=arm.speed_ms,
            )
        )

    def attack(self, at_ms: int = 0) -> AttackResolved:
        """Let the clock run to ``at_ms``, then the attacker strikes the defender once."""
        if at_ms > self.encounter.now:
            self.encounter.run(until=at_ms)
        att, defender = self.battle.loadouts["att"], self.battle.loadouts["def"]
        return self.encounter.emit(resolve_attack(self.encounter, att, att.arms[0], defender))

    def damage_taken(self) -> Decimal:
        return self.encounter.state.combatants["def"].damage_taken


def test_miss_rolls_no_parry() -> None:
    # rule E6: Small shield -> armor 10 + 20 = 30; roll 66 -> 75.5 - 30 - 66 = -20.5, not positive: a miss.
    # rule E5 (ruling 8): no parry is rolled against a blow that would not land (only one roll is given).
    bout = Bout([66], shield="Small", parry=15)
    bout.react()
    event = bout.attack()
    assert (event.outcome, event.hit.quality, event.parry, event.damage) == (
        "miss",
        Decimal("-20.5"),
        None,
        None,
    )


def test_quality_of_zero_is_a_miss() -> None:
    # rule E6 ("If the number is positive, a hit has been scored"): CO 100 -> hit chance 60 + 15 = 75;
    # roll 65 -> 75 - 10 - 65 = 0 -> a miss
    event = Bout([65], attacker={"skill": 60, "stats": {"ST": 130}}).attack()
    assert (event.hit.quality, event.outcome) == (Decimal(0), "miss")


def test_hit_damage_matches_the_hand_computation() -> None:
    # rules E6, E7: roll 31 -> quality 75.5 - 10 - 31 = 34.5 -> TRUNC(44.5/10) = 4 -> x0.4;
    # D = 18 + 1.5 = 19.5 -> 0.4 * 19.5 = 7.8
    bout = Bout([31])
    event = bout.attack()
    assert event.outcome == "hit"
    assert event.hit.hit_chance == Decimal("75.5")
    assert event.hit.quality == Decimal("34.5")
    assert event.damage is not None
    assert (event.damage.strength_bonus, event.damage.potential) == (Decimal("1.5"), Decimal("19.5"))
    assert (event.damage.multiplier, event.damage.damage) == (Decimal("0.4"), Decimal("7.8"))
    assert bout.damage_taken() == Decimal("7.8")


def test_defender_without_a_parry_chance_rolls_no_parry() -> None:
    # rule E5 (ruling 8): parry 0 + Sword, Long's chart parry 0 = 0 -> nothing to roll (one roll given)
    bout = Bout([31])
    bout.react()
    event = bout.attack()
    assert (event.outcome, event.parry) == ("hit", None)


def test_shield_parries_a_blow_that_would_land() -> None:
    # rule E5: Small shield +20 -> armor 30; roll 20 -> quality 75.5 - 30 - 20 = 25.5 (would land);
    # parry chance 15 + 20 = 35; parry roll 35 <= 35 -> parried, no damage
    bout = Bout([20, 35], shield="Small", parry=15)
    bout.react()
    event = bout.attack()
    assert event.parry is not None
    assert (event.parry.device, event.parry.chance, event.parry.parried) == (
        "shield:Small",
        Decimal(35),
        True,
    )
    assert (event.outcome, event.damage) == ("parried", None)
    assert bout.damage_taken() == 0


def test_parry_roll_above_the_chance_fails() -> None:
    # rule E5: chance 35; parry roll 36 -> fails; quality 25.5 -> TRUNC(35.5/10) = 3 -> 0.3 * 19.5 = 5.85
    bout = Bout([20, 36], shield="Small", parry=15)
    bout.react()
    event = bout.attack()
    assert event.parry is not None
    assert (event.parry.parried, event.outcome) == (False, "hit")
    assert bout.damage_taken() == Decimal("5.85")


def test_weapon_parries_when_there_is_no_shield() -> None:
    # rule E5 (ruling 8): Dagger, Parrying chart parry 20 + own parry 10 = 30; parry roll 30 -> parried;
    # the weapon's gap is its modified speed: SP 4 - 0 = 4 s
    bout = Bout([31, 30], parry=10, weapons=[{"name": "Dagger, Parrying"}])
    bout.react()
    bout.ready()
    event = bout.attack()
    assert event.parry is not None
    assert (event.parry.device, event.parry.chance, event.parry.gap_ms) == (
        "weapon:Dagger, Parrying",
        Decimal(30),
        4000,
    )
    assert event.outcome == "parried"


def test_no_parry_while_the_defender_has_not_reacted() -> None:
    # rule E1 (ruling 8): reaction time runs after perception; before it the defender cannot parry.
    # roll 20 -> quality 25.5 -> x0.3 -> 5.85 damage (only one roll is given)
    bout = Bout([20], shield="Small", parry=15)
    event = bout.attack()
    assert (event.parry, event.outcome) == (None, "hit")
    assert bout.damage_taken() == Decimal("5.85")


def test_out_defender_does_not_parry() -> None:
    # rule E5 (ruling 8): a defender who is out has no reactions (only one roll is given)
    bout = Bout([20], shield="Small", parry=15)
    bout.react()
    bout.encounter.emit(CombatantOut(combatant="def", reason="test"))
    event = bout.attack()
    assert (event.parry, event.outcome) == (None, "hit")


def test_second_parry_within_the_gap_is_not_allowed() -> None:
    # rule E5: Small shield speed 4, 1H adj 0 -> gap 4 s. A parry tried at 0 ms (roll 90 > 35, fails);
    # at 3999 ms the shield is not free again: no parry roll (three rolls given), the blow lands
    bout = Bout([20, 90, 20], shield="Small", parry=15)
    bout.react()
    first = bout.attack()
    second = bout.attack(at_ms=3999)
    assert first.parry is not None
    assert first.parry.gap_ms == 4000
    assert (second.parry, second.outcome) == (None, "hit")


def test_shield_parries_again_once_its_gap_has_run() -> None:
    # rule E5: gap 4 s; parry tried at 0 ms (fails), at 4000 ms the shield parries again (roll 35 <= 35)
    bout = Bout([20, 90, 20, 35], shield="Small", parry=15)
    bout.react()
    bout.attack()
    second = bout.attack(at_ms=4000)
    assert second.parry is not None
    assert second.outcome == "parried"


def test_force_field_parries_again_after_two_seconds() -> None:
    # rule E5 (ruling 9): a Large force field: parry 15 + 40 = 55, armor 10 + 40 = 50; gap 2 s (1H adj 0),
    # not the Large shield's 8 s. Roll 5 -> 75.5 - 50 - 5 = 20.5 (would land); parry 90 > 55 fails at
    # 0 ms; at 2000 ms the force field parries again (roll 55 <= 55)
    bout = Bout([5, 90, 5, 55], shield="Large", force_field=True, parry=15)
    bout.react()
    first = bout.attack()
    second = bout.attack(at_ms=2000)
    assert first.parry is not None
    assert (first.hit.shield_bonus, first.parry.device, first.parry.gap_ms) == (
        40,
        "shield:Large force field",
        2000,
    )
    assert second.outcome == "parried"


def test_shield_parry_plus_adds_to_armor_value() -> None:
    # rule E5 ("The plus to parry also applies to the character's basic armor class"): Leather Suit 10
    # + Small shield 20 = 30; roll 31 -> 75.5 - 30 - 31 = 14.5 -> TRUNC(24.5/10) = 2 -> 0.2 * 19.5 = 3.9
    bout = Bout([31], shield="Small")
    event = bout.attack()
    assert (event.hit.armor_value, event.hit.shield_bonus, event.hit.quality) == (10, 20, Decimal("14.5"))
    assert event.damage is not None
    assert event.damage.damage == Decimal("3.9")


def test_weapon_not_yet_ready_does_not_parry() -> None:
    # rule E3 / E5: a weapon parries only once it is ready; reacted but not readied -> no parry roll
    # (one roll given); roll 31 -> quality 34.5 -> x0.4 * 19.5 = 7.8
    bout = Bout([31], parry=10, weapons=[{"name": "Dagger, Parrying"}])
    bout.react()
    event = bout.attack()
    assert (event.parry, event.outcome) == (None, "hit")
    assert bout.damage_taken() == Decimal("7.8")


def test_a_weapon_parries_once_ready_after_a_blow_it_could_not() -> None:
    # rule E3 / E5: not yet ready -> the first blow (roll 31) lands unparried; readied, the second blow
    # (roll 31, quality 34.5) meets the parry: Dagger, Parrying 20 + own 10 = 30, roll 30 -> parried
    bout = Bout([31, 31, 30], parry=10, weapons=[{"name": "Dagger, Parrying"}])
    bout.react()
    assert bout.attack().parry is None
    bout.ready()
    event = bout.attack(at_ms=1000)
    assert event.parry is not None
    assert (event.parry.device, event.outcome) == ("weapon:Dagger, Parrying", "parried")
