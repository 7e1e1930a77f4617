"""The special_damage module's explanations (``affray explain``, rules S1-S10): each outcome step by step,
with the arithmetic, the rule and the table row of each step, and the earlier events it rests on."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest

from affray import rulesets
from affray.events.base import Event, Roll
from affray.events.energion.kinds import AttackResolved
from affray.events.fivestep.kinds import DamageResolved, ToHitResolved
from affray.events.shared import CheckRolled, kind_of
from affray.events.special_damage.kinds import (
    BlastHit,
    ConditionStarted,
    EquipmentLost,
    Exploded,
    Healed,
    HealingScheduled,
    NotHealed,
    RefereeRuling,
    SpecialDamage,
    SpecialModifier,
)
from affray.events.state import EncounterState
from affray.kernel.explanation import Explanation, Step, rolls_and_fields
from affray.kernel.ruleset import Reading
from affray.npc.fivestep.controllers import Strike
from affray.replays.explain import Explained, Index, explain
from affray.rulesets.special_damage import hosting
from affray.rulesets.special_damage.explanation import EXPLAINERS
from affray.rulesets.special_damage.hosting import UNKNOWN_HOST, HostRulings, SpecialDamageHost, host_of
from tests.handlers.fivestep import RIFLE, Scripted, character, run, scenario
from tests.strategies import example, healed_events, with_seed

DATA = "affray/rules/special_damage/data"
ROBOTS = healed_events(example("robots"), 30)
"""The raid on the Tanner vault and its 30 days of aftermath (the golden robots-healed log)."""
CRACKING = healed_events(with_seed(example("robots"), 41), 30)
"""The raid under seed 41, where kessa's second bolt cracks sentry-1's brain casing, stunning and deactivating
it: the example's own fight has no robot stunned or deactivated."""


def _reading(ruleset: str) -> Reading:
    return Reading(ruleset=rulesets.ruleset(ruleset), modules=(rulesets.module("special_damage"),))


def _explained(log: list[Event], event: Event, ruleset: str = "energion") -> Explained:
    found = explain(log, event.seq, _reading(ruleset))
    assert found is not None
    return found


def _steps(found: Explained | Explanation) -> dict[str, Step]:
    return {step.what: step for step in found.steps}


def _first(log: list[Event], kind: type[Event], **fields: Any) -> Event:
    """The first event of ``log`` of ``kind`` with those field values."""
    return next(e for e in log if isinstance(e, kind) and all(getattr(e, k) == v for k, v in fields.items()))


def _robots(kind: type[Event], **fields: Any) -> Event:
    """The first event of the robots run of ``kind`` with those field values."""
    return _first(ROBOTS, kind, **fields)


def _seq_of(kind: type[Event], **fields: Any) -> int:
    return _robots(kind, **fields).seq


def _robots_explained(kind: type[Event], **fields: Any) -> Explained:
    return _explained(ROBOTS, _robots(kind, **fields))


def _cracking_explained(kind: type[Event], **fields: Any) -> Explained:
    return _explained(CRACKING, _first(CRACKING, kind, **fields))


VIX = {"target": "vix"}
"""sentry-2's bolt that gives vix a head wound (seq 47)."""
LEG = {"target": "kessa"}
"""sentry-1's bolt that breaks kessa's leg (seq 83)."""
RULED = {"target": "sentry-1", "damage": "Arm damage"}
"""kessa's bolt whose arm broken the referee rules arm damage (seq 67)."""
CRACKED = {"target": "sentry-1", "damage": "Brain casing cracked"}
"""kessa's second bolt that cracks sentry-1's brain casing (seq 85 of :data:`CRACKING`)."""


# --- built events, for the cases the run does not hold -------------------------------------------


def History(*events: Event) -> Index:  # noqa: N802 - stands for the history the command keeps
    """The history ``affray explain`` keeps of ``events``."""
    index = Index()
    for event in events:
        index.add(event, "")
    return index


