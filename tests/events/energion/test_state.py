"""The Energion state: what each kind's applier establishes, folded with the Energion vocabulary (and the
special_damage module's kinds); ``digest`` names a state."""

from __future__ import annotations

import hashlib
from decimal import Decimal

import msgspec
import pytest
from hypothesis import given

from affray.errors import LogError
from affray.events.base import Event, Roll
from affray.events.energion.kinds import (
    AttackResolved,
    CombatantJoined,
    GrappleResolved,
    HoldDamageDealt,
    SpellCast,
    SpellInterrupted,
    SpellStarted,
)
from affray.events.energion.state import EnergionCombatant, EnergionState, vocabulary
from affray.events.shared import CombatantOut, EncounterEnded
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.scenario import EnergionScenario
from affray.kernel import fold as folding
from affray.kernel.fold import digest, encode_state
from tests.strategies import (
    condition_scenario,
    example,
    example_log,
    healed_events,
    log_bytes,
    read,
    refusal_scenario,
    ruled_duel,
    scenarios,
)

ZERO = Decimal(0)
VOCABULARY = vocabulary(["special_damage"])


def fold(events: list[Event], state: EnergionState | None = None) -> EnergionState:
    return folding.fold(events, VOCABULARY, state)


def apply(state: EnergionState, event: Event) -> EnergionState:
    return VOCABULARY.apply(state, event)


def joined(combatant: str, side: str, seq: int = 1) -> CombatantJoined:
    return CombatantJoined(
        seq=seq,
        combatant=combatant,
        name=combatant.title(),
        side=side,
        damage_points=Decimal(30),
        position=(Decimal("0.000"), Decimal("1.500")),
        weapon="Sword, Long",
        armor="Cloth",
    )


def combatant(damage_points: Decimal) -> EnergionCombatant:
    return EnergionCombatant(
        id="a",
        name="A",
        side="x",
        damage_points=damage_points,
        position=(ZERO, ZERO),
        weapon="Sword, Long",
        armor="Cloth",
    )


def test_fold_of_no_events_is_the_initial_state() -> None:
    assert fold([]) == EnergionState()


def test_apply_takes_seq_and_t_from_the_event() -> None:
    state = apply(EnergionState(), msgspec.structs.replace(joined("a", "x"), seq=1, t=250))
    assert (state.seq, state.t) == (1, 250)


def test_apply_changes_the_state_in_place_and_returns_it() -> None:
    state = EnergionState()
    assert apply(state, joined("a", "x")) is state
    assert list(state.combatants) == ["a"]


def test_joined_combatant_starts_unhurt_with_what_the_event_says() -> None:
    state = fold([joined("a", "x")])
    a = state.combatants["a"]
    assert (a.side, a.damage_points, a.damage_taken, a.damage_left, a.out) == (
        "x",
        Decimal(30),
        ZERO,
        Decimal(30),
        False,
    )


@pytest.mark.parametrize("name", ["duel", "archers", "mage-duel"])
def test_a_whole_example_log_folds_to_its_last_seq(name: str) -> None:
    events = read(example_log(name)).events
    assert fold(events).seq == len(events)


def test_the_examples_cover_and_fold_every_kind_of_the_vocabulary() -> None:
    # duel, archers, mage-duel and brawl cover the Energion kinds but action_refused, which the refusal
    # scenario yields, and intent_chosen, which the ambush's outside controllers yield; robots healed 30
    # days the special_damage kinds (S1-S8, S10), condition_ended among them (vix comes round, S4), which
    # the condition scenario's aftermath yields too (an unconscious man comes round); a referee's ruling on
    # the duel yields ruling_applied
    names = ("duel", "archers", "mage-duel", "brawl", "ambush")
    logs = [read(example_log(name)).events for name in names]
    logs.append(read(log_bytes(refusal_scenario())).events)
    logs.append(read(log_bytes(ruled_duel())).events)
    logs.append(healed_events(example("robots"), 30))
    logs.append(healed_events(condition_scenario(), 1))
    assert {type(e) for events in logs for e in events} == set(VOCABULARY.kinds)
    for events in logs:
        assert fold(events).seq == len(events)


def test_hits_add_up_to_the_targets_damage_taken() -> None:
    events = read(example_log("skirmish")).events
    state = fold(events)
    for target in state.combatants.values():
        landed = [
            e.damage.damage
            for e in events
            if isinstance(e, AttackResolved) and e.target == target.id and e.damage is not None
        ]
        assert target.damage_taken == sum(landed, ZERO)


