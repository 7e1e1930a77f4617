"""Shots through a real Encounter with fixed rolls: range, cover, aim, size, speed (rules E8, E16-E19).

Unless a test says otherwise the shooter ``att`` has skill 65, CO 130 and a light crossbow (type 13, IN 10,
SP 8, ranges 8/60/120/180/210, DMG 15): COb 30, STb 0 -> MechBonus = 30/2 + 0/4 = 15, hit chance
65 + 15 = 80; 1H adj = 0/10 + 30/30 = 1 -> speed (the aiming gap) 8 - 1 = 7 s; D = 15 + 0 = 15.
The target ``def`` (skill 60, 0.75 m2, 100% of the standard size) wears cloth: armor value 2 against type 13.
"""

from __future__ import annotations

from decimal import Decimal

from affray.events.energion.kinds import AimStarted, AttackResolved, RangedDerivation, Reacted, WeaponReadied
from affray.events.energion.state import vocabulary
from affray.events.shared import Moved
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.resolution import aim_shot, resolve_attack
from affray.kernel.dice import Dice, ManualDice
from affray.kernel.encounter import Encounter
from affray.kernel.space import distance, metres
from tests.handlers.energion import TomlValue, fighter, scenario

SHOOTER: dict[str, TomlValue] = {
    "skill": 65,
    "stats": {"CO": 130},
    "weapons": [{"name": "Crossbow, Light", "ammunition": 10}],
}
GAP_MS = 7000


def at(x: str, y: str) -> tuple[Decimal, Decimal]:
    return (metres(Decimal(x)), metres(Decimal(y)))


class Range:
    """A shooter and a target joined the way ``EnergionBattle.run`` joins them, on a clock run by hand."""

    def __init__(
        self, rolls: list[int], shooter: dict[str, TomlValue] | None = None, **target: TomlValue
    ) -> None:
        target = {"armor": "Cloth", "damage_points": 40, "position": [0, 100], **target}
        self.battle = EnergionBattle(
            scenario(fighter("att", "ford", **(shooter or SHOOTER)), fighter("def", "raiders", **target))
        )
        self.encounter = Encounter(Dice(ManualDice(rolls)), vocabulary())
        self.battle.join(self.encounter)

    def run(self, until_ms: int) -> None:
        if until_ms > self.encounter.now:
            self.encounter.run(until=until_ms)

    def ready(self, who: str) -> None:
        """``who`` has reacted (rule E1) and readied its weapon in hand (rule E3)."""
        arm = self.battle.loadouts[who].arms[0]
        self.encounter.emit(Reacted(combatant=who, reaction_ms=0))
        self.encounter.emit(
            WeaponReadied(
                combatant=who,
                weapon=arm.weapon.name,
                readiness="in_hand",
                chart_initiative=arm.weapon.initiative,
                chart_speed=arm.weapon.speed,
                speed_adjustment=arm.speed_adjustment,
                initiative_ms=0,
                speed_ms=arm.speed_ms,
            )
        )

    def aim(self, at_ms: int = 0) -> None:
        """The shooter starts aiming at the target at ``at_ms`` (rule E17)."""
        self.run(at_ms)
        self.encounter.emit(AimStarted(combatant="att", target="def", weapon="Crossbow, Light"))

    def move(self, who: str, end: tuple[Decimal, Decimal], at_ms: int) -> None:
        """``who`` ends a one-second move at ``end`` at ``at_ms``."""
        self.run(at_ms)
        start = self.encounter.state.combatants[who].position
        self.encounter.emit(
            Moved(combatant=who, toward="x", start=start, end=end, distance=distance(start, end))
        )

    def shot(self, at_ms: int) -> RangedDerivation | str:
        self.run(at_ms)
        att, target = self.battle.loadouts["att"], self.battle.loadouts["def"]
        return aim_shot(self.encounter, att, att.arms[0], target)

    def shoot(self, at_ms: int) -> AttackResolved:
        """Let the clock run to ``at_ms``; the shooter shoots the target once."""
        shot = self.shot(at_ms)
        assert isinstance(shot, RangedDerivation), shot
        att, target = self.battle.loadouts["att"], self.battle.loadouts["def"]
        return self.encounter.emit(resolve_attack(self.encounter, att, att.arms[0], target, shot))