def _roll(expr: str, total: int, roller: str, purpose: str, *faces: int) -> Roll:
    return Roll(expr=expr, faces=faces or (total,), total=total, purpose=purpose, roller=roller, draw=1)


def _state(**bodies: str) -> Any:
    """An Energion field (the host the explanation cites) of combatants, each of its body, with 10 of 20
    damage points left."""
    state = rulesets.ruleset("energion").vocabulary(["special_damage"]).new_state()
    state.combatants = {
        who: SimpleNamespace(special=SimpleNamespace(body=body), damage_left=10, damage_points=20)
        for who, body in bodies.items()
    }
    return state


def _special(seq: int = 3, **fields: Any) -> SpecialDamage:
    """a's level 2 short melee blow on b: 1d10 6 + 2 (levels) + 1 (Short melee) = 9, Leg broken."""
    made: dict[str, Any] = {
        "seq": seq,
        "t": 1000,
        "attacker": "a",
        "target": "b",
        "weapon": "Dagger",
        "skill_level": 2,
        "aim_rounds": 0,
        "chance": 7,
        "hit_roll": 5,
        "type_roll": _roll("1d10", 6, "a", "special"),
        "modifiers": (SpecialModifier("Per skill level with weapon", 2), SpecialModifier("Short melee", 1)),
        "total": 9,
        "table": "living",
        "damage": "Leg broken",
        "stamina": Decimal(10),
        "equipment": 1,
    }
    return SpecialDamage(**{**made, **fields})


def _check(seq: int, check: str, total: int, chance: int, expr: str = "1d100") -> CheckRolled:
    roll = _roll(expr, total, "b", check)
    return CheckRolled(
        seq=seq, t=1000, combatant="b", check=check, roll=roll, chance=Decimal(chance), under=total <= chance
    )


# --- special damage: S1 --------------------------------------------------------------------------


def test_the_chance_is_three_plus_two_a_skill_level() -> None:
    # S1: sentry-2's skill 60 // 10 = level 6 (ruling 1): 3 + 2 x 6 = 15 %
    step = _steps(_robots_explained(SpecialDamage, **VIX))["special damage chance"]
    assert (step.value, step.rule) == ("15%", "S1")
    assert step.how == "3 + 2 x level 6 = 15 (level = skill % // level_divisor, ruling 1)"


def test_aiming_adds_a_percent_a_round() -> None:
    # S1: level 2 aiming 3 rounds: 3 + 2 x 2 + 3 = 10 %
    special = _special(aim_rounds=3, chance=10)
    step = _steps(EXPLAINERS[SpecialDamage](special, _state(a="living", b="living"), History()))
    assert step["special damage chance"].how.startswith("3 + 2 x level 2 + aim 3 = 10")


def test_a_hit_roll_at_or_under_the_chance_scores() -> None:
    # S1: sentry-2's hit roll 4 <= 15 %, and its hit chance 87.5 % is not below 15 %
    step = _steps(_robots_explained(SpecialDamage, **VIX))["special damage"]
    assert step.value == "scored"
    assert step.how == "hit roll 4 <= 15% (Energion's d100 hit roll, ruling 2); hit chance 87.5% >= 15%"


# --- special damage: S9 and S2 -------------------------------------------------------------------


def test_a_made_rs_check_takes_two_off_the_type_roll() -> None:
    # S9: vix's RS is AG 130 // 2 = 65; 1d100 41 <= 65: Table 1's -2
    found = _robots_explained(SpecialDamage, **VIX)
    step = _steps(found)["RS check"]
    assert (step.value, step.rule) == ("-2", "S9")
    assert step.how == "1d100 41 <= RS 65: made (RS = AG // rs_divisor, ruling 6)"
    assert step.source == f"Table 1, row Target makes RS check ({DATA}/modifiers.toml)"
    assert _seq_of(CheckRolled, combatant="vix", check="RS check") in [d.seq for d in found.depends_on]


