"""Casting spells on the clock (rule E23): preparation, one second of initiation, the casting time; a second
between spells; damage interrupts; what a spell does at its end; refusals; and the mage-duel example.

Every run here drives its combatants with scripted controllers, so each timing is the rule's and nothing
else's. Unless a test says otherwise, everyone is prepared (no reaction time) with a long sword in hand, so
each acts from t = 0.
"""

from __future__ import annotations

from decimal import Decimal

from affray.events.codec import encode_log
from affray.events.energion.kinds import AttackResolved, SpellCast, SpellInterrupted, SpellStarted
from affray.events.shared import ActionRefused, CombatantOut, EncounterEnded
from affray.handlers.energion.battle import EnergionBattle
from affray.kernel.encounter import Encounter
from affray.npc.energion.intents import Approach, Attack, Cast, Wait
from tests.handlers.energion import TomlValue, fighter, of_kind, run, scenario
from tests.strategies import example, header_for, read, tell, verdict

BOLT: dict[str, TomlValue] = {
    "name": "Bolt",
    "preparation": 1,
    "casting_seconds": 6,
    "damage": "4d10",
    "range_m": 40,
}
"""Preparation 1 s + initiation 1 s + casting 6 s = 8 s."""
SPARK: dict[str, TomlValue] = {"name": "Spark", "casting_seconds": 1, "damage": "1d10", "range_m": 25}
"""No preparation: initiation 1 s + casting 1 s = 2 s."""
SLOW: dict[str, TomlValue] = {"name": "Slow", "casting_seconds": 10, "damage": "1d10"}
"""No preparation: initiation 1 s + casting 10 s = 11 s; range 30 m by default."""


def caster(*spells: dict[str, TomlValue], **fields: TomlValue) -> dict[str, TomlValue]:
    """``a`` of side ford at the origin, prepared, with ``spells``."""
    return fighter("a", "ford", prepared=True, spells=list(spells), **fields)


def foe(id: str = "b", position: list[TomlValue] | None = None, **fields: TomlValue) -> dict[str, TomlValue]:
    """A prepared raider, 10 m north of the origin unless placed elsewhere."""
    return fighter(id, "raiders", prepared=True, position=position or [0, 10], **fields)


def cast_at(target: str = "b", spell: int = 0) -> Cast:
    return Cast(spell=spell, target=target, reason="r")


# --- timing (E23) --------------------------------------------------------------------------------------


def test_a_spell_with_fixed_preparation_lands_after_preparation_initiation_and_casting() -> None:
    # rule E23: preparation 1 s + initiation 1 s + casting 6 s = 8 s after the start; 4d10 = 1+2+3+4 = 10
    encounter, _ = run(scenario(caster(BOLT), foe(), rolls=[1, 2, 3, 4]), a=[cast_at()])
    (started,) = of_kind(encounter, SpellStarted)
    assert (started.t, started.spell, started.target) == (0, "Bolt", "b")
    assert (started.preparation_ms, started.initiation_ms, started.casting_ms, started.roll) == (
        1000,
        1000,
        6000,
        None,
    )
    (cast,) = of_kind(encounter, SpellCast)
    assert (cast.t, cast.target, cast.roll.expr, cast.roll.faces, cast.damage) == (
        8000,
        "b",
        "4d10",
        (1, 2, 3, 4),
        Decimal(10),
    )


def test_a_rolled_preparation_is_read_as_seconds_and_recorded() -> None:
    # rule E23: preparation 1d4 = 3 s + initiation 1 s + casting 2 s = 6 s after the start
    rolled = {**SPARK, "preparation": "1d4", "casting_seconds": 2}
    encounter, _ = run(scenario(caster(rolled), foe(), rolls=[3, 5]), a=[cast_at()])
    (started,) = of_kind(encounter, SpellStarted)
    assert started.roll is not None
    assert (started.roll.expr, started.roll.total, started.roll.roller, started.roll.purpose) == (
        "1d4",
        3,
        "a",
        "spell-preparation",
    )
    assert started.preparation_ms == 3000
    (cast,) = of_kind(encounter, SpellCast)
    assert (cast.t, cast.roll.purpose, cast.damage) == (6000, "spell", Decimal(5))