# --- E8 range bands ------------------------------------------------------------------------------------


def test_aimed_shot_at_medium_range_scales_hit_chance_and_damage() -> None:
    # rule E8: 100 m is MED (60 < 100 <= 120), factor 0.9 -> 80 * 0.9 = 72; aimed exactly the 7 s gap:
    # no aim bonus, no unaimed penalty. Roll 20 -> quality 72 - 2 - 20 = 50 -> TRUNC(60/10) = 6 -> x0.6;
    # D = 15 * 0.9 = 13.5 -> 0.6 * 13.5 = 8.1
    lane = Range([20])
    lane.aim(0)
    event = lane.shoot(GAP_MS)
    shot = event.hit.ranged
    assert shot is not None
    assert (shot.band, shot.range_factor, shot.chance_before) == ("MED", Decimal("0.9"), Decimal(80))
    assert (event.hit.hit_chance, event.hit.quality, event.outcome) == (Decimal(72), Decimal(50), "hit")
    assert event.damage is not None
    assert (event.damage.range_factor, event.damage.potential) == (Decimal("0.9"), Decimal("13.5"))
    assert (event.damage.multiplier, event.damage.damage) == (Decimal("0.6"), Decimal("8.1"))


def test_point_blank_shot_gains_the_point_blank_factor() -> None:
    # rule E8: 8 m is PTB (limit inclusive), factor 1.1 -> 80 * 1.1 = 88; D = 15 * 1.1 = 16.5;
    # roll 36 -> quality 88 - 2 - 36 = 50 -> x0.6 -> 9.9
    lane = Range([36], position=[0, 8])
    lane.aim(0)
    event = lane.shoot(GAP_MS)
    assert event.hit.ranged is not None
    assert (event.hit.ranged.band, event.hit.hit_chance) == ("PTB", Decimal(88))
    assert event.damage is not None
    assert (event.damage.potential, event.damage.damage) == (Decimal("16.5"), Decimal("9.9"))


def test_target_beyond_the_last_band_cannot_be_shot() -> None:
    # rule E8: the light crossbow's EXT limit is 210 m; 210.001 m is out of range
    lane = Range([], position=[0, 210.001])
    lane.aim(0)
    assert lane.shot(GAP_MS) == "def is 210.001 m away, beyond Crossbow, Light's range"


# --- E17 aiming ----------------------------------------------------------------------------------------


def test_unaimed_shot_loses_100_points() -> None:
    # rule E17 (ruling): never aimed -> 72 - 100 = -28; roll 1 -> quality -28 - 2 - 1 = -31: a miss
    event = Range([1]).shoot(GAP_MS)
    assert event.hit.ranged is not None
    assert (event.hit.ranged.aim_ms, event.hit.ranged.unaimed_penalty) == (0, Decimal(100))
    assert (event.hit.hit_chance, event.outcome) == (Decimal(-28), "miss")


def test_shot_a_millisecond_before_the_gap_is_unaimed() -> None:
    # rule E17: the gap (modified speed 7 s) must be spent aiming; 6.999 s is not enough -> 72 - 100 = -28
    lane = Range([1])
    lane.aim(0)
    event = lane.shoot(GAP_MS - 1)
    assert event.hit.ranged is not None
    assert (event.hit.ranged.aim_ms, event.hit.ranged.gap_ms) == (6999, 7000)
    assert event.hit.hit_chance == Decimal(-28)