def test_a_failed_rs_check_changes_nothing() -> None:
    # S9: 1d100 70 > RS 50: no modifier
    history = History(_check(2, "RS check", 70, 50))
    step = _steps(EXPLAINERS[SpecialDamage](_special(), _state(a="living", b="living"), history))["RS check"]
    assert (step.value, step.how) == ("0", "1d100 70 > RS 50: failed (RS = AG // rs_divisor, ruling 6)")


def test_an_unaware_target_rolls_no_rs_check() -> None:
    # S9: no check_rolled of b before the special damage: no RS check was rolled
    found = EXPLAINERS[SpecialDamage](_special(), _state(a="living", b="living"), History())
    assert _steps(found)["RS check"].how.startswith("none rolled")


def test_the_type_total_adds_table_1_and_table_2_to_the_roll() -> None:
    # S2: 1d10 1 + 1 (hit twice) + 6 (level 6) - 2 (RS check) + 2 (Bow or crossbow) = 8
    step = _steps(_robots_explained(SpecialDamage, **VIX))["type total"]
    assert (step.value, step.rule) == ("8", "S2")
    assert step.how == (
        "1d10 1 + Table 1 +1 (Target hit twice in same turn) +6 (Per skill level with weapon)"
        " -2 (Target makes RS check) + Table 2 +2 (Bow or crossbow) = 8"
    )


def test_the_type_roll_is_shown_with_its_stream() -> None:
    # S2: the 1d10 of sentry-2's special stream, its first draw
    step = _steps(_robots_explained(SpecialDamage, **VIX))["type roll"]
    assert (step.value, step.rule, step.source) == ("1", "S2", "@sentry-2/special#1, generated")


def test_a_counted_table_1_row_shows_its_count_and_its_row() -> None:
    # S9: +1 per skill level with weapon x level 6 = +6
    step = _steps(_robots_explained(SpecialDamage, **VIX))["Table 1: Per skill level with weapon"]
    assert (step.value, step.how) == ("+6", "+1 per skill level x 6 (ruling 5)")
    assert step.source == f"Table 1, row Per skill level with weapon ({DATA}/modifiers.toml)"


def test_the_weapon_type_is_read_from_table_2() -> None:
    # S9: a crossbow is Table 2's "Bow or crossbow", +2 (ruling 7)
    step = _steps(_robots_explained(SpecialDamage, **VIX))["Table 2: Bow or crossbow"]
    assert (step.value, step.rule) == ("+2", "S9")
    assert step.source == f"Table 2, row Bow or crossbow ({DATA}/weapon_modifiers.toml)"


# --- special damage: S3, S5, S4 ------------------------------------------------------------------


def test_a_living_targets_total_reads_table_3() -> None:
    # S3: 8 falls in Table 3's 8: Head wound, +10 Stamina, 1 unit of equipment
    steps = _steps(_robots_explained(SpecialDamage, **VIX))
    row = steps["Table 3 row"]
    assert (row.value, row.rule) == ("Head wound", "S3")
    assert row.source == f"Table 3, row 8 Head wound ({DATA}/living.toml)"
    assert (steps["extra damage"].value, steps["equipment lost"].value) == ("+10", "1")


def test_a_robots_total_reads_table_4() -> None:
    # S5: 1d10 4 + 1 (short range) + 7 (level 7) - 2 (RS check) + 2 (crossbow) = 12: Table 4's 12-13, as
    # rolled before the referee's ruling (S10)
    row = _steps(_robots_explained(SpecialDamage, **RULED))["Table 4 row"]
    assert (row.value, row.rule, row.how) == (
        "Arm broken",
        "S5",
        "12 reads row 12-13: Stamina +8, equipment 1",
    )
    assert row.source == f"Table 4, row 12-13 Arm broken ({DATA}/robots.toml)"


def test_the_effect_is_quoted_and_the_injury_lists_what_it_does() -> None:
    # S5: brain casing cracked: -10 to hit, 35 % malfunction, -30 % to repair, repaired as cracked
    steps = _steps(_cracking_explained(SpecialDamage, **CRACKED))
    assert steps["effect"].how.startswith('"Stunned for d100+20 minutes, 50% chance of being deactivated')
    assert steps["effect"].source == f"Table 4 effects, entry Brain casing cracked ({DATA}/robots.toml)"
    assert steps["injury"].how == "-10 to hit, 35% malfunction, -30% to repair, repaired as cracked"