def test_the_caster_decides_again_when_its_spell_lands() -> None:
    # rule E23: preparation 1 s + initiation 1 s + casting 6 s = 8 s; nothing else is done meanwhile
    _, scripts = run(scenario(caster(BOLT), foe(), rolls=[1, 1, 1, 1]), a=[cast_at()])
    assert [view.now for view in scripts["a"].views] == [0, 8000]


def test_a_second_spell_begins_one_second_after_the_first_ends() -> None:
    # rule E23: Spark ends at 0 + 1 s initiation + 1 s casting = 2 s; the next may begin no sooner than
    # 2 + 1 = 3 s, and lands at 3 + 1 + 1 = 5 s
    encounter, _ = run(scenario(caster(SPARK), foe(), rolls=[4, 6]), a=[cast_at(), cast_at()])
    assert [e.t for e in of_kind(encounter, SpellStarted)] == [0, 3000]
    assert [e.t for e in of_kind(encounter, SpellCast)] == [2000, 5000]


def test_the_gap_between_spells_is_not_added_when_a_second_has_passed() -> None:
    # rule E23: Spark ends at 2 s; a 1 s wait takes the caster to 3 s, one second after: it begins at once
    encounter, _ = run(
        scenario(caster(SPARK), foe(), rolls=[4, 6]),
        a=[cast_at(), Wait(seconds=1, reason="r"), cast_at()],
    )
    assert [e.t for e in of_kind(encounter, SpellStarted)] == [0, 3000]


def test_an_interrupted_spell_also_waits_a_second_before_the_next() -> None:
    # rule E23: Slow begins at 0 s; b's Spark (0 + 1 + 1 s) hits a at 2 s and interrupts it;
    # a's next spell begins at 2 + 1 = 3 s
    encounter, _ = run(
        scenario(caster(SLOW, SPARK), foe(spells=[SPARK]), rolls=[5, 6]),
        a=[cast_at(), cast_at(spell=1)],
        b=[cast_at("a")],
    )
    (lost,) = of_kind(encounter, SpellInterrupted)
    assert (lost.t, lost.combatant, lost.spell) == (2000, "a", "Slow")
    assert [(e.t, e.combatant, e.spell) for e in of_kind(encounter, SpellStarted)] == [
        (0, "a", "Slow"),
        (0, "b", "Spark"),
        (3000, "a", "Spark"),
    ]


# --- interruption by damage (E23) ----------------------------------------------------------------------


def test_a_blow_taken_while_casting_interrupts_the_spell() -> None:
    # rule E23: Slow would land at 0 + 1 + 10 = 11 s; b waits 3 s and strikes (roll 1: a hit) at 3 s
    encounter, _ = run(
        scenario(caster(SLOW, damage_points=200), foe(position=[0, 1]), rolls=[1]),
        a=[cast_at()],
        b=[Wait(seconds=3, reason="r"), Attack(target="a", reason="r")],
    )
    (blow,) = of_kind(encounter, AttackResolved)
    assert (blow.t, blow.outcome) == (3000, "hit")
    (lost,) = of_kind(encounter, SpellInterrupted)
    assert (lost.t, lost.combatant, lost.spell, lost.reason) == (
        3000,
        "a",
        "Slow",
        "took damage while casting Slow",
    )
    assert of_kind(encounter, SpellCast) == []
    assert encounter.state.combatants["a"].casting is None


def test_an_interrupted_caster_decides_again_at_once() -> None:
    # rule E23: the spell is lost at 3 s; the caster is free to act then
    _, scripts = run(
        scenario(caster(SLOW, damage_points=200), foe(position=[0, 1]), rolls=[1]),
        a=[cast_at()],
        b=[Wait(seconds=3, reason="r"), Attack(target="a", reason="r")],
    )
    assert [view.now for view in scripts["a"].views] == [0, 3000]


