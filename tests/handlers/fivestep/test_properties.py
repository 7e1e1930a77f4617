"""Properties of every fivestep fight, whatever the procedures, options and dice: the log re-simulates,
the live state is the fold of the log at every seq, and the clock keeps the rules' time (rules F3-F7)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from affray.events.codec import encode_log
from affray.events.fivestep.kinds import ActionTaken, RoundStarted, TurnStarted
from affray.handlers.fivestep.battle import FivestepBattle
from affray.handlers.fivestep.scenario import FivestepScenario
from affray.kernel.fold import digest, fold
from tests.handlers.fivestep import BODY, FIST, GRENADE, RIFLE, character, of_kind, scenario
from tests.strategies import (
    any_example,
    header_for,
    read,
    rolls_made_and_logged,
    run_with_snapshots,
    seeds,
    tell,
    verdict,
    with_seed,
)

ALL_TABLES = {
    name: f"tables/fivestep/{name}.toml"
    for name in (
        "3-1",
        "3-2",
        "3-3",
        "3-3.1",
        "3-3.4",
        "3-4.0",
        "3-4.1",
        "3-6",
        "3-7.0",
        "3-7.1",
        "3-8",
        "3-15.1",
    )
}
KNIFE = {
    "name": "Knife",
    "combat": "hand_to_hand",
    "difficulty": 25,
    "damage": "1/2+1",
    "wep_mod": 2,
    "damage_type": "blade",
    "action": "stab with a knife",
}


@st.composite
def fivestep_scenarios(draw: st.DrawFn) -> FivestepScenario:
    """Two or three sides of one to three characters, any procedure for every step, any options."""
    action = draw(st.sampled_from([1, 2]))
    procedures = {
        "surprise": draw(st.sampled_from([1, 2, 3])),
        "primary_attack": draw(st.sampled_from([1, 2, 3])),
        "primary_each_round": draw(st.sampled_from([1, 2])),
        "action": action,
        "to_hit": draw(st.sampled_from([1, 2, 3])),
        "damage": draw(st.sampled_from([2, 3])),
    }
    options: dict[str, Any] = {
        "sub_turns": draw(st.integers(min_value=1, max_value=6)) if action == 2 else 1,
        "borrowing": action == 2 and draw(st.booleans()),
        "grazing": draw(st.booleans()),
        "need_under": draw(st.booleans()),
        "damage_slows": draw(st.booleans()),
        "at_or_under": draw(st.booleans()),
        "over_misses": draw(st.booleans()),
        "locate_hits": draw(st.sampled_from(["aimed", "random"])),
        "discretion_actions": draw(st.integers(min_value=1, max_value=4)),
    }
    if draw(st.booleans()):
        options["sight_m"] = draw(st.sampled_from([8, 20, 60]))
    sides = draw(st.sampled_from([["red", "blue"], ["red", "blue", "green"]]))
    characters = []
    for side_number, side in enumerate(sides):
        for member in range(draw(st.integers(min_value=1, max_value=3))):
            characters.append(
                character(
                    f"{side}{member}",
                    side,
                    position=[side_number * draw(st.sampled_from([2, 10, 30])), member * 2],
                    perception=draw(st.integers(min_value=0, max_value=100)),
                    alertness=draw(st.integers(min_value=0, max_value=100)),
                    agility=draw(st.integers(min_value=10, max_value=120)),
                    aim=draw(st.integers(min_value=0, max_value=100)),
                    brawl=draw(st.integers(min_value=0, max_value=100)),
                    strength=draw(st.integers(min_value=1, max_value=150)),
                    borrows=draw(st.booleans()),
                    weapons=draw(
                        st.lists(
                            st.sampled_from([FIST, KNIFE, RIFLE, GRENADE]),
                            min_size=1,
                            max_size=3,
                            unique_by=lambda w: w["name"],
                        )
                    ),
                )
            )
    late = draw(st.sampled_from([0, 0, 5, 12])) if len(sides) == 3 else 0
    special = draw(st.booleans())
    if special:
        kind = draw(st.sampled_from(["living", "robot", "computer"]))
        characters[-1]["kind"] = kind
        if kind == "computer":
            characters[-1]["programs"] = [{"name": "Computer Security", "level": 2, "alarms": ["bell"]}]
    return scenario(
        *characters,
        procedures=procedures,
        options=options,
        tables=ALL_TABLES,
        sides=[{"id": sides[-1], "joins_at": late, "passes": draw(st.booleans())}],
        adversity={
            "always": [{"table": "3-7.0", "condition": "fog"}],
            "target_moved": {"table": "3-7.1", "condition": "target moving"},
        },
        body=[{**part, "organ_row": part["name"].split()[-1]} for part in BODY],
        max_seconds=40,
        modules=["special_damage"] if special else [],
    )


def _fold_matches_live(built: FivestepScenario) -> None:
    run = run_with_snapshots(built)
    state = fold([], run.vocabulary)
    for event, live in zip(run.log, run.snapshots, strict=True):
        fold([event], run.vocabulary, state)
        assert digest(state) == live, f"seq {event.seq}"


@given(fivestep_scenarios())
def test_live_state_equals_the_fold_of_the_log_at_every_seq(built: FivestepScenario) -> None:
    _fold_matches_live(built)


@given(fivestep_scenarios())
def test_a_log_verifies_by_re_simulating_its_header(built: FivestepScenario) -> None:
    battle = FivestepBattle(built)
    data = encode_log(header_for(battle.scenario), battle.run().log)
    found = verdict(read(data))
    assert found.ok, found


@given(fivestep_scenarios())
def test_rounds_start_every_five_seconds_and_actions_end_inside_their_piece(built: FivestepScenario) -> None:
    # rules F3, F7: round k starts at 5000 (k - 1); an action ends within its turn's piece
    log = FivestepBattle(built).run().log
    assert all(r.t == 5000 * (r.round - 1) for r in of_kind(log, RoundStarted))
    pieces: dict[str, TurnStarted] = {}
    for event in log:
        if isinstance(event, TurnStarted):
            pieces[event.combatant] = event
        elif isinstance(event, ActionTaken):
            piece = pieces[event.combatant]
            assert piece.t <= event.t <= piece.end_ms


@given(fivestep_scenarios())
def test_every_event_is_told(built: FivestepScenario) -> None:
    log = FivestepBattle(built).run().log
    assert len(list(tell(log, "fivestep"))) == len(log)


@given(seeds)
def test_the_examples_fold_to_their_live_state_under_any_seed(seed: int) -> None:
    for name in ("bar-brawl", "firefight"):
        _fold_matches_live(with_seed(any_example(name), seed))


@given(fivestep_scenarios())
def test_every_die_rolled_is_in_the_log(built: FivestepScenario) -> None:
    # the design: every roll is in the log, so a referee sees each die that decided something
    made, logged = rolls_made_and_logged(built)
    assert logged == made
