"""The referee's rulings (``[[rulings]]``) through whole scenarios: Energion's duel and fivestep's bar brawl.

Each test appends rulings to an example scenario's TOML, loads it with the ruleset's loader and runs it.

The duel (examples/duel.toml) unruled: brenna (skill 70, ST 115, CO 120: STbonus 15, CObonus 20) swings a
long sword at gorm in studded leather (armor 20 against type 2); rule E4: hit chance 70 + 15/2 + 20/4 = 82.5;
rule E7: D = 18 + 15/20 = 18.75. Gorm (skill 72, ST 135, CO 110) swings an axe at brenna in a chain suit
with a buckler (armor 30 + 10 against type 6); E4: 72 + 35/2 + 10/4 = 92. The log:

- seq 12 at 11.666 s: brenna, roll 52; E6: 82.5 - 20 - 52 = 10.5; E7: TRUNC(20.5/10)/10 = x0.2 -> 3.75;
- seq 13 at 15.999 s: brenna, roll 98; E6: 82.5 - 20 - 98 = -35.5, a miss;
- seq 20 at 28.998 s: brenna, roll 24; E6: 82.5 - 20 - 24 = 38.5; E7: TRUNC(48.5/10)/10 = x0.4 -> 7.5;
- seq 25 at 44.334 s: gorm, roll 7; E6: 92 - 40 - 7 = 45; E7: TRUNC(55/10)/10 = x0.5 of 21.75 -> 10.875
  (parry roll 90 fails), gorm's only blow that lands.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import pytest

from affray.errors import ScenarioError
from affray.events.base import Event
from affray.events.energion.kinds import AttackResolved, Modifier
from affray.events.fivestep.kinds import DamageResolved, ToHitResolved
from affray.events.shared import CombatantOut, EncounterEnded, RulingApplied
from affray.kernel.encounter import Encounter
from affray.kernel.fold import fold
from affray.kernel.referee import RulingError
from affray.kernel.scenario import parse_toml
from affray.rulesets import ruleset
from tests.cli.conftest import call_main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = EXAMPLES / "duel.toml"
BRAWL = EXAMPLES / "bar-brawl.toml"
E = TypeVar("E", bound=Event)


def load(path: Path, rulings: str, head: str = "") -> Any:
    """The example at ``path`` with ``rulings`` appended (and ``head`` before it), as its ruleset loads it;
    the files it names are read from examples/."""
    source = path.name
    raw = parse_toml(head + path.read_text() + "\n" + rulings, source)
    return ruleset(str(raw["ruleset"])).load(raw, source, EXAMPLES)


def run(path: Path, rulings: str = "", head: str = "") -> Encounter[Any]:
    scenario = load(path, rulings, head)
    return ruleset(scenario.ruleset).battle(scenario).run()


def at(encounter: Encounter[Any], seq: int, kind: type[E]) -> E:
    """The event at ``seq``, which must be of ``kind``."""
    event = encounter.log[seq - 1]
    assert event.seq == seq
    assert isinstance(event, kind), event
    return event


def of(events: Sequence[Event], kind: type[E]) -> list[E]:
    return [event for event in events if isinstance(event, kind)]


def fields(event: Event) -> dict[str, Any]:
    """The event as its log line records it (defaults left out)."""
    decoded: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(event))
    return decoded


# --- Energion: examples/duel.toml -----------------------------------------------------------------------


def test_the_unruled_duel_is_the_log_these_tests_compute_from() -> None:
    encounter = run(DUEL)
    brenna_first_hit, brenna_miss = at(encounter, 12, AttackResolved), at(encounter, 13, AttackResolved)
    brenna_hit, gorm_hit = at(encounter, 20, AttackResolved), at(encounter, 25, AttackResolved)
    assert brenna_first_hit.damage is not None
    assert brenna_first_hit.damage.damage == Decimal("3.75")
    assert brenna_hit.damage is not None
    assert brenna_hit.damage.damage == Decimal("7.5")
    assert (brenna_miss.outcome, brenna_miss.hit.roll.total, brenna_miss.hit.hit_chance) == (
        "miss",
        98,
        Decimal("82.5"),
    )
    assert (gorm_hit.attacker, gorm_hit.outcome) == ("gorm", "hit")
    assert gorm_hit.damage is not None
    assert gorm_hit.damage.damage == Decimal("10.875")
    assert of(encounter.log, RulingApplied) == []


def test_a_miss_ruling_turns_a_hit_into_a_miss_with_no_damage() -> None:
    # E6: 82.5 - 20 - 24 = 38.5 would hit for 7.5 (E7); the ruling makes it a miss, its rolls kept.
    encounter = run(DUEL, '[[rulings]]\nseq = 20\noutcome = "miss"\nreason = "brenna slips on a stone"\n')
    ruled = at(encounter, 20, AttackResolved)
    assert (ruled.attacker, ruled.outcome, ruled.damage) == ("brenna", "miss", None)
    assert (ruled.hit.roll.total, ruled.hit.quality) == (24, Decimal("38.5"))
    applied = at(encounter, 21, RulingApplied)
    assert (applied.combatant, applied.ruling, applied.rules_on, applied.effect, applied.reason) == (
        "brenna",
        0,
        20,
        "the attack is a miss",
        "brenna slips on a stone",
    )
    # Brenna's other six hits still land: 3.75 + 1.875 + 3.75 + 9.375 + 9.375 + 9.375 = 37.5 taken, instead
    # of 45 with the 7.5 of the ruled blow.
    assert encounter.state.combatants["gorm"].damage_taken == Decimal("37.5")


def test_a_damage_ruling_adds_its_points_to_a_landed_blow() -> None:
    # E7: x0.4 of 18.75 = 7.5, +5 by the ruling = 12.5 dealt.
    encounter = run(DUEL, '[[rulings]]\nseq = 20\ndamage = 5\nreason = "a clean cut"\n')
    ruled = at(encounter, 20, AttackResolved)
    assert ruled.damage is not None
    assert (ruled.damage.damage, ruled.damage.ruled_points) == (Decimal("12.5"), Decimal(5))
    applied = at(encounter, 21, RulingApplied)
    assert (applied.rules_on, applied.effect) == (20, "+5 damage points")
    # Gorm's state after seq 20: 3.75 (seq 12, x0.2 of 18.75) + 1.875 (seq 18, x0.1) + 12.5 = 18.125 taken
    # of 36, 17.875 left.
    gorm = fold(encounter.log[:20], encounter.vocabulary).combatants["gorm"]
    assert (gorm.damage_taken, gorm.damage_left) == (Decimal("18.125"), Decimal("17.875"))


def test_a_negative_damage_ruling_deals_no_less_than_nothing() -> None:
    # E7: 7.5 - 20 would be -12.5: the blow deals 0, and the ruling took off the 7.5 it had.
    encounter = run(DUEL, '[[rulings]]\nseq = 20\ndamage = -20\nreason = "the flat of the blade"\n')
    ruled = at(encounter, 20, AttackResolved)
    assert ruled.damage is not None
    assert (ruled.damage.damage, ruled.damage.ruled_points) == (Decimal(0), Decimal("-7.5"))
    # Gorm took only the blows before it: 3.75 (seq 12) + 1.875 (seq 18) = 5.625.
    assert fold(encounter.log[:20], encounter.vocabulary).combatants["gorm"].damage_taken == Decimal("5.625")


def test_a_modifier_ruling_raises_the_hit_chance_by_exactly_the_modifier() -> None:
    # E4: 82.5 + 10 = 92.5; E6: 92.5 - 20 - 98 = -25.5, still a miss.
    encounter = run(DUEL, '[[rulings]]\nseq = 13\nmodifier = 10\nreason = "gorm is dazzled"\n')
    ruled = at(encounter, 13, AttackResolved)
    assert (ruled.hit.hit_chance, ruled.hit.quality, ruled.outcome) == (
        Decimal("92.5"),
        Decimal("-25.5"),
        "miss",
    )
    assert ruled.hit.modifiers == (Modifier(name="referee's ruling", value=Decimal(10), rule="ruling"),)
    assert "modifiers" not in fields(at(encounter, 12, AttackResolved))["hit"]
    applied = at(encounter, 14, RulingApplied)
    assert (applied.combatant, applied.rules_on, applied.effect) == ("brenna", 13, "+10 to hit")


def test_a_modifier_until_a_time_applies_to_each_attack_in_its_window_and_not_after() -> None:
    # Brenna attacks at 7.333, 11.666, 15.999, 20.332 s...: [11.666, 20.332) holds the second and third.
    # E4: 82.5 + 10 = 92.5; at 11.666 s E6: 92.5 - 20 - 52 = 20.5, E7: TRUNC(30.5/10)/10 = x0.3 -> 5.625.
    encounter = run(
        DUEL,
        '[[rulings]]\nat = 11.666\nuntil = 20.332\ncombatant = "brenna"\nmodifier = 10\nreason = "mist"\n',
    )
    brennas = [a for a in of(encounter.log, AttackResolved) if a.attacker == "brenna"]
    chances = [(a.t, a.hit.hit_chance, sum(m.value for m in a.hit.modifiers)) for a in brennas[:5]]
    assert chances == [
        (7333, Decimal("82.5"), 0),
        (11666, Decimal("92.5"), 10),
        (15999, Decimal("92.5"), 10),
        (20332, Decimal("82.5"), 0),
        (24665, Decimal("82.5"), 0),
    ]
    assert brennas[1].damage is not None
    assert brennas[1].damage.damage == Decimal("5.625")
    applied = of(encounter.log, RulingApplied)
    assert [(a.rules_on, a.ruling, a.effect) for a in applied] == [
        (brennas[1].seq, 0, "+10 to hit"),
        (brennas[2].seq, 0, "+10 to hit"),
    ]


def test_a_ruling_by_time_rules_on_only_its_combatants_outcomes() -> None:
    # Gorm's first attack at or after 40 s is seq 25 (44.334 s); brenna's attack at 41.997 s is not his.
    encounter = run(DUEL, '[[rulings]]\nat = 40\ncombatant = "gorm"\noutcome = "miss"\nreason = "fog"\n')
    ruled = at(encounter, 25, AttackResolved)
    assert (ruled.attacker, ruled.outcome, ruled.damage) == ("gorm", "miss", None)
    assert [(a.rules_on, a.combatant) for a in of(encounter.log, RulingApplied)] == [(25, "gorm")]


def test_a_later_rulings_seq_counts_the_ruling_applied_events_before_it() -> None:
    # The first ruling's ruling_applied is seq 21, so gorm's hit (seq 25 unruled) is seq 26.
    encounter = run(
        DUEL,
        '[[rulings]]\nseq = 20\ndamage = 5\nreason = "a clean cut"\n\n'
        '[[rulings]]\nseq = 26\noutcome = "miss"\nreason = "gorm slips"\n',
    )
    ruled = at(encounter, 26, AttackResolved)
    assert (ruled.attacker, ruled.outcome) == ("gorm", "miss")
    assert [(a.seq, a.ruling, a.rules_on) for a in of(encounter.log, RulingApplied)] == [
        (21, 0, 20),
        (27, 1, 26),
    ]


def test_a_damage_ruling_keyed_to_a_miss_is_an_error() -> None:
    # E6: seq 13 is -35.5, a miss: no blow landed to add 5 points to.
    with pytest.raises(RulingError, match=r"^\$\.rulings\[0\]: seq 13 is a miss: no blow landed"):
        run(DUEL, '[[rulings]]\nseq = 13\ndamage = 5\nreason = "a clean cut"\n')


def test_a_leaves_ruling_takes_the_combatant_out_at_its_time_and_ends_the_fight() -> None:
    encounter = run(DUEL, '[[rulings]]\nat = 30\ncombatant = "gorm"\nleaves = true\nreason = "he runs"\n')
    out = of(encounter.log, CombatantOut)
    assert [(o.t, o.combatant, o.reason) for o in out] == [(30000, "gorm", "the referee's ruling: he runs")]
    applied = at(encounter, out[0].seq + 1, RulingApplied)
    assert (applied.combatant, applied.rules_on, applied.effect) == ("gorm", out[0].seq, "leaves the fight")
    ended = encounter.log[-1]
    assert isinstance(ended, EncounterEnded)
    assert (ended.t, ended.winner) == (30000, "ford")
    assert encounter.state.combatants["gorm"].out
    # Gorm's next attack was due at 35.667 s: there is none.
    assert [a.t for a in of(encounter.log, AttackResolved) if a.attacker == "gorm"] == [18333, 27000]


def test_a_seq_ruling_on_another_kind_of_event_is_an_error_naming_that_kind() -> None:
    # seq 6 is gorm's reaction (rule E1), not an attack.
    with pytest.raises(
        RulingError,
        match=(
            r"^\$\.rulings\[0\]: seq 6 is a reacted, "
            r"not what an outcome ruling rules on \(an attack_resolved\)$"
        ),
    ):
        run(DUEL, '[[rulings]]\nseq = 6\noutcome = "miss"\nreason = "fog"\n')


def test_a_seq_ruling_on_another_combatants_attack_is_an_error() -> None:
    # seq 13 is brenna's attack; the ruling says it is gorm's.
    with pytest.raises(
        RulingError, match=r"seq 13 is an attack_resolved, .* \(an attack_resolved by gorm\)$"
    ):
        run(DUEL, '[[rulings]]\nseq = 13\ncombatant = "gorm"\noutcome = "miss"\nreason = "fog"\n')


@pytest.mark.parametrize(
    ("rulings", "message"),
    [
        (
            'seq = 99\ndamage = 5\nreason = "x"',
            r"\$\.rulings\[0\]: the fight ended at seq 31, before seq 99$",
        ),
        (
            'at = 100\ncombatant = "gorm"\nmodifier = 5\nreason = "x"',
            r"gorm had no attack_resolved at or after 100\.0 s to rule on \(the fight ended at 54\.996 s\)$",
        ),
        (
            'at = 100\ncombatant = "gorm"\nleaves = true\nreason = "x"',
            r"the fight ended at 54\.996 s, before gorm could leave at 100\.0 s$",
        ),
    ],
    ids=["seq-beyond-the-end", "at-after-the-end", "leaves-after-the-end"],
)
def test_a_ruling_that_never_took_effect_is_an_error_after_the_run(rulings: str, message: str) -> None:
    with pytest.raises(RulingError, match=message):
        run(DUEL, f"[[rulings]]\n{rulings}\n")


def test_a_ruling_that_cannot_apply_is_a_scenario_error_at_load_naming_it() -> None:
    with pytest.raises(ScenarioError, match=r"^duel\.toml: \$\.rulings\[1\]\.combatant: no combatant 'zed'$"):
        load(
            DUEL,
            '[[rulings]]\nseq = 13\ndamage = 5\nreason = "x"\n\n'
            '[[rulings]]\nat = 3\ncombatant = "zed"\nmodifier = 5\nreason = "x"\n',
        )


def test_a_log_with_rulings_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario, log = tmp_path / "duel.toml", tmp_path / "duel.jsonl"
    scenario.write_text(
        DUEL.read_text()
        + '\n[[rulings]]\nseq = 12\ndamage = 5\nreason = "a clean cut"\n'
        + '\n[[rulings]]\nat = 24\nuntil = 30\ncombatant = "brenna"\nmodifier = -5\nreason = "mist"\n'
        + '\n[[rulings]]\nseq = 28\noutcome = "miss"\nreason = "gorm slips"\n'
        + '\n[[rulings]]\nat = 50\ncombatant = "gorm"\nleaves = true\nreason = "he runs"\n'
    )
    assert call_main(["run", scenario, "-o", log]) == 0
    # One each for the seq rulings and the leaving, two for brenna's attacks at 24.665 and 28.998 s; the
    # three ruling_applied before gorm's hit (seq 25 unruled) make it seq 28.
    assert log.read_text().count('"kind":"ruling_applied"') == 5
    capsys.readouterr()
    assert call_main(["verify", log]) == 0
    assert capsys.readouterr().out.startswith("ok: ")


# --- the special damage form (S10) in the same list -----------------------------------------------------

SPECIAL = 'modules = ["special_damage"]\n'


def test_a_special_damage_ruling_and_a_general_one_load_and_apply_together() -> None:
    rulings = (
        '[[rulings]]\ntarget = "brenna"\nstamina = 0\nreason = "a glancing blow"\n\n'
        '[[rulings]]\nat = 0\ncombatant = "brenna"\nmodifier = 5\nreason = "the sun behind her"\n'
    )
    scenario = load(DUEL, rulings, SPECIAL)
    assert [(r.target, r.modifier) for r in scenario.rulings] == [("brenna", None), (None, 5)]
    encounter = ruleset("energion").battle(scenario).run()
    # E4: brenna's first attack (seq 11) at 82.5 + 5 = 87.5; the general ruling is number 1.
    first = at(encounter, 11, AttackResolved)
    assert first.hit.hit_chance == Decimal("87.5")
    assert [(a.ruling, a.rules_on) for a in of(encounter.log, RulingApplied)] == [(1, 11)]
    # The special damage ruling is on brenna's first special damage: gorm's hit at 44.334 s.
    assert any(fields(e)["kind"] == "referee_ruling" for e in encounter.log)


GORMS = '[[rulings]]\ntarget = "gorm"\nreplace_with = "Leg wound"\nreason = "a glancing blow"\n'
"""A ruling on gorm's first special damage: the duel with the module gives him none."""