def test_combatant_out_and_encounter_ended_are_recorded_in_the_state() -> None:
    events = [
        joined("a", "x", 1),
        joined("b", "y", 2),
        CombatantOut(seq=3, combatant="b", reason="damage points at 0"),
        EncounterEnded(seq=4, winner="x", reason="only side x still stands"),
    ]
    state = fold(events)
    assert (state.combatants["b"].out, state.standing_sides(), state.ended, state.winner) == (
        True,
        ["x"],
        True,
        "x",
    )


def test_fold_onto_a_state_continues_the_replay() -> None:
    events = read(example_log("duel")).events
    assert digest(fold(events[10:], fold(events[:10]))) == digest(fold(events))


def test_digest_is_equal_for_states_folded_separately() -> None:
    events = read(example_log("skirmish")).events
    assert digest(fold(events)) == digest(fold(list(events)))


@given(scenarios())
def test_digest_of_the_live_state_equals_digest_of_the_fold(scenario: EnergionScenario) -> None:
    encounter = EnergionBattle(scenario).run()
    assert digest(encounter.state) == digest(folding.fold(encounter.log, encounter.vocabulary))


def test_digest_does_not_depend_on_the_order_combatants_were_added() -> None:
    a, b = fold([joined("a", "x")]).combatants["a"], fold([joined("b", "y")]).combatants["b"]
    one = EnergionState(combatants={"a": a, "b": b})
    other = EnergionState(combatants={"b": b, "a": a})
    assert digest(one) == digest(other)


def test_digest_differs_when_the_state_differs() -> None:
    events = read(example_log("duel")).events
    assert digest(fold(events[:12])) != digest(fold(events[:13]))


def test_digest_is_a_blake2b_128_hex_of_the_encoded_state() -> None:
    state = fold(read(example_log("duel")).events)
    assert digest(state) == hashlib.blake2b(encode_state(state), digest_size=16).hexdigest()


def test_digest_hashes_decimals_as_written() -> None:
    # Documented: 3 and 3.0 damage points are equal numbers but give different digests.
    one = EnergionState(combatants={"a": combatant(Decimal("3"))})
    other = EnergionState(combatants={"a": combatant(Decimal("3.0"))})
    assert digest(one) != digest(other)


def test_fold_names_the_seq_of_an_event_for_a_combatant_who_never_joined() -> None:
    events = [joined("a", "x", 1), CombatantOut(seq=2, combatant="ghost", reason="r")]
    with pytest.raises(LogError, match="seq 2: combatant_out names combatant 'ghost' who never joined"):
        fold(events)


# -- spells (rule E23) -------------------------------------------------------------------------------


def started(seq: int = 3, t: int = 0) -> SpellStarted:
    return SpellStarted(
        seq=seq,
        t=t,
        combatant="a",
        spell="Bolt",
        target="b",
        preparation_ms=1000,
        initiation_ms=1000,
        casting_ms=6000,
    )


def spell_cast(damage: str, seq: int = 4, t: int = 8000) -> SpellCast:
    roll = Roll(expr="4d10", faces=(1, 2, 3, 4), total=10, purpose="spell", roller="a", source="generated")
    return SpellCast(seq=seq, t=t, combatant="a", spell="Bolt", target="b", roll=roll, damage=Decimal(damage))


def test_spell_started_marks_the_caster_casting() -> None:
    state = fold([joined("a", "x", 1), joined("b", "y", 2), started()])
    assert (state.combatants["a"].casting, state.combatants["a"].spell_ended_ms) == ("Bolt", None)


def test_spell_cast_ends_the_casting_and_counts_the_damage_both_ways() -> None:
    state = fold([joined("a", "x", 1), joined("b", "y", 2), started(), spell_cast("10")])
    a, b = state.combatants["a"], state.combatants["b"]
    assert (a.casting, a.spell_ended_ms, a.attacks, a.hits, a.damage_dealt) == (None, 8000, 1, 1, Decimal(10))
    assert (b.damage_taken, b.damage_left) == (Decimal(10), Decimal(20))


def test_a_spell_of_no_damage_counts_as_an_attack_but_not_a_hit() -> None:
    state = fold([joined("a", "x", 1), joined("b", "y", 2), started(), spell_cast("0")])
    a, b = state.combatants["a"], state.combatants["b"]
    assert (a.attacks, a.hits, a.damage_dealt, b.damage_taken) == (1, 0, ZERO, ZERO)


