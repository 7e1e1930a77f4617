"""Diffs of two logs: leaf-by-leaf differences by path, the first seq at which events part, outcomes."""

from __future__ import annotations

from decimal import Decimal

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from affray.events.codec import encode_log
from affray.events.energion.kinds import AttackResolved
from affray.replays.diff import (
    FieldDifference,
    diff_logs,
    differences,
    event_differences,
    header_differences,
    outcome_differences,
    shown,
    tell_diff,
)
from tests.strategies import example, example_log, header_for, read, with_seed

DUEL = read(example_log("duel"))
N = len(DUEL.events)


def first_hit() -> AttackResolved:
    return next(e for e in DUEL.events if isinstance(e, AttackResolved) and e.damage is not None)


def harder(event: AttackResolved) -> AttackResolved:
    assert event.damage is not None
    return msgspec.structs.replace(
        event, damage=msgspec.structs.replace(event.damage, damage=event.damage.damage + 1)
    )


def test_nested_values_differ_by_the_path_of_each_leaf() -> None:
    a = {"damage": {"damage": Decimal(4), "base": 20}, "position": [Decimal(1), Decimal(2)]}
    b = {"damage": {"damage": Decimal(5), "base": 20}, "position": [Decimal(1), Decimal(3)]}
    assert differences(a, b) == [
        FieldDifference("damage.damage", Decimal(4), Decimal(5)),
        FieldDifference("position[1]", Decimal(2), Decimal(3)),
    ]


def test_a_member_one_side_lacks_is_none_there() -> None:
    assert differences({"a": 1}, {"a": 1, "b": 2}) == [FieldDifference("b", None, 2)]


def test_lists_of_different_lengths_differ_whole() -> None:
    assert differences({"faces": [1]}, {"faces": [1, 2]}) == [FieldDifference("faces", [1], [1, 2])]


@given(st.recursive(st.integers() | st.text(max_size=3), lambda inner: st.lists(inner, max_size=3)))
def test_a_value_does_not_differ_from_itself(value: object) -> None:
    assert differences(value, value) == []


def test_an_event_differs_from_its_edit_only_where_it_was_edited() -> None:
    hit = first_hit()
    assert hit.damage is not None
    assert event_differences(hit, harder(hit)) == [
        FieldDifference("damage.damage", hit.damage.damage, hit.damage.damage + 1)
    ]


def test_headers_differ_in_the_seed_and_in_the_scenario_by_path() -> None:
    other = header_for(with_seed(example("duel"), 7))
    assert header_differences(DUEL.header, other) == [
        FieldDifference("seed", DUEL.header.seed, 7),
        FieldDifference("scenario.seed", DUEL.header.seed, 7),
    ]


def test_a_header_does_not_differ_in_the_affray_version_that_wrote_it() -> None:
    newer = msgspec.structs.replace(DUEL.header, affray_version="9.9.9")
    assert header_differences(DUEL.header, newer) == []


def test_a_log_does_not_differ_from_itself() -> None:
    found = diff_logs(DUEL, DUEL)
    assert (found.same, found.parting, found.a) == (True, None, found.b)


def test_two_logs_part_at_the_first_edited_event_and_show_both_sides() -> None:
    hit = first_hit()
    edited = read(encode_log(DUEL.header, [harder(e) if e.seq == hit.seq else e for e in DUEL.events]))
    found = diff_logs(DUEL, edited)
    assert found.parting is not None
    assert (found.parting.seq, found.parting.fields) == (hit.seq, event_differences(hit, harder(hit)))
    assert found.parting.a["kind"] == found.parting.b["kind"] == "attack_resolved"


def test_a_log_that_stops_early_parts_where_the_longer_goes_on() -> None:
    short = read(encode_log(DUEL.header, DUEL.events[:10]))
    found = diff_logs(short, DUEL)
    assert found.parting is not None
    assert (found.parting.seq, found.parting.a, found.parting.b["seq"]) == (11, None, 11)
    assert tell_diff(found, "A", "B")[0] == "A ends at seq 10; B goes on with " + (
        f"{found.parting.b['kind']} at seq 11"
    )


def test_the_outcome_of_each_log_is_its_end_and_each_combatants_fate() -> None:
    outcome = diff_logs(DUEL, DUEL).a
    gorm = outcome.combatants["gorm"]
    # the duel: gorm goes out at its end, 54.996 s, having taken 45 of brenna's blows
    # (3.75 + 1.875 + 7.5 + 3.75 + 9.375 + 9.375 + 9.375 = 45: 36 DP down to -9)
    assert (outcome.events, outcome.t, outcome.winner) == (N, 54996, "ford")
    assert (gorm.out_at, gorm.damage_taken, outcome.combatants["brenna"].out_at) == (
        54996,
        Decimal("45"),
        None,
    )


def test_only_the_outcome_rows_that_differ_are_shown() -> None:
    other = read(encode_log(DUEL.header, DUEL.events[:10]))
    rows = outcome_differences(diff_logs(DUEL, DUEL).a, diff_logs(other, other).a)
    assert [row.path for row in rows] == ["winner", "ends at", "end reason", "events", "brenna", "gorm"]


def test_a_same_diff_says_so_in_one_line() -> None:
    assert tell_diff(diff_logs(DUEL, DUEL), "A", "B") == [
        f"A and B hold the same header and the same {N} events"
    ]


def test_a_seed_is_shown_with_every_digit() -> None:
    assert shown(4751919573177038156) == "4751919573177038156"


def test_an_absurd_integer_is_shown_in_e_notation() -> None:
    assert shown(10**40) == "1.000000e+40"