def test_a_leg_broken_caps_movement_in_metres_a_second() -> None:
    # S4: "Only 2 meters/turn": 2 / 6 = 0.333 m/s (ruling 4); a broken limb heals as one (S7)
    step = _steps(_robots_explained(SpecialDamage, **LEG))["injury"]
    assert (step.rule, step.how) == ("S4", "at most 0.333 m/s, heals as broken limb")


def test_what_the_target_has_left_follows_the_special_damage() -> None:
    # vix had 9.8 of 26 DP; 9.8 - 10 = -0.2
    assert _steps(_robots_explained(SpecialDamage, **VIX))["vix left"].value == "-0.2/26 DP"


def test_a_special_damage_depends_on_the_attack_that_scored_it() -> None:
    # sentry-2's bolt at vix with the hit roll 4 (seq 45) is the attack it rides on
    found = _robots_explained(SpecialDamage, **VIX)
    attack = _robots(AttackResolved, attacker="sentry-2", target="vix", t=_robots(SpecialDamage, **VIX).t)
    assert found.depends_on[0].seq == attack.seq
    assert found.depends_on[0].why.startswith("sentry-2's hit on vix")


def test_every_special_damage_step_but_what_is_left_has_a_rule() -> None:
    for log, fields in ((ROBOTS, VIX), (ROBOTS, LEG), (ROBOTS, RULED), (CRACKING, CRACKED)):
        steps = _explained(log, _first(log, SpecialDamage, **fields)).steps
        assert all(step.rule for step in steps if not step.what.endswith(" left")), fields


# --- S10 -----------------------------------------------------------------------------------------


def test_a_ruled_special_damage_reads_the_rolled_row_then_the_ruling() -> None:
    # S5, S10: 1d10 4 + 1 + 7 - 2 + 2 = 12 reads Arm broken (+8); the referee puts Arm damage (+5)
    found = _robots_explained(SpecialDamage, **RULED)
    steps = _steps(found)
    assert steps["Table 4 row"].value == "Arm broken"
    assert (steps["referee's ruling"].value, steps["referee's ruling"].rule) == ("Arm damage", "S10")
    assert (steps["extra damage"].value, steps["extra damage"].rule) == ("+5", "S10")
    assert steps["effect"].value == "Arm damage"
    assert _seq_of(RefereeRuling, target="sentry-1") in [d.seq for d in found.depends_on]


def test_a_ruling_shows_what_was_rolled_and_what_the_referee_put_instead() -> None:
    # S10: Table 4's row 12-13 arm broken, +8, becomes arm damage, +5, with the scenario's reason
    steps = _steps(_robots_explained(RefereeRuling, target="sentry-1"))
    rolled, ruled = steps["damage rolled"], steps["damage ruled"]
    assert (rolled.value, rolled.rule, rolled.how) == ("Arm broken", "S5", "+8 extra damage")
    assert rolled.source == f"Table 4, row 12-13 Arm broken ({DATA}/robots.toml)"
    assert (ruled.value, ruled.rule) == ("Arm damage", "S10")
    assert ruled.how == (
        "+5 extra damage instead of +8: the bolt struck the sentry's armoured forearm plate, not the joint"
        " (ruling 13)"
    )


def test_a_ruling_depends_on_the_hit_whose_special_damage_it_alters() -> None:
    # kessa's bolt with the hit roll 8 at 29.5 s precedes the ruling at the same moment
    ruling = _robots(RefereeRuling, target="sentry-1")
    attack = _robots(AttackResolved, attacker="kessa", target="sentry-1", t=ruling.t)
    assert [d.seq for d in _explained(ROBOTS, ruling).depends_on] == [attack.seq]