def test_a_spell_landing_on_a_caster_interrupts_its_spell() -> None:
    # rule E23: b's Spark lands at 0 + 1 + 1 = 2 s (1d10 = 5 of a's 30 DP); a's Slow (11 s) is lost at 2 s
    encounter, _ = run(
        scenario(caster(SLOW), foe(spells=[SPARK]), rolls=[5]), a=[cast_at()], b=[cast_at("a")]
    )
    (cast,) = of_kind(encounter, SpellCast)
    (lost,) = of_kind(encounter, SpellInterrupted)
    assert (cast.t, cast.combatant, cast.damage) == (2000, "b", Decimal(5))
    assert (lost.t, lost.combatant, lost.reason) == (2000, "a", "took damage while casting Slow")
    assert lost.seq == cast.seq + 1


def test_a_blow_that_puts_the_caster_out_emits_no_interruption() -> None:
    # rule E23: a (1 DP) is casting Slow (11 s) when b's blow at 3 s puts it out; c keeps side ford standing
    encounter, _ = run(
        scenario(
            caster(SLOW, damage_points=1),
            foe(position=[0, 1]),
            fighter("c", "ford", prepared=True, position=[50, 50]),
            rolls=[1],
            max_seconds=20,
        ),
        a=[cast_at()],
        b=[Wait(seconds=3, reason="r"), Attack(target="a", reason="r")],
    )
    (out,) = of_kind(encounter, CombatantOut)
    assert (out.t, out.combatant) == (3000, "a")
    assert of_kind(encounter, SpellInterrupted) == []
    assert of_kind(encounter, SpellCast) == []
    after = [e for e in encounter.log if e.seq > out.seq and getattr(e, "combatant", None) == "a"]
    assert after == []
    assert encounter.state.combatants["a"].casting is None


def test_a_caster_does_not_parry_while_casting() -> None:
    # rule E23 (with E5): a reacted and holds a shield, but a reaction would interrupt the spell
    encounter, _ = run(
        scenario(caster(SLOW, damage_points=200, shield="Medium", parry=20), foe(position=[0, 1]), rolls=[1]),
        a=[cast_at()],
        b=[Wait(seconds=3, reason="r"), Attack(target="a", reason="r")],
    )
    (blow,) = of_kind(encounter, AttackResolved)
    assert (blow.outcome, blow.parry) == ("hit", None)


def test_the_same_caster_not_casting_parries() -> None:
    # the control for the test above: waiting instead of casting, a tries its shield (roll 100: not parried)
    encounter, _ = run(
        scenario(
            caster(SLOW, damage_points=200, shield="Medium", parry=20), foe(position=[0, 1]), rolls=[1, 100]
        ),
        a=[Wait(seconds=10, reason="r")],
        b=[Wait(seconds=3, reason="r"), Attack(target="a", reason="r")],
    )
    (blow,) = of_kind(encounter, AttackResolved)
    assert blow.parry is not None
    assert (blow.parry.device, blow.parry.parried) == ("shield:Medium", False)


# --- the end of the casting (E23) ----------------------------------------------------------------------


def test_a_target_out_when_the_spell_ends_loses_the_spell() -> None:
    # rule E23: Bolt would land at 1 + 1 + 6 = 8 s; c puts b (1 DP) out at 0 s; d keeps the raiders standing
    encounter, _ = run(
        scenario(
            caster(BOLT),
            foe(damage_points=1),
            fighter("c", "ford", prepared=True, position=[0, 11]),
            foe("d", position=[80, 80]),
            rolls=[1, 100],
            max_seconds=20,
        ),
        a=[cast_at()],
        c=[Attack(target="b", reason="r")],
    )
    (out,) = of_kind(encounter, CombatantOut)
    assert out.combatant == "b"
    (lost,) = of_kind(encounter, SpellInterrupted)
    assert (lost.t, lost.combatant, lost.spell, lost.reason) == (8000, "a", "Bolt", "b is out of the fight")
    assert of_kind(encounter, SpellCast) == []


