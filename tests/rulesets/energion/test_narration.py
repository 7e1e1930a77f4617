"""The Energion narration (rules E1-E24): the numbers behind every outcome, on every line."""

from __future__ import annotations

import re
from decimal import Decimal

import msgspec
import pytest

from affray.events.base import Event, Roll
from affray.events.energion.kinds import (
    AimStarted,
    AttackResolved,
    CombatantJoined,
    DamageDerivation,
    HitDerivation,
    ParryAttempt,
    Perceived,
    RangedDerivation,
    Reacted,
    SpellCast,
    SpellInterrupted,
    SpellStarted,
    Waited,
    WeaponChanged,
    WeaponReadied,
)
from affray.events.energion.state import EnergionCombatant
from affray.events.shared import ActionRefused, EncounterEnded
from affray.rulesets.energion.display import DISPLAY
from tests.strategies import example_log, read, tell

DUEL = read(example_log("duel")).events
SKIRMISH = read(example_log("skirmish")).events
LINE = re.compile(r"^ *(-?\d+\.\d{3}) s  #(\d+) +(.*)$")


def told(events: list[Event]) -> dict[int, str]:
    """Each event's text (after the time and seq), by seq."""
    out = {}
    for line in tell(events):
        match = LINE.match(line)
        assert match, line
        out[int(match.group(2))] = match.group(3)
    return out