def test_a_special_damage_ruling_used_leaves_the_run_without_a_warning() -> None:
    # S10: brenna's first special damage (gorm's hit at 44.334 s) is ruled
    encounter = run(
        DUEL, '[[rulings]]\ntarget = "brenna"\nstamina = 0\nreason = "a glancing blow"\n', SPECIAL
    )
    assert encounter.warnings == []


def test_a_special_damage_ruling_never_used_is_a_warning_of_the_run_not_an_error() -> None:
    # S10: gorm takes no special damage in the duel; another seed or a what-if may well give him some
    encounter = run(DUEL, GORMS, SPECIAL)
    assert encounter.warnings == [
        "1 of the rulings on special damage (S10) was never used: "
        "$.rulings[0] (gorm never took special damage)"
    ]


def test_a_general_ruling_never_applied_is_still_an_error_beside_an_unused_special_one() -> None:
    # the fight ends at 54.996 s, long before the general ruling's seq
    rulings = GORMS + '\n[[rulings]]\nseq = 500\ndamage = 5\nreason = "late"\n'
    with pytest.raises(RulingError, match=r"^\$\.rulings\[1\]: the fight ended at seq \d+, before seq 500"):
        run(DUEL, rulings, SPECIAL)


@pytest.mark.parametrize("field", ['replace_with = "Leg wound"', "stamina = 3"])
def test_a_special_damage_alteration_without_a_target_is_an_error(field: str) -> None:
    with pytest.raises(
        ScenarioError, match=r"^duel\.toml: \$\.rulings\[0\]\.target: a ruling on special damage names whose"
    ):
        load(DUEL, f'[[rulings]]\n{field}\nreason = "x"\n', SPECIAL)