def test_a_target_gone_beyond_range_when_the_spell_ends_loses_the_spell() -> None:
    # rule E23: Firebolt (range 35 m) takes 0.5 + 1 + 2 = 3.5 s; b walks 6 m a second toward c, from 30 m
    # at 0 s to 36, 42 and 48 m at 1, 2 and 3 s: at 3.5 s it is 48 m away
    firebolt: dict[str, TomlValue] = {
        "name": "Firebolt",
        "preparation": 0.5,
        "casting_seconds": 2,
        "damage": "2d10",
        "range_m": 35,
    }
    encounter, _ = run(
        scenario(
            caster(firebolt),
            foe(position=[0, 30], move_rate=6),
            fighter("c", "ford", prepared=True, position=[0, 200]),
        ),
        a=[cast_at()],
        b=[Approach(target="c", reason="r")] * 5,
    )
    (lost,) = of_kind(encounter, SpellInterrupted)
    assert (lost.t, lost.spell, lost.reason) == (3500, "Firebolt", "b is 48.000 m away, beyond 35 m")
    assert of_kind(encounter, SpellCast) == []


def test_a_spell_without_preparation_has_zero_preparation() -> None:
    # rule E23: preparation defaults to 0: initiation 1 s + casting 1 s = 2 s
    encounter, _ = run(scenario(caster(SPARK), foe(), rolls=[7]), a=[cast_at()])
    (started,) = of_kind(encounter, SpellStarted)
    assert (started.preparation_ms, started.roll) == (0, None)
    (cast,) = of_kind(encounter, SpellCast)
    assert cast.t == 2000


def test_a_negative_damage_total_deals_no_damage() -> None:
    # 1d4-5 rolled 2: 2 - 5 = -3 -> max(-3, 0) = 0 damage
    weak = {**SPARK, "damage": "1d4-5"}
    encounter, _ = run(scenario(caster(weak), foe(), rolls=[2]), a=[cast_at()])
    (cast,) = of_kind(encounter, SpellCast)
    assert (cast.roll.total, cast.damage) == (-3, Decimal(0))
    assert encounter.state.combatants["b"].damage_taken == Decimal(0)


# --- refusals (E23) ------------------------------------------------------------------------------------


def test_casting_a_spell_not_known_is_refused_and_costs_a_second() -> None:
    encounter, scripts = run(scenario(caster(SPARK), foe()), a=[cast_at(spell=1)])
    (refused,) = of_kind(encounter, ActionRefused)
    assert (refused.t, refused.action, refused.reason) == (0, "cast spell 1", "there is no spell number 1")
    assert of_kind(encounter, SpellStarted) == []
    assert [view.now for view in scripts["a"].views] == [0, 1000]


def test_a_negative_spell_number_is_refused() -> None:
    encounter, _ = run(scenario(caster(SPARK), foe()), a=[cast_at(spell=-1)])
    (refused,) = of_kind(encounter, ActionRefused)
    assert refused.reason == "there is no spell number -1"


def test_casting_at_a_target_beyond_range_is_refused() -> None:
    # Spark reaches 25 m; b is 30 m away
    encounter, _ = run(scenario(caster(SPARK), foe(position=[0, 30])), a=[cast_at()])
    (refused,) = of_kind(encounter, ActionRefused)
    assert (refused.action, refused.reason) == ("cast spell 0", "b is 30.000 m away, beyond Spark's 25 m")
    assert of_kind(encounter, SpellStarted) == []


def test_casting_at_someone_not_in_the_fight_is_refused() -> None:
    encounter, _ = run(scenario(caster(SPARK), foe()), a=[cast_at("nobody")])
    (refused,) = of_kind(encounter, ActionRefused)
    assert refused.reason == "nobody is not in the fight"