def test_spell_interrupted_ends_the_casting_at_its_time() -> None:
    lost = SpellInterrupted(
        seq=4, t=3000, combatant="a", spell="Bolt", reason="took damage while casting Bolt"
    )
    state = fold([joined("a", "x", 1), joined("b", "y", 2), started(), lost])
    assert (state.combatants["a"].casting, state.combatants["a"].spell_ended_ms) == (None, 3000)


def test_combatant_out_ends_the_casting() -> None:
    out = CombatantOut(seq=4, t=3000, combatant="a", reason="damage points at -1")
    state = fold([joined("a", "x", 1), joined("b", "y", 2), started(), out])
    assert (state.combatants["a"].out, state.combatants["a"].casting) == (True, None)


def test_hits_and_spells_add_up_to_the_targets_damage_taken_in_the_mage_duel() -> None:
    events = read(example_log("mage-duel")).events
    state = fold(events)
    for target in state.combatants.values():
        blows = [
            e.damage.damage
            for e in events
            if isinstance(e, AttackResolved) and e.target == target.id and e.damage is not None
        ]
        spells = [e.damage for e in events if isinstance(e, SpellCast) and e.target == target.id]
        assert target.damage_taken == sum(blows + spells, ZERO)


# -- grappling (rule E15) ----------------------------------------------------------------------------------


def hold_landed(seq: int = 3, procedure: str = "Full Hold") -> GrappleResolved:
    roll = Roll(expr="1d100", faces=(10,), total=10, purpose="grapple", roller="a", source="generated")
    return GrappleResolved(
        seq=seq,
        t=0,
        attacker="a",
        target="b",
        procedure=procedure,
        hit_chance=Decimal(60),
        armor="ag_luck",
        armor_value=ZERO,
        roll=roll,
        quality=Decimal(50),
        avoidance=None,
        outcome="landed",
        effects=("Disable",),
    )


def test_a_landed_hold_links_holder_and_held() -> None:
    state = fold([joined("a", "x", 1), joined("b", "y", 2), hold_landed()])
    a, b = state.combatants["a"], state.combatants["b"]
    assert (a.holding, a.hold, b.held_by, b.hold) == ("b", "Full Hold", "a", "Full Hold")


def test_a_holder_put_out_releases_its_hold() -> None:
    out = CombatantOut(seq=4, t=1000, combatant="a", reason="damage points at 0")
    state = fold([joined("a", "x", 1), joined("b", "y", 2), hold_landed(), out])
    a, b = state.combatants["a"], state.combatants["b"]
    assert (a.holding, a.hold, b.held_by, b.hold) == (None, None, None, None)


def test_a_held_combatant_put_out_releases_its_holder() -> None:
    out = CombatantOut(seq=4, t=1000, combatant="b", reason="damage points at 0")
    state = fold([joined("a", "x", 1), joined("b", "y", 2), hold_landed(), out])
    assert (state.combatants["a"].holding, state.combatants["a"].hold) == (None, None)


def test_holding_down_counts_its_damage_both_ways() -> None:
    tick = HoldDamageDealt(seq=4, t=2000, holder="a", target="b", damage=Decimal("0.5"))
    state = fold([joined("a", "x", 1), joined("b", "y", 2), hold_landed(procedure="Hold Down"), tick, tick])
    assert (state.combatants["a"].damage_dealt, state.combatants["b"].damage_taken) == (
        Decimal(1),
        Decimal(1),
    )


def _spell(seq: int, target: str) -> SpellStarted:
    return SpellStarted(
        seq=seq,
        t=1000,
        combatant="mog",
        spell="Hex bolt",
        target=target,
        preparation_ms=1000,
        initiation_ms=1000,
        casting_ms=2000,
    )


def test_a_spell_begun_is_aimed_at_its_own_target() -> None:
    # E23: mog, whose controller last chose aelin, begins Hex bolt at bran
    state = fold([joined("mog", "x", 1), joined("aelin", "y", 2), joined("bran", "y", 3), _spell(4, "bran")])
    mog = state.combatants["mog"]
    assert (mog.casting, mog.casting_at) == ("Hex bolt", "bran")


def test_a_spell_cast_leaves_nothing_aimed() -> None:
    cast = SpellCast(
        seq=5,
        t=5000,
        combatant="mog",
        spell="Hex bolt",
        target="bran",
        roll=Roll(expr="1d6", faces=(3,), total=3, purpose="spell", roller="mog", source="generated", draw=1),
        damage=Decimal(3),
    )
    state = fold([joined("mog", "x", 1), joined("bran", "y", 2), _spell(3, "bran"), cast])
    assert (state.combatants["mog"].casting, state.combatants["mog"].casting_at) == (None, None)