def test_a_rolled_damage_two_rows_share_cites_both() -> None:
    # S3: Table 3's "Arm broken" is rows 12-13 and 14, both +8: the ruling does not say which was read
    ruling = RefereeRuling(
        seq=2,
        t=1000,
        target="b",
        nth=1,
        rolled="Arm broken",
        ruled="Leg wound",
        stamina_rolled=Decimal(8),
        stamina_ruled=Decimal(5),
        reason="test",
    )
    step = _steps(EXPLAINERS[RefereeRuling](ruling, _state(b="living"), History()))["damage rolled"]
    assert step.source == f"Table 3, row 12-13 or 14 Arm broken ({DATA}/living.toml)"


# --- conditions (S4, S5) -------------------------------------------------------------------------


def test_a_condition_with_a_chance_shows_its_roll_under_it() -> None:
    # S5: brain casing cracked: 50 % deactivation, 1d100 5 <= 50: deactivated for good
    steps = _steps(_cracking_explained(ConditionStarted, combatant="sentry-1", condition="deactivated"))
    assert (steps["chance"].value, steps["chance"].how) == ("50%", "1d100 5 <= 50: deactivated")
    assert (steps["until"].value, steps["until"].rule) == ("for good", "S5")


def test_a_timed_condition_runs_for_its_rolled_time() -> None:
    # S5: stunned for 1d100+20 = 52 + 20 = 72 minutes from 51.5 s: 51.5 + 72 x 60 = 4371.5 s, which is
    # 1 h 12 min 51.5 s; no chance given
    steps = _steps(_cracking_explained(ConditionStarted, combatant="sentry-1", condition="stunned"))
    assert steps["chance"].value == "100%"
    assert steps["stunned time"].value == "72"
    assert (steps["until"].value, steps["until"].how) == (
        "1 h 12 min 51.500 s",
        "51.500 s + 72 minutes (on the clock, ruling 9)",
    )


def test_a_condition_depends_on_the_special_damage_that_started_it() -> None:
    # S4: the head wound (seq 47) leaves vix unconscious; its effect is cited from Table 3
    found = _robots_explained(ConditionStarted, combatant="vix", condition="unconscious")
    assert [d.seq for d in found.depends_on] == [_seq_of(SpecialDamage, **VIX)]
    assert _steps(found)["cause"].source == f"Table 3 effects, entry Head wound ({DATA}/living.toml)"


# --- explosions (S5, S6) -------------------------------------------------------------------------


def test_a_computer_explodes_under_s6_with_no_one_near() -> None:
    # S6: vault-mind lost more programs than it had: 6d10 = 4+8+7+1+2+5 = 27 within 5 m, no one near
    found = _robots_explained(Exploded, source="vault-mind")
    steps = _steps(found)
    assert (steps["explosion"].value, steps["explosion"].rule) == ("6d10 within 5 m", "S6")
    assert (steps["blast roll"].value, steps["caught"].value) == ("27", "no one")
    attack = _robots(AttackResolved, attacker="vix", target="vault-mind", t=found.t)
    assert [d.seq for d in found.depends_on] == [attack.seq]


def test_a_robots_explosion_is_halved_by_a_made_rs_check() -> None:
    # S5: 7d10 = 40 within 10 m; c at 3 m, RS 50, rolls 30 <= 50: 40 / 2 = 20 (ruling 6)
    hit = BlastHit(
        combatant="c",
        distance=Decimal(3),
        rs_target=50,
        rs_roll=_roll("1d100", 30, "c", "rs-check"),
        halved=True,
        damage=Decimal(20),
    )
    blast = Exploded(
        seq=4, t=1000, source="b", roll=_roll("7d10", 40, "b", "explosion"), radius_m=10, hits=(hit,)
    )
    steps = _steps(EXPLAINERS[Exploded](blast, _state(b="robot", c="living"), History()))
    assert (steps["explosion"].rule, steps["explosion"].source) == (
        "S5",
        f"Table 4 effects, entry Explosion ({DATA}/robots.toml)",
    )
    assert (steps["c at 3 m"].value, steps["c at 3 m"].how) == (
        "20",
        "30 <= RS 50: 40 / 2, RS check made (ruling 6)",
    )