def test_a_special_damage_ruling_with_a_general_field_is_an_error() -> None:
    with pytest.raises(
        ScenarioError, match=r"\$\.rulings\[0\]: a ruling on special damage \(target\) has no seq"
    ):
        load(DUEL, '[[rulings]]\ntarget = "gorm"\nseq = 13\nstamina = 0\nreason = "x"\n', SPECIAL)


@pytest.mark.parametrize("field", ["damage = 0", "modifier = 0", "at = 0"])
def test_a_special_damage_ruling_with_a_general_field_of_zero_is_an_error(field: str) -> None:
    with pytest.raises(ScenarioError, match=r"a ruling on special damage \(target\) has no"):
        load(DUEL, f'[[rulings]]\ntarget = "gorm"\n{field}\nreason = "x"\n', SPECIAL)


# --- fivestep: examples/bar-brawl.toml ------------------------------------------------------------------


@cache
def unruled_brawl() -> tuple[Event, ...]:
    return tuple(run(BRAWL).log)


def first_to_hit(outcome: str) -> ToHitResolved:
    return next(e for e in of(unruled_brawl(), ToHitResolved) if e.outcome == outcome and e.roll is not None)


def test_a_fivestep_miss_ruling_makes_a_hit_a_miss_with_no_damage() -> None:
    hit = first_to_hit("hit")
    # F8, procedure 1: a d100 under BRAWL (65 + 20) / 2 = 42.5 hits: bruno's roll 23 would hit lily.
    assert (hit.attacker, hit.target, hit.skill, hit.roll.total if hit.roll else None) == (
        "bruno",
        "lily",
        Decimal("42.5"),
        23,
    )
    encounter = run(BRAWL, f'[[rulings]]\nseq = {hit.seq}\noutcome = "miss"\nreason = "bruno trips"\n')
    ruled = at(encounter, hit.seq, ToHitResolved)
    assert (ruled.outcome, ruled.ruled_miss, ruled.part, ruled.roll) == ("miss", True, None, hit.roll)
    applied = at(encounter, hit.seq + 1, RulingApplied)
    assert (applied.combatant, applied.rules_on, applied.effect) == ("bruno", hit.seq, "the attack is a miss")
    # No damage (F10) follows the ruled attack: the unruled blow's damage_resolved at that instant is gone.
    assert [e.seq for e in of(unruled_brawl(), DamageResolved) if e.t == hit.t] == [hit.seq + 1]
    assert [e.seq for e in of(encounter.log, DamageResolved) if e.t == hit.t] == []