def test_extra_aim_adds_ten_points_a_second() -> None:
    # rule E17: aimed 10.5 s, gap 7 s -> 3.5 s extra -> MIN(10 * 3.5, 100) = 35 -> 72 + 35 = 107
    lane = Range([99])
    lane.aim(0)
    event = lane.shoot(10_500)
    assert event.hit.ranged is not None
    assert (event.hit.ranged.aim_bonus, event.hit.ranged.unaimed_penalty) == (Decimal(35), Decimal(0))
    assert event.hit.hit_chance == Decimal(107)


def test_extra_aim_bonus_stops_at_100() -> None:
    # rule E17: aimed 20 s -> 13 s extra -> MIN(130, 100) = 100 -> 72 + 100 = 172
    lane = Range([99])
    lane.aim(0)
    event = lane.shoot(20_000)
    assert event.hit.ranged is not None
    assert (event.hit.ranged.aim_bonus, event.hit.hit_chance) == (Decimal(100), Decimal(172))


def test_the_shooters_own_move_spoils_its_aim() -> None:
    # rule E17 ("unusual or unpredictable movement will ruin the aim time"): aim started at 0 is lost
    # when "att" moves
    lane = Range([1])
    lane.aim(0)
    lane.move("att", at("0", "1"), GAP_MS)
    shot = lane.shot(GAP_MS)
    assert isinstance(shot, RangedDerivation)
    assert (shot.aim_ms, shot.unaimed_penalty) == (0, Decimal(100))


# --- E16 cover and E19 cover advantage -----------------------------------------------------------------


def test_cover_reduces_the_visible_area_and_the_chance() -> None:
    # rule E16: 40% covered -> 0.75 * 60/100 = 0.45 m2; rule E19 cover advantage: skill 0/4 = 0% -> 0.45;
    # E18: 0.45 < 0.5 -> 0.45/0.5 = 90% -> penalty (100 - 90) * 3 (MED) = 30 -> 72 - 30 = 42
    lane = Range([99], cover=40, skill=0)
    lane.aim(0)
    shot = lane.shoot(GAP_MS).hit
    assert shot.ranged is not None
    assert (shot.ranged.cover, shot.ranged.visible_area) == (40, Decimal("0.45"))
    assert (shot.ranged.size_percentage, shot.ranged.size_penalty) == (Decimal(90), Decimal(30))
    assert shot.hit_chance == Decimal(42)


def test_cover_advantage_takes_a_quarter_of_the_skill_off_the_covered_area() -> None:
    # rule E19: 40% covered -> 0.45 m2; skill 80 -> 80/4 = 20% off -> 0.45 * 0.8 = 0.36 m2 -> 72%;
    # E18 at MED: (100 - 72) * 3 = 84 -> 72 - 84 = -12
    lane = Range([99], cover=40, skill=80)
    lane.aim(0)
    shot = lane.shoot(GAP_MS).hit
    assert shot.ranged is not None
    assert (shot.ranged.visible_area, shot.ranged.size_penalty) == (Decimal("0.36"), Decimal(84))
    assert shot.hit_chance == Decimal(-12)


def test_no_cover_advantage_without_cover() -> None:
    # rule E19 (ruling): the advantage applies only behind cover; skill 80 in the open -> 0.75 m2 -> 100%
    lane = Range([99], skill=80)
    lane.aim(0)
    shot = lane.shoot(GAP_MS).hit
    assert shot.ranged is not None
    assert (shot.ranged.visible_area, shot.ranged.size_penalty, shot.hit_chance) == (
        Decimal("0.75"),
        Decimal(0),
        Decimal(72),
    )


def test_target_wholly_behind_cover_cannot_be_shot() -> None:
    # rule E16: 100% covered -> 0 m2 visible
    lane = Range([], cover=100)
    lane.aim(0)
    assert lane.shot(GAP_MS) == "def is wholly behind cover"