# --- healing and repair (S7, S8) -----------------------------------------------------------------


def test_a_healed_injury_shows_the_time_it_took() -> None:
    # S7: a broken limb set in time heals in 3d10+1 = 10+3+5+1 = 19 days from the aftermath at 47 s
    found = _robots_explained(Healed, combatant="kessa")
    steps = _steps(found)
    assert (steps["heals as"].value, steps["heals as"].rule) == ("broken limb", "S7")
    assert steps["heals as"].source == f"healing times ({DATA}/healing.toml), kind broken limb"
    assert (steps["time"].value, steps["ready at"].how) == (
        "19",
        "47.000 s + 19 days (each on its own clock, ruling 22)",
    )
    assert [d.seq for d in found.depends_on] == [_seq_of(HealingScheduled, combatant="kessa")]


def test_a_repair_adds_its_extra_minutes() -> None:
    # S8: arm joint damage: 2d10 = 12 minutes + 10 (one joint) from 0 s: ready at 22 minutes
    roll = _roll("2d10", 12, "b", "repair", 5, 7)
    scheduled = HealingScheduled(
        seq=5,
        t=0,
        combatant="b",
        injury="Arm joint damage",
        heals_as="damage",
        roll=roll,
        extra_minutes=10,
        ready_ms=22 * 60_000,
    )
    healed = Healed(seq=6, t=22 * 60_000, combatant="b", injury="Arm joint damage")
    steps = _steps(EXPLAINERS[Healed](healed, _state(b="robot"), History(scheduled)))
    assert steps["ready at"].how == "0.000 s + 12 minutes + 10 minutes (one repair after another, ruling 24)"
    assert steps["healed"].rule == "S8"


def test_an_unrepaired_robot_says_why_and_under_which_ruling() -> None:
    # S8: sentry-1's side has no one with Robotics skill (ruling 24)
    step = _steps(_robots_explained(NotHealed, combatant="sentry-1", injury="Arm damage"))["not healed"]
    assert (step.value, step.rule) == ("Arm damage", "S8")
    assert step.how == "no one of its side has Robotics skill: a repair needs Robotics skill, ruling 24"


# --- a Vrusk's arm (S7) --------------------------------------------------------------------------


def test_a_vrusks_damaged_arm_shows_its_side_roll() -> None:
    # S7: 1d10 3 <= 5: the left arms (ruling 12); the arm roll stands in the history before the RS check
    special = _special(damage="Arm wound", total=4, injury=None)
    found = EXPLAINERS[SpecialDamage](
        special, _state(a="living", b="living"), History(_check(2, "Vrusk arm (1-5 left)", 3, 5, "1d10"))
    )
    steps = _steps(found)
    assert (steps["Vrusk arm"].value, steps["Vrusk arm"].how) == ("left", "3 <= 5: its left arms (ruling 12)")
    assert steps["RS check"].how == "not made: no modifier"
    assert [d.seq for d in found.depends_on] == [2]


# --- fivestep ------------------------------------------------------------------------------------


def _fivestep_log() -> list[Event]:
    """red (MARKS (90 + 40) / 2 = 65, level 6: chance 15 %) shoots blue, unaware, with the to-hit roll 5;
    1d10 5 + 6 + 3 (Projectile rifle) = 14 reads Arm broken, ruled a head wound of +3 Stamina."""
    ruling = {"target": "blue", "replace_with": "Head wound", "stamina": 3, "reason": "test"}
    built = scenario(
        character("red", "red", aim=90, weapons=[RIFLE]),
        character("blue", "blue", position=[20, 0], weapons=[RIFLE]),
        procedures={"to_hit": 1},
        rolls=[1, 99, 10, 50, 5, 1, 1, 5, 10, 30],
        max_seconds=5,
        modules=["special_damage"],
        rulings=[ruling],
    )
    shot = Scripted([Strike(target="blue", arm=0, cost=13, reason="test")])
    return list(run(built, red=shot, blue=Scripted()).log)