def test_the_view_lists_the_spells_with_their_least_time() -> None:
    # Bolt: 1 + 1 + 6 = 8 s; Spark: 0 + 1 + 1 = 2 s; a rolled preparation counts as 0 at the least
    rolled = {**SPARK, "name": "Rolled", "preparation": "1d4"}
    _, scripts = run(scenario(caster(BOLT, SPARK, rolled), foe()))
    spells = scripts["a"].views[0].spells
    assert [(s.index, s.name, s.range_m, s.total_ms) for s in spells] == [
        (0, "Bolt", Decimal(40), 8000),
        (1, "Spark", Decimal(25), 2000),
        (2, "Rolled", Decimal(25), 2000),
    ]


# --- the effect: damage, its tally, the end of the encounter -------------------------------------------


def test_spell_damage_counts_in_damage_dealt_and_taken() -> None:
    # 4d10 = 1+2+3+4 = 10 damage on b's 30 DP -> 20 left
    encounter, _ = run(scenario(caster(BOLT), foe(), rolls=[1, 2, 3, 4]), a=[cast_at()])
    a, b = encounter.state.combatants["a"], encounter.state.combatants["b"]
    assert (a.damage_dealt, a.attacks, a.hits) == (Decimal(10), 1, 1)
    assert (b.damage_taken, b.damage_left) == (Decimal(10), Decimal(20))


def test_a_spell_that_puts_the_last_foe_out_ends_the_encounter() -> None:
    # rule E23: 4d10 = 10+10+10+10 = 40 on b's 30 DP at 1 + 1 + 6 = 8 s -> out, side ford wins
    encounter, _ = run(scenario(caster(BOLT), foe(), rolls=[10, 10, 10, 10]), a=[cast_at()])
    cast, out, ended = encounter.log[-3:]
    assert isinstance(cast, SpellCast)
    assert isinstance(out, CombatantOut)
    assert isinstance(ended, EncounterEnded)
    assert (cast.t, out.t, ended.t) == (8000, 8000, 8000)
    assert (out.combatant, out.reason, ended.winner) == ("b", "damage points at -10", "ford")


def test_an_idle_caster_state_holds_no_spell_after_a_cast() -> None:
    encounter, _ = run(scenario(caster(SPARK), foe(), rolls=[3]), a=[cast_at()])
    a = encounter.state.combatants["a"]
    assert (a.casting, a.spell_ended_ms) == (None, 2000)


# --- no damage, and blows in the same instant ----------------------------------------------------------


def test_a_spell_of_no_damage_does_not_interrupt_the_targets_spell() -> None:
    # rule E23: "any taking of damage" interrupts; b's spell of 1d4-5 rolled 2 = -3 -> 0 damage at 2 s:
    # a has taken no damage and its Slow (11 s) should go on
    weak = {**SPARK, "damage": "1d4-5"}
    encounter, _ = run(
        scenario(caster(SLOW), foe(spells=[weak]), rolls=[2, 5], max_seconds=20),
        a=[cast_at()],
        b=[cast_at("a")],
    )
    assert of_kind(encounter, SpellInterrupted) == []
    assert [(e.t, e.combatant) for e in of_kind(encounter, SpellCast)] == [(2000, "b"), (11_000, "a")]


def test_a_caster_put_out_by_a_second_blow_in_the_same_instant_emits_nothing_after_the_out() -> None:
    # rule E23: a's Spark lands on x at 0 + 1 + 1 = 2 s (5 of x's 8 DP: x's Slow is to be interrupted);
    # in the same instant a strikes x (roll 1: 10.8 damage) and puts it out before the interrupt arrives
    encounter, _ = run(
        scenario(
            caster(SPARK),
            foe("x", position=[0, 1], damage_points=8, spells=[SLOW]),
            foe("y", position=[80, 80]),
            rolls=[5, 1],
            max_seconds=20,
        ),
        a=[cast_at("x"), Attack(target="x", reason="r")],
        x=[cast_at("a")],
    )
    (out,) = of_kind(encounter, CombatantOut)
    assert (out.t, out.combatant) == (2000, "x")
    assert [e for e in encounter.log if e.seq > out.seq and getattr(e, "combatant", None) == "x"] == []