def test_cover_is_lost_after_moving() -> None:
    # rule E16: cover is stable only while the target stays put; it moves 1 m at 1 s and is at rest from
    # 2 s (E19: no relative speed) -> 0.75 m2 in the open, no size penalty; 99 m is MED -> 72
    lane = Range([99], cover=40, skill=0)
    lane.move("def", at("0", "99"), 1000)
    lane.aim(1000)
    assert lane.encounter.state.combatants["def"].cover == 0
    shot = lane.shoot(1000 + GAP_MS).hit
    assert shot.ranged is not None
    ranged = shot.ranged
    assert (ranged.cover, ranged.size_penalty, ranged.speed_penalty) == (0, Decimal(0), Decimal(0))
    assert shot.hit_chance == Decimal(72)


# --- E18 target size -----------------------------------------------------------------------------------


def test_small_target_at_medium_range_is_harder_to_hit() -> None:
    # rule E18: 0.4 m2 < 0.5 -> 0.4/0.5 = 80%; penalty (100 - 80) * 3 (MED) = 60 -> 72 - 60 = 12
    lane = Range([99], size_m2=0.4)
    lane.aim(0)
    shot = lane.shoot(GAP_MS).hit
    assert shot.ranged is not None
    assert (shot.ranged.size_percentage, shot.ranged.size_penalty, shot.hit_chance) == (
        Decimal(80),
        Decimal(60),
        Decimal(12),
    )


def test_large_target_is_easier_to_hit() -> None:
    # rule E18: 1.5 m2 > 1 -> 150% of 1 m2; penalty (100 - 150) * 3 = -150, a bonus -> 72 + 150 = 222
    lane = Range([99], size_m2=1.5)
    lane.aim(0)
    shot = lane.shoot(GAP_MS).hit
    assert shot.ranged is not None
    assert (shot.ranged.size_penalty, shot.hit_chance) == (Decimal(-150), Decimal(222))


# --- E19 relative speed --------------------------------------------------------------------------------


def walk(lane: Range, start_y: int, until_ms: int, first_ms: int = 1000) -> None:
    """The target walks steadily toward the shooter, 4 m each second, from ``first_ms`` to ``until_ms``."""
    y = start_y
    for t in range(first_ms, until_ms + 1, 1000):
        y -= 4
        lane.move("def", at("0", str(y)), t)


def test_target_that_moved_in_the_last_second_costs_a_point_per_metre_per_second() -> None:
    # rule E19: the target walks 108 -> 76 m at 4 m/s, a step ending each second from 1 s to 8 s; at 8 s its
    # velocity is (0, -4) and the shooter is at rest -> |(0, 4)| = 4 m/s -> -4 -> 72 - 4 = 68 (76 m is MED).
    # Aim began at 1 s, after it set off, and its steady walk keeps it (E17): 7 s aimed, the whole gap.
    lane = Range([99], position=[0, 108])
    lane.move("def", at("0", "104"), 1000)
    lane.aim(1000)
    walk(lane, 104, 8000, first_ms=2000)
    shot = lane.shoot(8000).hit
    assert shot.ranged is not None
    assert (shot.ranged.relative_speed, shot.ranged.speed_penalty) == (Decimal(4), Decimal(4))
    assert (shot.ranged.aim_ms, shot.ranged.aim_restarted_ms) == (7000, None)
    assert shot.hit_chance == Decimal(68)


def test_a_move_more_than_a_second_ago_no_longer_counts() -> None:
    # rule E19: the move ended at 1 s; at 8 s the target is at rest -> no penalty; aim from 1 s: 7 s, aimed
    lane = Range([99], position=[0, 104])
    lane.move("def", at("0", "100"), 1000)
    lane.aim(1000)
    shot = lane.shoot(8000).hit
    assert shot.ranged is not None
    assert (shot.ranged.relative_speed, shot.hit_chance) == (Decimal(0), Decimal(72))


# --- E17 the target's movement ------------------------------------------------------------------------