def test_under_fivestep_the_extra_damage_goes_to_the_part_struck() -> None:
    # S10 and ruling 15: the ruled +3 Stamina goes to the head the bolt struck
    log = _fivestep_log()
    special = next(e for e in log if isinstance(e, SpecialDamage))
    steps = _steps(_explained(log, special, "fivestep"))
    assert (
        steps["special damage chance"].how
        == "3 + 2 x level 6 = 15 (level = MARKS or BRAWL // level_divisor, ruling 14)"
    )
    assert steps["extra damage"].how == "the referee's ruling to the head (to the part struck, ruling 15)"
    assert steps["RS check"].how.startswith("none rolled")


def test_under_fivestep_a_special_damage_depends_on_the_to_hit_and_the_damage() -> None:
    # the to-hit roll 5 and the 2 points to the head come before the special damage
    log = _fivestep_log()
    special = next(e for e in log if isinstance(e, SpecialDamage))
    hit = [e.seq for e in log if isinstance(e, ToHitResolved | DamageResolved)]
    ruling = next(e.seq for e in log if isinstance(e, RefereeRuling))
    assert [d.seq for d in _explained(log, special, "fivestep").depends_on] == [*hit, ruling]


# --- the rest ------------------------------------------------------------------------------------


def test_the_other_kinds_are_still_shown_by_their_fields() -> None:
    # S3: vix's lost code breaker (weapon roll 47 > 10: equipment, not a weapon) by its rolls and fields
    event = _robots(EquipmentLost, combatant="vix")
    assert EXPLAINERS[EquipmentLost](event, None, History()) == rolls_and_fields(event, "S3")


# --- the host, as it hands itself over (S1, S9) ------------------------------------------------


HOSTS = sorted(
    name for name in rulesets.BUILT_IN_RULESETS if "special_damage" in rulesets.ruleset(name).modules
)


class _ThirdState(EncounterState[object], kw_only=True):
    """The state of a host the module does not know."""


def _explained_how(state: object) -> dict[str, str]:
    found = EXPLAINERS[SpecialDamage](_special(), state, History())
    return {step.what: step.how for step in found.steps}


def test_both_hosts_carry_the_module() -> None:
    assert HOSTS == ["energion", "fivestep"]


@pytest.mark.parametrize("name", HOSTS)
def test_each_host_hands_over_its_reading_of_its_log(name: str) -> None:
    state = rulesets.ruleset(name).vocabulary(["special_damage"]).new_state()
    assert host_of(state).ruleset == name


@pytest.mark.parametrize("name", HOSTS)
def test_a_hosts_hit_kinds_are_kinds_of_its_log(name: str) -> None:
    vocabulary = rulesets.ruleset(name).vocabulary(["special_damage"])
    host = host_of(vocabulary.new_state())
    assert host.hit_kinds
    assert set(host.hit_kinds) <= {kind_of(kind) for kind in vocabulary.kinds}


def test_a_host_that_handed_over_nothing_is_cited_as_no_ones() -> None:
    # S1, S9: no Energion ruling is cited for a host that is not Energion
    assert host_of(_ThirdState()) is UNKNOWN_HOST
    how = _explained_how(_ThirdState(combatants=_state(a="living", b="living").combatants))
    assert how["special damage"] == "hit roll 5 <= 7% (the host's hit roll)"
    assert "ruling" not in how["special damage chance"] + how["RS check"]


def test_a_third_host_is_cited_by_what_it_handed_over(monkeypatch: pytest.MonkeyPatch) -> None:
    cited = HostRulings(*(f"third ruling {n}" for n in range(1, 7)))
    third = SpecialDamageHost(ruleset="third", state=_ThirdState, rulings=cited)
    monkeypatch.setattr(hosting, "_HOSTS", {})
    hosting.carried_by(third)
    how = _explained_how(_ThirdState(combatants=_state(a="living", b="living").combatants))
    assert how["special damage chance"] == "3 + 2 x level 2 = 7 (third ruling 1)"
    assert how["special damage"] == "hit roll 5 <= 7% (third ruling 2)"