def test_a_fivestep_damage_ruling_adds_its_points_to_the_damage() -> None:
    blow = next(iter(of(unruled_brawl(), DamageResolved)))
    # F10: bruno's Fists, DAMAGE DIE ROLL "1/2+1": one d10, face 2 -> 2/2 + 1 = 2 points to lily's right leg;
    # +3 -> 5.
    assert (blow.attacker, blow.target, blow.points, blow.part) == ("bruno", "lily", 2, "right leg")
    encounter = run(BRAWL, f'[[rulings]]\nseq = {blow.seq}\ndamage = 3\nreason = "into the knee"\n')
    ruled = at(encounter, blow.seq, DamageResolved)
    assert (ruled.points, ruled.ruled_points, ruled.part_taken) == (5, 3, 5)
    applied = at(encounter, blow.seq + 1, RulingApplied)
    assert (applied.combatant, applied.rules_on, applied.effect) == ("bruno", blow.seq, "+3 points")
    assert (
        fold(encounter.log[: blow.seq], encounter.vocabulary).combatants["lily"].location_damage["right leg"]
        == 5
    )


def test_a_fivestep_damage_ruling_keyed_to_the_to_hit_is_an_error_naming_what_it_rules_on() -> None:
    hit = first_to_hit("hit")
    with pytest.raises(
        RulingError,
        match=rf"seq {hit.seq} is a to_hit_resolved, not what a damage ruling rules on \(a damage_resolved\)",
    ):
        run(BRAWL, f'[[rulings]]\nseq = {hit.seq}\ndamage = 3\nreason = "x"\n')


