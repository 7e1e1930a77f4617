"""The referee's rulings (``[[rulings]]``) through whole scenarios: Energion's duel and fivestep's bar brawl.

Each test appends rulings to an example scenario's TOML, loads it with the ruleset's loader and runs it.

The duel (examples/duel.toml) unruled: brenna (skill 70, ST 115, CO 120: STbonus 15, CObonus 20) swings a
long sword at gorm in studded leather (armor 20 against type 2); rule E4: hit chance 70 + 15/2 + 20/4 = 82.5;
rule E7: D = 18 + 15/20 = 18.75. Gorm (skill 72, ST 135, CO 110) swings an axe at brenna in a chain suit
with a buckler (armor 30 + 10 against type 6); E4: 72 + 35/2 + 10/4 = 92. The log:

- seq 13 at 15.999 s: brenna, roll 2; E6: 82.5 - 20 - 2 = 60.5; E7: TRUNC(70.5/10)/10 = x0.7 -> 13.125;
- seq 14 at 20.332 s: brenna, roll 90; E6: 82.5 - 20 - 90 = -27.5, a miss;
- seq 17 at 22.333 s: gorm, roll 41; E6: 92 - 40 - 41 = 11; E7 x0.2 of 21.75 -> 4.35 (parry roll 46 fails).
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
    brenna_hit, brenna_miss = at(encounter, 13, AttackResolved), at(encounter, 14, AttackResolved)
    gorm_hit = at(encounter, 17, AttackResolved)
    assert brenna_hit.damage is not None
    assert brenna_hit.damage.damage == Decimal("13.125")
    assert (brenna_miss.outcome, brenna_miss.hit.roll.total, brenna_miss.hit.hit_chance) == (
        "miss",
        90,
        Decimal("82.5"),
    )
    assert (gorm_hit.attacker, gorm_hit.outcome) == ("gorm", "hit")
    assert gorm_hit.damage is not None
    assert gorm_hit.damage.damage == Decimal("4.35")
    assert of(encounter.log, RulingApplied) == []


def test_a_miss_ruling_turns_a_hit_into_a_miss_with_no_damage() -> None:
    # E6: 92 - 40 - 41 = 11 would hit for 4.35 (E7); the ruling makes it a miss, its rolls kept.
    encounter = run(DUEL, '[[rulings]]\nseq = 17\noutcome = "miss"\nreason = "gorm slips on a stone"\n')
    ruled = at(encounter, 17, AttackResolved)
    assert (ruled.attacker, ruled.outcome, ruled.damage) == ("gorm", "miss", None)
    assert (ruled.hit.roll.total, ruled.hit.quality) == (41, Decimal(11))
    applied = at(encounter, 18, RulingApplied)
    assert (applied.combatant, applied.ruling, applied.rules_on, applied.effect, applied.reason) == (
        "gorm",
        0,
        17,
        "the attack is a miss",
        "gorm slips on a stone",
    )
    # Gorm's two later hits still land: 4.35 + 2.175 taken instead of 4.35 + 4.35 + 2.175 = 10.875.
    assert encounter.state.combatants["brenna"].damage_taken == Decimal("6.525")


def test_a_damage_ruling_adds_its_points_to_a_landed_blow() -> None:
    # E7: x0.7 of 18.75 = 13.125, +5 by the ruling = 18.125 dealt.
    encounter = run(DUEL, '[[rulings]]\nseq = 13\ndamage = 5\nreason = "a clean cut"\n')
    ruled = at(encounter, 13, AttackResolved)
    assert ruled.damage is not None
    assert (ruled.damage.damage, ruled.damage.ruled_points) == (Decimal("18.125"), Decimal(5))
    applied = at(encounter, 14, RulingApplied)
    assert (applied.rules_on, applied.effect) == (13, "+5 damage points")
    # Gorm's state after seq 13: 11.25 (seq 10, x0.6 of 18.75) + 18.125 = 29.375 taken of 36.
    gorm = fold(encounter.log[:13], encounter.vocabulary).combatants["gorm"]
    assert (gorm.damage_taken, gorm.damage_left) == (Decimal("29.375"), Decimal("6.625"))


def test_a_negative_damage_ruling_deals_no_less_than_nothing() -> None:
    # E7: 13.125 - 20 would be -6.875: the blow deals 0, and the ruling took off the 13.125 it had.
    encounter = run(DUEL, '[[rulings]]\nseq = 13\ndamage = -20\nreason = "the flat of the blade"\n')
    ruled = at(encounter, 13, AttackResolved)
    assert ruled.damage is not None
    assert (ruled.damage.damage, ruled.damage.ruled_points) == (Decimal(0), Decimal("-13.125"))
    assert fold(encounter.log[:13], encounter.vocabulary).combatants["gorm"].damage_taken == Decimal("11.25")


def test_a_modifier_ruling_raises_the_hit_chance_by_exactly_the_modifier() -> None:
    # E4: 82.5 + 10 = 92.5; E6: 92.5 - 20 - 90 = -17.5, still a miss.
    encounter = run(DUEL, '[[rulings]]\nseq = 14\nmodifier = 10\nreason = "gorm is dazzled"\n')
    ruled = at(encounter, 14, AttackResolved)
    assert (ruled.hit.hit_chance, ruled.hit.quality, ruled.outcome) == (
        Decimal("92.5"),
        Decimal("-17.5"),
        "miss",
    )
    assert ruled.hit.modifiers == (Modifier(name="referee's ruling", value=Decimal(10), rule="ruling"),)
    assert "modifiers" not in fields(at(encounter, 13, AttackResolved))["hit"]
    applied = at(encounter, 15, RulingApplied)
    assert (applied.combatant, applied.rules_on, applied.effect) == ("brenna", 14, "+10 to hit")


def test_a_modifier_until_a_time_applies_to_each_attack_in_its_window_and_not_after() -> None:
    # Brenna attacks at 7.333, 11.666, 15.999, 20.332 s...: [11.666, 20.332) holds the second and third.
    # E4: 82.5 + 10 = 92.5; at 15.999 s E6: 92.5 - 20 - 2 = 70.5, E7: TRUNC(80.5/10)/10 = x0.8 -> 15.
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
    assert brennas[2].damage is not None
    assert brennas[2].damage.damage == Decimal(15)
    applied = of(encounter.log, RulingApplied)
    assert [(a.rules_on, a.ruling, a.effect) for a in applied] == [
        (brennas[1].seq, 0, "+10 to hit"),
        (brennas[2].seq, 0, "+10 to hit"),
    ]


def test_a_ruling_by_time_rules_on_only_its_combatants_outcomes() -> None:
    # Gorm's first attack at or after 10 s is seq 17 (22.333 s); brenna's attacks before it are not his.
    encounter = run(DUEL, '[[rulings]]\nat = 10\ncombatant = "gorm"\noutcome = "miss"\nreason = "fog"\n')
    ruled = at(encounter, 17, AttackResolved)
    assert (ruled.attacker, ruled.outcome, ruled.damage) == ("gorm", "miss", None)
    assert [(a.rules_on, a.combatant) for a in of(encounter.log, RulingApplied)] == [(17, "gorm")]


def test_a_later_rulings_seq_counts_the_ruling_applied_events_before_it() -> None:
    # The first ruling's ruling_applied is seq 14, so gorm's first attack (seq 17 unruled) is seq 18.
    encounter = run(
        DUEL,
        '[[rulings]]\nseq = 13\ndamage = 5\nreason = "a clean cut"\n\n'
        '[[rulings]]\nseq = 18\noutcome = "miss"\nreason = "gorm slips"\n',
    )
    ruled = at(encounter, 18, AttackResolved)
    assert (ruled.attacker, ruled.outcome) == ("gorm", "miss")
    assert [(a.seq, a.ruling, a.rules_on) for a in of(encounter.log, RulingApplied)] == [
        (14, 0, 13),
        (19, 1, 18),
    ]


def test_a_damage_ruling_keyed_to_a_miss_is_an_error() -> None:
    # E6: seq 14 is -27.5, a miss: no blow landed to add 5 points to.
    with pytest.raises(RulingError, match=r"^\$\.rulings\[0\]: seq 14 is a miss: no blow landed"):
        run(DUEL, '[[rulings]]\nseq = 14\ndamage = 5\nreason = "a clean cut"\n')


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
    # Gorm's next attack was due at 31 s: there is none.
    assert [a.t for a in of(encounter.log, AttackResolved) if a.attacker == "gorm"] == [22333]


def test_a_seq_ruling_on_another_kind_of_event_is_an_error_naming_that_kind() -> None:
    # seq 11 is gorm's reaction (rule E1), not an attack.
    with pytest.raises(
        RulingError,
        match=(
            r"^\$\.rulings\[0\]: seq 11 is a reacted, "
            r"not what an outcome ruling rules on \(an attack_resolved\)$"
        ),
    ):
        run(DUEL, '[[rulings]]\nseq = 11\noutcome = "miss"\nreason = "fog"\n')


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
            r"\$\.rulings\[0\]: the fight ended at seq 27, before seq 99$",
        ),
        (
            'at = 100\ncombatant = "gorm"\nmodifier = 5\nreason = "x"',
            r"gorm had no attack_resolved at or after 100\.0 s to rule on \(the fight ended at 46\.330 s\)$",
        ),
        (
            'at = 100\ncombatant = "gorm"\nleaves = true\nreason = "x"',
            r"the fight ended at 46\.330 s, before gorm could leave at 100\.0 s$",
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
        + '\n[[rulings]]\nseq = 13\ndamage = 5\nreason = "a clean cut"\n'
        + '\n[[rulings]]\nseq = 18\noutcome = "miss"\nreason = "gorm slips"\n'
        + '\n[[rulings]]\nat = 24\nuntil = 30\ncombatant = "brenna"\nmodifier = -5\nreason = "mist"\n'
        + '\n[[rulings]]\nat = 30\ncombatant = "gorm"\nleaves = true\nreason = "he runs"\n'
    )
    assert call_main(["run", scenario, "-o", log]) == 0
    # One each for the seq rulings and the leaving, two for brenna's attacks at 24.665 and 28.998 s.
    assert log.read_text().count('"kind":"ruling_applied"') == 5
    capsys.readouterr()
    assert call_main(["verify", log]) == 0
    assert capsys.readouterr().out.startswith("ok: ")


# --- the special damage form (S10) in the same list -----------------------------------------------------

SPECIAL = 'modules = ["special_damage"]\n'


def test_a_special_damage_ruling_and_a_general_one_load_and_apply_together() -> None:
    rulings = (
        '[[rulings]]\ntarget = "gorm"\nstamina = 0\nreason = "a glancing blow"\n\n'
        '[[rulings]]\nat = 0\ncombatant = "brenna"\nmodifier = 5\nreason = "the sun behind her"\n'
    )
    scenario = load(DUEL, rulings, SPECIAL)
    assert [(r.target, r.modifier) for r in scenario.rulings] == [("gorm", None), (None, 5)]
    encounter = ruleset("energion").battle(scenario).run()
    # E4: brenna's first attack (seq 10) at 82.5 + 5 = 87.5; the general ruling is number 1.
    first = at(encounter, 10, AttackResolved)
    assert first.hit.hit_chance == Decimal("87.5")
    assert [(a.ruling, a.rules_on) for a in of(encounter.log, RulingApplied)] == [(1, 10)]
    assert any(fields(e)["kind"] == "referee_ruling" for e in encounter.log)


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
    # F8, procedure 1: a d100 under BRAWL (50 + 25) / 2 = 37.5 hits: lily's roll 25 would hit gus.
    assert (hit.attacker, hit.skill, hit.roll.total if hit.roll else None) == ("lily", Decimal("37.5"), 25)
    encounter = run(BRAWL, f'[[rulings]]\nseq = {hit.seq}\noutcome = "miss"\nreason = "lily trips"\n')
    ruled = at(encounter, hit.seq, ToHitResolved)
    assert (ruled.outcome, ruled.ruled_miss, ruled.part, ruled.roll) == ("miss", True, None, hit.roll)
    applied = at(encounter, hit.seq + 1, RulingApplied)
    assert (applied.combatant, applied.rules_on, applied.effect) == ("lily", hit.seq, "the attack is a miss")
    # No damage (F10) follows the ruled attack: the unruled blow's damage_resolved at that instant is gone.
    assert [e.seq for e in of(unruled_brawl(), DamageResolved) if e.t == hit.t] == [hit.seq + 2]
    assert [e.seq for e in of(encounter.log, DamageResolved) if e.t == hit.t] == []


def test_a_fivestep_damage_ruling_adds_its_points_to_the_damage() -> None:
    blow = next(iter(of(unruled_brawl(), DamageResolved)))
    # F10: lily's Knife, DAMAGE DIE ROLL "1": one d10, face 2 -> 2 points to gus's head; +3 -> 5.
    assert (blow.attacker, blow.points, blow.part) == ("lily", 2, "head")
    encounter = run(BRAWL, f'[[rulings]]\nseq = {blow.seq}\ndamage = 3\nreason = "into the eye"\n')
    ruled = at(encounter, blow.seq, DamageResolved)
    assert (ruled.points, ruled.ruled_points, ruled.part_taken) == (5, 3, 5)
    applied = at(encounter, blow.seq + 1, RulingApplied)
    assert (applied.combatant, applied.rules_on, applied.effect) == ("lily", blow.seq, "+3 points")
    assert (
        fold(encounter.log[: blow.seq], encounter.vocabulary).combatants["gus"].location_damage["head"] == 5
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
    # F8, procedure 1: BRAWL 37.5 + 50 = 87.5; lily's roll 81 is under it: a hit, where procedure 1 lets
    # a random location say (Table 3-3.4), and its damage follows (F10).
    assert (miss.attacker, miss.skill, miss.roll.total if miss.roll else None) == (
        "lily",
        Decimal("37.5"),
        81,
    )
    encounter = run(BRAWL, f'[[rulings]]\nseq = {miss.seq}\nmodifier = 50\nreason = "gus is drunk"\n')
    ruled = at(encounter, miss.seq, ToHitResolved)
    assert (ruled.skill, ruled.ruled_modifier, ruled.chance, ruled.outcome) == (
        Decimal("87.5"),
        50,
        Decimal("87.5"),
        "hit",
    )
    assert ruled.part is not None
    applied = at(encounter, miss.seq + 1, RulingApplied)
    assert (applied.rules_on, applied.effect) == (miss.seq, "+50 to skill")
    damage = next(e for e in of(encounter.log[miss.seq :], DamageResolved))
    assert (damage.attacker, damage.part) == ("lily", ruled.part)


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