def test_nothing_is_logged_after_a_blow_on_a_caster_ends_the_encounter() -> None:
    # as above, without y: x out at 2 s leaves only side ford standing
    encounter, _ = run(
        scenario(caster(SPARK), foe("x", position=[0, 1], damage_points=8, spells=[SLOW]), rolls=[5, 1]),
        a=[cast_at("x"), Attack(target="x", reason="r")],
        x=[cast_at("a")],
    )
    assert isinstance(encounter.log[-1], EncounterEnded)


# --- the mage-duel example -----------------------------------------------------------------------------


def mage_duel() -> tuple[EnergionBattle, Encounter]:
    battle = EnergionBattle(example("mage-duel"))
    return battle, battle.run()


def test_mage_duel_example_verifies() -> None:
    battle, encounter = mage_duel()
    found = verdict(read(encode_log(header_for(battle.scenario), encounter.log)))
    assert found.ok, found.message


def test_mage_duel_example_has_morcants_firebolt_interrupted_by_the_lance_of_frost() -> None:
    _, encounter = mage_duel()
    lost = [e for e in of_kind(encounter, SpellInterrupted) if e.combatant == "morcant"]
    assert lost
    first = lost[0]
    assert (first.t, first.spell, first.reason) == (9000, "Firebolt", "took damage while casting Firebolt")
    (lance,) = [e for e in encounter.log if e.seq == first.seq - 1]
    assert isinstance(lance, SpellCast)
    assert (lance.combatant, lance.spell, lance.target) == ("isolde", "Lance of Frost", "morcant")


def test_mage_duel_example_narrates_each_spell_event() -> None:
    _, encounter = mage_duel()
    lines = list(tell(encounter.log))
    assert any(" begins Lance of Frost at morcant: " in line for line in lines)
    assert any(" casts Lance of Frost at morcant: 4d10=" in line for line in lines)
    assert any(" morcant loses Firebolt: took damage while casting Firebolt" in line for line in lines)


# --- a caster's battle initiative (E1, E3, E23; ruling 35) -----------------------------------------------

UNREADY_DAGGER: list[TomlValue] = [{"name": "Dagger, Normal", "readiness": "unready"}]


def test_a_caster_that_casts_first_waits_its_spells_preparation_not_its_weapons_initiative() -> None:
    # rule E23: "must roll for battle initiative ... including time to prepare for casting": the spell's
    # preparation is the battle initiative. Preparation 2 s + initiation 1 s + casting 3 s = 6 s, whatever
    # the unready dagger's initiative (IN 6 s) would have been; the dagger is never readied
    quick = {**BOLT, "preparation": 2, "casting_seconds": 3}
    encounter, _ = run(
        scenario(caster(quick, weapons=UNREADY_DAGGER), foe(), rolls=[1, 2, 3, 4]), a=[cast_at()]
    )
    (started,) = of_kind(encounter, SpellStarted)
    (cast,) = of_kind(encounter, SpellCast)
    assert (started.t, cast.t) == (0, 6000)
    assert not encounter.state.combatants["a"].readied


def test_a_caster_that_strikes_first_readies_its_weapon_with_its_initiative() -> None:
    # rules E1, E3: a caster whose first action is a blow takes the weapon's battle initiative first: the
    # unready dagger's IN 6 s (stats 100: no adjustment), then the blow at 6 s
    built = scenario(caster(BOLT, weapons=UNREADY_DAGGER), foe(position=[0, 1]), rolls=[99])
    encounter, _ = run(built, a=[Attack(target="b", reason="r")])
    (blow,) = of_kind(encounter, AttackResolved)
    assert blow.t == 6000
    assert encounter.state.combatants["a"].readied