def test_a_target_that_sets_off_after_the_aim_began_ruins_it() -> None:
    # rule E17: "the target ... must be stationary or moving steadily": aim at 0, the target sets off at
    # 5 s; at 8 s only 8 - 5 = 3 s of aim count, under the 7 s gap: unaimed, -100
    lane = Range([99], position=[0, 104])
    lane.aim(0)
    lane.move("def", at("0", "100"), 5000)
    shot = lane.shot(8000)
    assert isinstance(shot, RangedDerivation)
    assert (shot.aim_ms, shot.aim_restarted_ms, shot.unaimed_penalty) == (3000, 5000, Decimal(100))


def test_a_target_that_turns_ruins_the_aim() -> None:
    # rule E17: steady steps of (0, -4) from 1 s to 4 s, then (4, 0) at 5 s: the turn restarts the aim at 5 s
    lane = Range([99], position=[0, 104])
    lane.move("def", at("0", "100"), 1000)
    lane.aim(1000)
    walk(lane, 100, 4000, first_ms=2000)
    lane.move("def", at("4", "88"), 5000)
    shot = lane.shot(8000)
    assert isinstance(shot, RangedDerivation)
    assert (shot.aim_restarted_ms, shot.aim_ms) == (5000, 3000)


def test_a_fleeing_target_ruins_the_aim() -> None:
    # rule E17, E19: a flight is maneuvering, never steady: the aim counts again from the flight at 3 s
    lane = Range([99], position=[0, 104])
    lane.aim(0)
    lane.run(3000)
    start = lane.encounter.state.combatants["def"].position
    end = at("0", "108")
    lane.encounter.emit(
        Moved(combatant="def", toward="att", start=start, end=end, distance=Decimal(4), fleeing=True)
    )
    shot = lane.shot(10_000)
    assert isinstance(shot, RangedDerivation)
    assert (shot.aim_restarted_ms, shot.aim_ms, shot.unaimed_penalty) == (3000, 7000, Decimal(0))


def test_relative_speed_subtracts_the_shooters_own_velocity() -> None:
    # rule E19: target (0, -4) m/s, shooter (0, 3) m/s (both moves end at 1 s) -> |(0, -7)| = 7 m/s;
    # the shooter's move spoils its aim: 72 - 7 - 100 (unaimed) = -35
    lane = Range([99], position=[0, 104])
    lane.move("def", at("0", "100"), 1000)
    lane.move("att", at("0", "3"), 1000)
    shot = lane.shot(1000)
    assert isinstance(shot, RangedDerivation)
    assert (shot.distance, shot.relative_speed, shot.speed_penalty) == (Decimal(97), Decimal(7), Decimal(7))


# --- parries against shots (E5) ------------------------------------------------------------------------


def test_a_weapon_does_not_parry_a_shot() -> None:
    # rule E5 (ruling): weapons never parry missiles; Dagger, Parrying (parry 20) ready, parry 10 -> no roll
    # (one roll given). Roll 20 -> quality 50 -> x0.6 of 13.5 = 8.1
    lane = Range([20], parry=10, weapons=[{"name": "Dagger, Parrying"}])
    lane.ready("def")
    lane.aim(0)
    event = lane.shoot(GAP_MS)
    assert (event.parry, event.outcome) == (None, "hit")
    assert event.damage is not None
    assert event.damage.damage == Decimal("8.1")


def test_a_shield_parries_a_shot() -> None:
    # rule E5: Small shield +20 -> armor 2 + 20 = 22; roll 20 -> quality 72 - 22 - 20 = 30 (would land);
    # parry 15 + 20 = 35; parry roll 35 -> parried
    lane = Range([20, 35], parry=15, shield="Small")
    lane.ready("def")
    lane.aim(0)
    event = lane.shoot(GAP_MS)
    assert event.parry is not None
    assert (event.parry.device, event.parry.chance, event.outcome) == ("shield:Small", Decimal(35), "parried")