def num(value: Decimal) -> str:
    """A decimal as people read it: at most three places, no trailing zeros (computed independently)."""
    text = format(value.quantize(Decimal("0.001")), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def roll(total: int, *faces: int, expr: str = "1d100", source: str = "generated") -> Roll:
    return Roll(
        expr=expr,
        faces=faces or (total,),
        total=total,
        purpose="hit",
        roller="a",
        source=source,  # type: ignore[arg-type]
    )


def joined(combatant: str, seq: int, shield: str | None = None) -> CombatantJoined:
    return CombatantJoined(
        seq=seq,
        combatant=combatant,
        name=combatant.title(),
        side=combatant,
        damage_points=Decimal(36),
        position=(Decimal("6.000"), Decimal("0.500")),
        weapon="Axe, 1 hand",
        armor="Studded Leather",
        shield=shield,
    )


def attack(**changes: object) -> AttackResolved:
    fields: dict[str, object] = {
        "seq": 3,
        "t": 7333,
        "attacker": "a",
        "target": "b",
        "weapon": "Sword, Long",
        "hit": HitDerivation(
            skill=Decimal(70),
            bonus=Decimal("12.5"),
            bonus_kind="melee",
            hit_chance=Decimal("82.5"),
            armor="Studded Leather",
            weapon_type=2,
            armor_value=20,
            shield_bonus=10,
            roll=roll(11),
            quality=Decimal("41.5"),
        ),
        "outcome": "hit",
        "damage": DamageDerivation(
            base=18,
            strength_bonus=Decimal("0.75"),
            weapon_bonus=Decimal(0),
            skill_bonus=Decimal(0),
            potential=Decimal("18.75"),
            multiplier=Decimal("0.5"),
            damage=Decimal("9.375"),
        ),
    }
    fields.update(changes)
    return AttackResolved(**fields)  # type: ignore[arg-type]


def test_an_attack_line_shows_chance_bonus_armor_roll_and_quality() -> None:
    text = told([joined("a", 1), joined("b", 2, shield="Buckler"), attack()])[3]
    assert text.startswith(
        "a attacks b with Sword, Long: 82.5% (skill 70 melee +12.5) - armor 30 "
        "(Studded Leather vs type 2 incl. shield 10) - roll 11 = quality 41.5"
    )


def test_a_manual_hit_and_parry_roll_are_marked_on_the_attack_line() -> None:
    # the referee's own rolls are marked as they are on perception and check lines
    parry = ParryAttempt(
        device="shield:Buckler",
        chance=Decimal(25),
        roll=roll(30, source="manual"),
        parried=False,
        gap_ms=2000,
    )
    plain = attack()
    hit = msgspec.structs.replace(plain.hit, roll=roll(11, source="manual"))
    event = msgspec.structs.replace(plain, hit=hit, parry=parry)
    text = told([joined("a", 1), joined("b", 2, shield="Buckler"), event])[3]
    assert "- roll 11, manual = quality 41.5" in text
    assert "; parry with shield:Buckler 25%, roll 30, manual: fails" in text


def test_a_hit_line_shows_the_damage_derivation_and_damage_points_left() -> None:
    text = told([joined("a", 1), joined("b", 2), attack()])[3]
    assert text.endswith(
        "-> x0.5 of 18.75 (base 18 + ST 0.75 + weapon 0 + skill 0) = 9.375 damage; b has 26.625/36 DP"
    )


def test_a_miss_line_ends_in_miss() -> None:
    event = attack(outcome="miss", damage=None)
    assert told([joined("a", 1), joined("b", 2), event])[3].endswith("= quality 41.5 -> miss")


def test_a_parry_shows_its_device_chance_roll_and_verdict() -> None:
    parry = ParryAttempt(
        device="shield:Buckler", chance=Decimal(25), roll=roll(17), parried=True, gap_ms=2000
    )
    event = attack(parry=parry, outcome="parried", damage=None)
    text = told([joined("a", 1), joined("b", 2), event])[3]
    assert text.endswith("; parry with shield:Buckler 25%, roll 17: parried -> no damage")


def test_a_roll_of_several_dice_shows_its_faces() -> None:
    event = Reacted(seq=2, t=0, combatant="a", reaction_ms=7000, reaction_roll=roll(7, 3, 4, expr="2d4"))
    text = told([joined("a", 1), event])[2]
    assert text.startswith("a reacts after 7.000 s, 2d4=7")
    assert "[3+4]" in text


def test_a_manual_roll_is_marked_manual() -> None:
    event = Perceived(
        seq=2, t=0, combatant="a", after_ms=0, perception_roll=roll(8, expr="1d10", source="manual")
    )
    assert "manual" in told([joined("a", 1), event])[2]


def test_the_seconds_unit_of_a_manual_roll_follows_the_roll() -> None:
    event = Perceived(
        seq=2, t=0, combatant="a", after_ms=0, perception_roll=roll(8, expr="1d10", source="manual")
    )
    assert "1d10=8 s" in told([joined("a", 1), event])[2]


def test_a_joined_line_shows_damage_points_weapon_armor_shield_and_position() -> None:
    assert told([joined("b", 1, shield="Small")])[1] == (
        "b (B) joins side b: 36 DP, Axe, 1 hand, Studded Leather, shield Small, at (6, 0.5)"
    )


def test_the_end_line_names_the_winner() -> None:
    event = EncounterEnded(seq=2, t=90_000, winner="ford", reason="only side ford still stands")
    assert (
        told([joined("a", 1), event])[2] == "the encounter ends: side ford wins (only side ford still stands)"
    )


@pytest.mark.parametrize("events", [DUEL, SKIRMISH], ids=["duel", "skirmish"])
def test_every_attack_line_in_a_real_fight_carries_its_numbers(events: list[Event]) -> None:
    texts = told(events)
    for e in events:
        if not isinstance(e, AttackResolved):
            continue
        text, h = texts[e.seq], e.hit
        assert f": {num(h.hit_chance)}% " in text
        assert f" - armor {h.armor_value + h.shield_bonus} " in text
        assert f" - roll {h.roll.total} @{h.roll.stream}#{h.roll.draw} = quality {num(h.quality)}" in text
        if e.parry is not None:
            assert f"parry with {e.parry.device} {num(e.parry.chance)}%, roll {e.parry.roll.total} @" in text
        if e.damage is not None:
            assert f" = {num(e.damage.damage)} damage; " in text


def test_a_perception_line_shows_the_roll_read_as_seconds() -> None:
    event = Perceived(seq=2, t=0, combatant="a", after_ms=0, perception_roll=roll(8, expr="1d10"))
    assert told([joined("a", 1), event])[2].startswith("a perceives the other party (perception 1d10=8 s)")


def test_a_readied_line_shows_the_speed_arithmetic() -> None:
    event = WeaponReadied(
        seq=2,
        t=5333,
        combatant="a",
        weapon="Sword, Long",
        readiness="at_hand",
        chart_initiative=10,
        chart_speed=8,
        speed_adjustment=Decimal(11) / 3,
        initiative_ms=4333,
        speed_ms=4333,
    )
    assert told([joined("a", 1), event])[2] == (
        "a readies Sword, Long (at hand): initiative 4.333 s; speed 8 - 3.667 = 4.333 s between attacks"
    )


def test_the_narrated_speed_arithmetic_holds_or_names_the_minimum() -> None:
    # Rapier (SP 5) with AG 135, CO 125: 5 - 4.333 is below the 1 s minimum (rule E1/E2).
    event = WeaponReadied(
        seq=2,
        t=4000,
        combatant="a",
        weapon="Rapier",
        readiness="at_hand",
        chart_initiative=8,
        chart_speed=5,
        speed_adjustment=Decimal(13) / 3,
        initiative_ms=1000,
        speed_ms=1000,
    )
    text = told([joined("a", 1), event])[2]
    match = re.search(r"speed (\d+) - (-?[\d.]+) = ([\d.]+) s between attacks", text)
    if match and "minimum" not in text:
        chart, adjustment, result = (Decimal(g) for g in match.groups())
        assert abs(chart - adjustment - result) <= Decimal("0.001"), text


def test_a_speed_rounded_to_the_millisecond_is_not_called_a_minimum() -> None:
    # rule E2: Axe SP 10, adjustment 7/3 = 2.333...: 10 - 2.333... = 7.6667 s -> 7667 ms, the formula's
    # own result rounded (not the 1 s minimum)
    event = WeaponReadied(
        seq=2,
        combatant="a",
        weapon="Axe, 1 hand",
        readiness="at_hand",
        chart_initiative=9,
        chart_speed=10,
        speed_adjustment=Decimal(7) / 3,
        initiative_ms=7667,
        speed_ms=7667,
    )
    assert told([joined("a", 1), event])[2].endswith("speed 10 - 2.333 = 7.667 s between attacks")


def shot(mode: str = "missile", **changes: object) -> RangedDerivation:
    fields: dict[str, object] = {
        "mode": mode,
        "distance": Decimal("85.586"),
        "band": "MED",
        "range_factor": Decimal("0.9"),
        "chance_before": Decimal("82.5"),
        "target_area": Decimal("0.75"),
        "cover": 0,
        "visible_area": Decimal("0.75"),
        "size_percentage": Decimal(100),
        "size_penalty": Decimal(0),
        "relative_speed": Decimal(0),
        "speed_penalty": Decimal(0),
        "aim_ms": 7000,
        "gap_ms": 4500,
        "aim_bonus": Decimal(25),
        "unaimed_penalty": Decimal(0),
    }
    fields.update(changes)
    return RangedDerivation(**fields)  # type: ignore[arg-type]


def shot_attack(ranged: RangedDerivation) -> AttackResolved:
    plain = attack()
    hit = msgspec.structs.replace(plain.hit, ranged=ranged, hit_chance=Decimal("99.25"))
    damage = plain.damage
    assert damage is not None
    damage = msgspec.structs.replace(damage, range_factor=ranged.range_factor)
    return attack(weapon="Sling", hit=hit, damage=damage)


def test_a_missile_shot_is_told_as_shooting_with_its_range_and_aim() -> None:
    text = told([joined("a", 1), joined("b", 2), shot_attack(shot())])[3]
    assert text.startswith(
        "a shoots at b with Sling: 99.25% (82.5% (skill 70 melee +12.5) x0.9 MED at 85.586 m"
        " + aim 25 (2.500 s beyond the gap))"
    )
    assert "x0.9 range" in text


def test_a_hurled_shot_is_told_as_a_throw() -> None:
    text = told([joined("a", 1), joined("b", 2), shot_attack(shot("hurled"))])[3]
    assert text.startswith("a throws at b with Sling: ")


def test_an_unaimed_shot_with_cover_and_speed_shows_each_penalty() -> None:
    ranged = shot(
        cover=40,
        visible_area=Decimal("0.36"),
        size_penalty=Decimal(84),
        relative_speed=Decimal(4),
        speed_penalty=Decimal(4),
        aim_ms=1000,
        aim_bonus=Decimal(0),
        unaimed_penalty=Decimal(100),
    )
    text = told([joined("a", 1), joined("b", 2), shot_attack(ranged)])[3]
    assert " - size 84 (0.36 m2 visible, 40% covered)" in text
    assert " - speed 4 (4 m/s)" in text
    assert " - unaimed 100 (aimed 1.000 of 4.500 s)" in text


def test_a_weapon_change_is_told_with_its_method_and_time() -> None:
    event = WeaponChanged(
        seq=2,
        t=7000,
        combatant="a",
        from_weapon="Bow, Self, Long",
        to_weapon="Sword, Short",
        to_index=1,
        method="drop_and_grab",
        took_ms=7000,
    )
    assert told([joined("a", 1), event])[2] == "a drops and grabs: Bow, Self, Long -> Sword, Short in 7.000 s"


def test_a_weapon_taken_up_into_an_empty_hand_is_told_as_taken_up() -> None:
    event = WeaponChanged(
        seq=2,
        t=6000,
        combatant="a",
        from_weapon=None,
        to_weapon="Dagger, Throwing",
        to_index=0,
        method="drop_and_grab",
        took_ms=6000,
    )
    assert told([joined("a", 1), event])[2] == "a takes up Dagger, Throwing in 6.000 s"


def test_a_wait_is_told_with_its_reason() -> None:
    event = Waited(seq=2, t=0, combatant="a", seconds=1, reason="hold cover")
    assert told([joined("a", 1), event])[2] == "a waits 1 s: hold cover"


def test_a_refusal_is_told_with_its_reason() -> None:
    event = ActionRefused(seq=2, t=0, combatant="a", action="attack b", reason="b is wholly behind cover")
    assert told([joined("a", 1), event])[2] == "a cannot attack b: b is wholly behind cover"


def test_an_aim_is_told() -> None:
    event = AimStarted(seq=2, t=0, combatant="a", target="b", weapon="Sling")
    assert told([joined("a", 1), event])[2] == "a aims Sling at b"


def test_every_shot_line_in_the_archers_example_carries_its_band_and_numbers() -> None:
    events = read(example_log("archers")).events
    texts = told(events)
    shots = [e for e in events if isinstance(e, AttackResolved) and e.hit.ranged is not None]
    assert shots
    for e in shots:
        r = e.hit.ranged
        assert r is not None
        verb = "shoots at" if r.mode == "missile" else "throws at"
        assert texts[e.seq].startswith(f"{e.attacker} {verb} {e.target} with {e.weapon}: ")
        assert f" x{num(r.range_factor)} {r.band} at {num(r.distance)} m" in texts[e.seq]


# -- spells (rule E23) -------------------------------------------------------------------------------


def test_a_spell_begun_is_told_with_its_three_times_and_their_sum() -> None:
    # preparation 1d2 = 2 s + initiation 1 s + casting 2 s = 5 s
    event = SpellStarted(
        seq=2,
        t=5833,
        combatant="a",
        spell="Firebolt",
        target="b",
        preparation_ms=2000,
        initiation_ms=1000,
        casting_ms=2000,
        roll=roll(2, expr="1d2"),
    )
    assert told([joined("a", 1), event])[2] == (
        "a begins Firebolt at b: 2.000 s preparation (1d2=2 s) + 1.000 s initiation"
        " + 2.000 s casting = 5.000 s"
    )


def test_a_spell_begun_without_a_rolled_preparation_shows_no_roll() -> None:
    event = SpellStarted(
        seq=2,
        t=0,
        combatant="a",
        spell="Spark",
        target="b",
        preparation_ms=0,
        initiation_ms=1000,
        casting_ms=1000,
    )
    assert told([joined("a", 1), event])[2] == (
        "a begins Spark at b: 0.000 s preparation + 1.000 s initiation + 1.000 s casting = 2.000 s"
    )


def test_a_spell_cast_is_told_with_its_dice_damage_and_the_targets_damage_points_after() -> None:
    # 4d10 = 7+2+2+10 = 21 damage on b's 36 DP -> 15 left
    event = SpellCast(
        seq=3,
        t=9000,
        combatant="a",
        spell="Lance of Frost",
        target="b",
        roll=roll(21, 7, 2, 2, 10, expr="4d10"),
        damage=Decimal(21),
    )
    assert told([joined("a", 1), joined("b", 2), event])[3] == (
        "a casts Lance of Frost at b: 4d10=21 [7+2+2+10] = 21 damage; b has 15/36 DP"
    )


def test_a_lost_spell_is_told_with_its_reason() -> None:
    event = SpellInterrupted(
        seq=2, t=9000, combatant="a", spell="Firebolt", reason="took damage while casting Firebolt"
    )
    assert told([joined("a", 1), event])[2] == "a loses Firebolt: took damage while casting Firebolt"


def test_every_spell_line_in_the_mage_duel_names_caster_and_spell() -> None:
    events = read(example_log("mage-duel")).events
    texts = told(events)
    spells = [e for e in events if isinstance(e, SpellStarted | SpellCast | SpellInterrupted)]
    assert {type(e) for e in spells} == {SpellStarted, SpellCast, SpellInterrupted}
    verbs = {SpellStarted: "begins", SpellCast: "casts", SpellInterrupted: "loses"}
    for e in spells:
        assert texts[e.seq].startswith(f"{e.combatant} {verbs[type(e)]} {e.spell}")


# -- grappling (rule E15), hit locations (E20) and subduing (E14) --------------------------------------------


def grapple_lines(*rolls: int, procedure: str = "Hold Down", breaks: int = 0) -> dict[int, str]:
    """The lines of a run in which a (60%) tries ``procedure`` on b (AG 20, parry 50 with its buckler)."""
    from affray.npc.energion.intents import BreakHold
    from tests.handlers.energion.test_grapple import brawl, grab, grappler, victim
    from tests.handlers.energion.test_spells import run

    built = brawl(*rolls, a=grappler(procedure), b=victim(stats={"AG": 20}))
    encounter, _ = run(built, a=[grab(procedure)], b=[BreakHold(reason="r")] * breaks)
    return told(list(encounter.log))


def line_of(lines: dict[int, str], start: str) -> str:
    return next(text for text in lines.values() if text.startswith(start))


def test_a_landed_hold_is_told_with_its_attack_avoidance_and_effect() -> None:
    # 60% - AG/luck armor 0 - roll 10 = quality 50; avoidance 50 - 1 = 49, roll 50 fails
    lines = grapple_lines(10, 50)
    assert line_of(lines, "a tries") == (
        "a tries a Hold Down on b: 60% - AG/luck armor 0 - roll 10 @a/grapple#1, manual = quality 50;"
        " avoidance (parry) 49, roll 50 @b/avoidance#1, manual: fails -> pinned, 0 damage; b has 30/30 DP"
    )


def test_an_avoided_procedure_is_told_as_avoided() -> None:
    assert line_of(grapple_lines(10, 49), "a tries").endswith(
        "avoidance (parry) 49, roll 49 @b/avoidance#1, manual: avoided -> avoided"
    )


def test_a_missed_procedure_is_told_as_a_miss() -> None:
    assert line_of(grapple_lines(70), "a tries") == (
        "a tries a Hold Down on b: 60% - AG/luck armor 0 - roll 70 @a/grapple#1, manual = quality -10 -> miss"
    )


def test_a_trip_is_told_with_its_fall_roll() -> None:
    # avoidance AG 20 + 0, roll 21 fails; fall 1d10 = 7
    line = line_of(grapple_lines(10, 21, 7, procedure="Trip"), "a tries")
    assert line.endswith("-> knocked down, 7 damage (1d10=7 @a/fall#1, manual); b has 23/30 DP")


def test_an_escape_roll_is_told_with_the_holder_and_the_verdict() -> None:
    lines = grapple_lines(10, 50, 60, 49, breaks=2)
    strains = [text for text in lines.values() if text.startswith("b strains")]
    assert strains == [
        "b strains against a's Hold Down: avoidance (parry) 49, roll 60 @b/avoidance#2, manual: fails;"
        " is still held",
        "b strains against a's Hold Down: avoidance (parry) 49, roll 49 @b/avoidance#3, manual: avoided;"
        " breaks free",
    ]


def test_holding_down_is_told_with_the_damage_points_left() -> None:
    assert line_of(grapple_lines(10, 50), "a holds") == "a holds b down: 0.5 damage; b has 29.5/30 DP"


def test_getting_up_is_told_with_its_time() -> None:
    assert line_of(grapple_lines(10, 21, 7, procedure="Trip"), "b gets") == "b gets up (1.000 s)"


def test_a_disabled_location_is_told_with_its_damage_and_share() -> None:
    from affray.events.energion.kinds import LocationDisabled

    event = LocationDisabled(
        seq=2,
        t=0,
        combatant="a",
        location="left arm",
        effect="unusable",
        damage=Decimal("7.5"),
        share=Decimal("6.8"),
    )
    assert told([joined("a", 1), event])[2] == "a's left arm is unusable: 7.5 damage there, its share is 6.8"


def test_a_mortal_location_is_told_as_a_mortal_wound() -> None:
    from affray.events.energion.kinds import LocationDisabled

    event = LocationDisabled(
        seq=2, t=0, combatant="a", location="head", effect="dead", damage=Decimal(3), share=Decimal("2.5")
    )
    assert told([joined("a", 1), event])[2] == "a's head is a mortal wound: 3 damage there, its share is 2.5"


def test_a_blow_struck_to_subdue_is_told_with_its_full_and_half_damage() -> None:
    from affray.npc.energion.intents import Attack
    from tests.handlers.energion.test_spells import run
    from tests.handlers.energion.test_subdue import fight

    encounter, _ = run(fight(2, subdue=True), a=[Attack(target="b", reason="r")])
    line = line_of(told(list(encounter.log)), "a attacks")
    assert (
        "= 2.4 damage, struck to subdue: not enough to knock out, half done = 1.2; b has 28.8/30 DP" in line
    )


def test_every_grappling_line_in_the_brawl_names_its_combatant() -> None:
    from affray.events.energion.kinds import GrappleResolved, HoldDamageDealt, HoldEscapeRolled, StoodUp

    events = read(example_log("brawl")).events
    texts = told(events)
    starts = {
        GrappleResolved: "attacker",
        HoldEscapeRolled: "combatant",
        HoldDamageDealt: "holder",
        StoodUp: "combatant",
    }
    seen = {type(e) for e in events if type(e) in starts}
    assert seen == set(starts)
    for e in events:
        if type(e) in starts:
            assert texts[e.seq].startswith(getattr(e, starts[type(e)]) + " ")


def test_a_perception_roll_is_told_when_the_combatant_joins() -> None:
    # rule E1: the perception time is rolled as the encounter begins and logged with the joining
    event = msgspec.structs.replace(joined("a", 1), perception_roll=roll(8, expr="1d10"))
    (text,) = [line.split("#1    ")[1] for line in tell([event])]
    assert text.endswith("; its perception time: 1d10=8 s")


def test_the_first_to_perceive_is_told_as_the_clocks_start() -> None:
    # rule E1: the clock starts when the first combatant perceives (it perceives 0 s into the fight)
    event = Perceived(seq=2, t=0, combatant="a", after_ms=0)
    assert told([joined("a", 1), event])[2] == "a perceives the other party, the first: the clock starts here"


def test_a_later_perception_is_told_from_the_first() -> None:
    # gorm of the duel: perception 8 s, brenna's 1 s: he perceives 7 s after her, at 7 s on the clock
    event = Perceived(seq=2, t=7000, combatant="a", after_ms=7000)
    assert told([joined("a", 1), event])[2] == (
        "a perceives the other party, 7.000 s after the first (the clock starts at the first perception)"
    )


def test_a_reaction_roll_is_told_when_the_combatant_perceives() -> None:
    # rule E1: the reaction time is rolled on perceiving and logged there
    event = Perceived(seq=2, t=0, combatant="a", after_ms=0, reaction_roll=roll(3, expr="1d4"))
    told = list(tell([joined("a", 1), event]))[-1]
    assert told.endswith(
        "a perceives the other party, the first: the clock starts here; its reaction time: 1d4=3 s"
    )


def test_a_casters_status_names_whom_its_spell_is_aimed_at() -> None:
    # the caster's own target (the controller's last choice) may be another: state shows both
    mog = EnergionCombatant(
        id="mog",
        name="Mog",
        side="x",
        damage_points=Decimal(30),
        position=(Decimal(0), Decimal(0)),
        weapon="Staff",
        armor="Cloth",
        target="aelin",
        casting="Hex bolt",
        casting_at="bran",
    )
    assert (DISPLAY.status(mog), DISPLAY.target(mog)) == ("casting Hex bolt at bran", "aelin")