def test_a_fivestep_modifier_ruling_adds_to_the_skill() -> None:
    miss = first_to_hit("miss")
    # F8, procedure 1: BRAWL 42.5 + 50 = 92.5; bruno's roll 61 is under it: a hit, where procedure 1 lets
    # a random location say (Table 3-3.4), and its damage follows (F10).
    assert (miss.attacker, miss.skill, miss.roll.total if miss.roll else None) == (
        "bruno",
        Decimal("42.5"),
        61,
    )
    encounter = run(BRAWL, f'[[rulings]]\nseq = {miss.seq}\nmodifier = 50\nreason = "lily is drunk"\n')
    ruled = at(encounter, miss.seq, ToHitResolved)
    assert (ruled.skill, ruled.ruled_modifier, ruled.chance, ruled.outcome) == (
        Decimal("92.5"),
        50,
        Decimal("92.5"),
        "hit",
    )
    assert ruled.part is not None
    applied = at(encounter, miss.seq + 1, RulingApplied)
    assert (applied.rules_on, applied.effect) == (miss.seq, "+50 to skill")
    damage = next(e for e in of(encounter.log[miss.seq :], DamageResolved))
    assert (damage.attacker, damage.part) == ("bruno", ruled.part)


def test_a_fivestep_leaves_ruling_takes_the_combatant_out_at_its_time() -> None:
    encounter = run(BRAWL, '[[rulings]]\nat = 3\ncombatant = "gus"\nleaves = true\nreason = "gus runs"\n')
    out = next(o for o in of(encounter.log, CombatantOut) if o.combatant == "gus")
    assert (out.t, out.reason) == (3000, "the referee's ruling: gus runs")
    applied = at(encounter, out.seq + 1, RulingApplied)
    assert (applied.rules_on, applied.effect) == (out.seq, "leaves the fight")
    assert [h.t for h in of(encounter.log, ToHitResolved) if h.target == "gus" and h.t > 3000] == []


def test_a_leaves_ruling_before_the_combatant_joins_is_a_ruling_error() -> None:
    # max's side (the bouncer) joins at 10 s.
    with pytest.raises(RulingError, match=r"\$\.rulings\[0\]: max has not joined the fight at 5\.0 s"):
        run(BRAWL, '[[rulings]]\nat = 5\ncombatant = "max"\nleaves = true\nreason = "x"\n')


def test_a_fivestep_log_with_rulings_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario, log = tmp_path / "bar-brawl.toml", tmp_path / "bar-brawl.jsonl"
    text = BRAWL.read_text().replace('"tables/', f'"{EXAMPLES.as_posix()}/tables/')
    scenario.write_text(
        text
        + f'\n[[rulings]]\nseq = {first_to_hit("miss").seq}\nmodifier = -5\nreason = "smoke"\n'
        + '\n[[rulings]]\nat = 1\ncombatant = "otto"\nmodifier = 10\nreason = "a long stool"\n'
    )
    assert call_main(["run", scenario, "-o", log]) == 0
    capsys.readouterr()
    assert call_main(["verify", log]) == 0
    assert capsys.readouterr().out.startswith("ok: ")
