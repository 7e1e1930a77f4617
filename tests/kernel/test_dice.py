"""Dice: expressions, the blake2b-ctr streams (docs/log-format.md, "Dice"), recorded rolls, manual dice."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.errors import DiceExhausted, ScenarioError
from affray.events.base import Roll
from affray.kernel.dice import (
    DICE_ALGORITHM,
    Dice,
    DiceExpression,
    EnteredDice,
    GeneratedDice,
    ManualDice,
    parse_expression,
)

SPAN = 2**64
streams = st.text(min_size=1, max_size=20)
sides_ = st.integers(min_value=1, max_value=1000)


ALGORITHMS = ("blake2b-ctr-v1", "blake2b-ctr-v2")
V2_BRENNA = [7, 10, 7, 6, 6, 6, 7, 7]
"""The first eight d10 faces of brenna/perception under seed 1130 and blake2b-ctr-v2."""


def reference_word(seed: int, stream: str, n: int, algorithm: str = DICE_ALGORITHM) -> int:
    """Word ``n`` of a stream, from the documented message layout, hashed here independently of affray:
    v1 hashes word ``n`` alone (8-byte digest); v2 hashes block ``n // 8`` (64-byte digest) and takes its
    ``n % 8``-th eight bytes."""
    v2 = algorithm == "blake2b-ctr-v2"
    counter, size = (n // 8, 64) if v2 else (n, 8)
    message = (
        (b"affray-dice-v2" if v2 else b"affray-dice-v1")
        + b"\x00"
        + str(seed).encode("ascii")
        + b"\x00"
        + stream.encode("utf-8")
        + b"\x00"
        + counter.to_bytes(8, "big")
    )
    digest = hashlib.blake2b(message, digest_size=size).digest()
    at = 8 * (n % 8) if v2 else 0
    return int.from_bytes(digest[at : at + 8], "big")


def reference_faces(
    seed: int, stream: str, sides: int, count: int, algorithm: str = DICE_ALGORITHM
) -> list[int]:
    """``count`` faces of a d``sides`` from a fresh stream, with the documented rejection sampling."""
    faces: list[int] = []
    n = 0
    while len(faces) < count:
        x = reference_word(seed, stream, n, algorithm)
        n += 1
        if x < SPAN - SPAN % sides:
            faces.append(x % sides + 1)
    return faces


# -- expressions -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1d100", DiceExpression(1, 100, 0)),
        ("4d10", DiceExpression(4, 10, 0)),
        ("1d1", DiceExpression(1, 1, 0)),
    ],
)
def test_parse_expression_reads_count_and_sides(text: str, expected: DiceExpression) -> None:
    assert parse_expression(text) == expected


def test_parse_expression_without_a_count_means_one_die() -> None:
    assert parse_expression("d10") == DiceExpression(1, 10, 0)


@pytest.mark.parametrize(("text", "modifier"), [("4d10+2", 2), ("2d6-1", -1), ("1d4+0", 0), ("3d6-10", -10)])
def test_parse_expression_reads_a_signed_modifier(text: str, modifier: int) -> None:
    assert parse_expression(text).modifier == modifier


@pytest.mark.parametrize("text", ["4D10+2", " 4 d 10 + 2 ", "\t4d10+ 2\n"])
def test_parse_expression_ignores_case_and_spaces(text: str) -> None:
    assert parse_expression(text) == DiceExpression(4, 10, 2)


@pytest.mark.parametrize(
    "text",
    ["", "d", "1d", "10", "1d6+", "1d6+2+3", "2x6", "1.5d6", "-1d6", "1d-6", "d6d6", "1d6*2", "one d6"],
)
def test_parse_expression_rejects_text_not_of_the_form_nds_plus_k(text: str) -> None:
    with pytest.raises(ScenarioError, match="is not of the form NdS"):
        parse_expression(text)


@pytest.mark.parametrize("text", ["0d6", "1d0", "0d0"])
def test_parse_expression_rejects_zero_dice_or_zero_faces(text: str) -> None:
    with pytest.raises(ScenarioError, match="at least one die of at least one face"):
        parse_expression(text)


@pytest.mark.parametrize(("text", "canonical"), [("d6", "1d6"), (" 4D10 + 2", "4d10+2"), ("2d6-1", "2d6-1")])
def test_expression_prints_in_canonical_form(text: str, canonical: str) -> None:
    assert str(parse_expression(text)) == canonical


# -- the generator -----------------------------------------------------------------------------------


def test_fights_roll_with_blake2b_ctr_v2_unless_their_scenario_names_v1() -> None:
    assert DICE_ALGORITHM == "blake2b-ctr-v2"
    assert GeneratedDice(1).algorithm == "blake2b-ctr-v2"


def test_known_vector_of_the_first_d10_and_d100_faces_under_v1() -> None:
    # Computed with reference_faces (hashlib.blake2b over the documented layout), pinned as literals.
    assert reference_faces(1130, "brenna/perception", 10, 8, "blake2b-ctr-v1") == [1, 9, 5, 5, 1, 8, 2, 4]
    brenna = GeneratedDice(1130, "blake2b-ctr-v1")
    assert [brenna.face("brenna/perception", 10) for _ in range(8)] == [1, 9, 5, 5, 1, 8, 2, 4]
    gorm = GeneratedDice(1130, "blake2b-ctr-v1")
    assert [gorm.face("gorm/hit", 100) for _ in range(8)] == [41, 36, 44, 55, 47, 65, 18, 76]


def test_known_vector_of_the_first_d10_faces_under_v2() -> None:
    # BLAKE2b-512 of b"affray-dice-v2\x001130\x00brenna/perception\x00" + (0).to_bytes(8, "big"), read as
    # eight big-endian words; each word w below 2**64 - 2**64 % 10 gives w % 10 + 1 (none is rejected here).
    message = b"affray-dice-v2\x001130\x00brenna/perception\x00" + bytes(8)
    digest = hashlib.blake2b(message, digest_size=64).digest()
    by_hand = [int.from_bytes(digest[i : i + 8], "big") % 10 + 1 for i in range(0, 64, 8)]
    assert by_hand == V2_BRENNA
    brenna = GeneratedDice(1130, "blake2b-ctr-v2")
    assert [brenna.face("brenna/perception", 10) for _ in range(8)] == V2_BRENNA


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1), stream=streams, sides=sides_)
def test_generated_faces_follow_the_reference_algorithm(
    seed: int, stream: str, sides: int, algorithm: str
) -> None:
    dice = GeneratedDice(seed, algorithm)  # type: ignore[arg-type]
    assert [dice.face(stream, sides) for _ in range(12)] == reference_faces(
        seed, stream, sides, 12, algorithm
    )


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_draw_in_the_biased_top_slice_is_rejected_and_the_next_word_used(algorithm: str) -> None:
    sides = 2**63 + 1  # 2**64 % sides == 2**63 - 1: almost half of all words are rejected
    limit = SPAN - SPAN % sides
    seed = next(s for s in range(1000) if reference_word(s, "x/y", 0, algorithm) >= limit)
    accepted = next(n for n in range(1, 100) if reference_word(seed, "x/y", n, algorithm) < limit)
    face = GeneratedDice(seed, algorithm).face("x/y", sides)  # type: ignore[arg-type]
    assert face == reference_word(seed, "x/y", accepted, algorithm) % sides + 1


@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    others=st.lists(st.tuples(st.sampled_from(["a/hit", "b/hit", "a/parry", "c/new"]), sides_), max_size=12),
)
def test_rolling_other_streams_does_not_shift_a_streams_faces(
    seed: int, others: list[tuple[str, int]]
) -> None:
    alone = GeneratedDice(seed)
    expected = [alone.face("me/hit", 100) for _ in range(4)]
    busy = GeneratedDice(seed)
    got = []
    for index in range(4):
        for stream, sides in others[index::4]:
            busy.face(stream, sides)
        got.append(busy.face("me/hit", 100))
    assert got == expected


@given(seed=st.integers(min_value=0, max_value=2**63 - 1), stream=streams, sides=sides_)
def test_generated_faces_are_always_within_one_to_sides(seed: int, stream: str, sides: int) -> None:
    dice = GeneratedDice(seed)
    assert all(1 <= dice.face(stream, sides) <= sides for _ in range(20))


def test_a_one_sided_die_always_shows_one() -> None:
    dice = GeneratedDice(5)
    assert {dice.face("a/b", 1) for _ in range(10)} == {1}


# -- recorded rolls ----------------------------------------------------------------------------------


def test_roll_records_expression_faces_total_purpose_roller_and_source() -> None:
    roll = Dice(GeneratedDice(1130)).roll("gorm", "hit", "4d10+2")
    faces = tuple(reference_faces(1130, "gorm/hit", 10, 4))
    assert roll == Roll(
        expr="4d10+2",
        faces=faces,
        total=sum(faces) + 2,
        purpose="hit",
        roller="gorm",
        source="generated",
        draw=1,
    )


def test_roll_total_subtracts_a_negative_modifier() -> None:
    roll = Dice(ManualDice([3, 4])).roll("a", "b", "2d6-1")
    assert roll.total == 6


def test_rolls_of_the_same_roller_and_purpose_continue_one_stream() -> None:
    dice = Dice(GeneratedDice(9))
    faces = [dice.roll("a", "hit", "1d100").faces[0] for _ in range(5)]
    assert faces == reference_faces(9, "a/hit", 100, 5)


def test_roll_from_manual_dice_is_recorded_as_manual() -> None:
    roll = Dice(ManualDice([7])).roll("brenna", "hit", "1d10")
    assert (roll.faces, roll.total, roll.source) == ((7,), 7, "manual")


# -- manual dice -------------------------------------------------------------------------------------


def test_manual_dice_give_their_faces_in_order_whatever_the_stream() -> None:
    dice = Dice(ManualDice([5, 1, 100, 2]))
    asked = [("a", "hit", "1d10"), ("b", "parry", "1d6"), ("a", "hit", "1d100"), ("z", "q", "1d2")]
    assert [dice.roll(*roll).total for roll in asked] == [5, 1, 100, 2]


def test_exhausted_manual_dice_name_the_missing_roll_its_stream_draw_and_die() -> None:
    dice = Dice(ManualDice([4, 2]))
    dice.roll("brenna", "perception", "1d10")
    dice.roll("gorm", "perception", "1d10")
    wanted = r"roll 3 \(brenna/hit#1, a d100 for brenna's hit roll\) was not supplied; 2 were given$"
    with pytest.raises(DiceExhausted, match=wanted):
        dice.roll("brenna", "hit", "1d100")


@pytest.mark.parametrize("face", [0, 7, -1])
def test_manual_dice_refuse_a_face_outside_the_die(face: int) -> None:
    dice = Dice(ManualDice([3, face]))
    dice.roll("a", "b", "1d6")
    with pytest.raises(
        DiceExhausted, match=rf"manual roll 2 is {face}, but a/b#2, a d6 for a's b roll needs 1\.\.6"
    ):
        dice.roll("a", "b", "1d6")


# -- rolls by stream and draw ------------------------------------------------------------------------


def test_each_streams_rolls_are_numbered_from_one() -> None:
    dice = Dice(GeneratedDice(9))
    asked = [("a", "hit"), ("b", "hit"), ("a", "hit"), ("a", "parry"), ("a", "hit")]
    assert [(r.stream, r.draw) for r in (dice.roll(who, what, "1d100") for who, what in asked)] == [
        ("a/hit", 1),
        ("b/hit", 1),
        ("a/hit", 2),
        ("a/parry", 1),
        ("a/hit", 3),
    ]


def test_a_streams_handle_rolls_on_from_the_dices_own_rolls() -> None:
    dice = Dice(GeneratedDice(9))
    first = dice.roll("a", "hit", "1d100")
    hits = dice.stream("a", "hit")
    second, third = hits.roll("1d100"), dice.roll("a", "hit", "1d100")
    assert [r.draw for r in (first, second, third)] == [1, 2, 3]
    assert [r.total for r in (first, second, third)] == reference_faces(9, "a/hit", 100, 3)


def entered(manual: list[str], rolls: dict[str, list[int]]) -> Dice:
    return Dice(EnteredDice(9, manual, rolls))


def test_an_entered_roll_replaces_its_draw_and_leaves_the_streams_later_draws_as_generated() -> None:
    dice = entered([], {"a/hit#2": [42]})
    totals = [dice.roll("a", "hit", "1d100").total for _ in range(3)]
    generated = reference_faces(9, "a/hit", 100, 3)
    assert totals == [generated[0], 42, generated[2]]


def test_an_entered_roll_is_marked_manual_and_the_generated_ones_generated() -> None:
    dice = entered(["a/*"], {"a/hit#1": [42]})
    assert (dice.roll("a", "hit", "1d100").source, dice.roll("b", "hit", "1d100").source) == (
        "manual",
        "generated",
    )


@pytest.mark.parametrize(
    ("manual", "rolls", "stream", "drawn"),
    [
        pytest.param([], {}, "a/hit", True, id="generated"),
        pytest.param([], {"a/hit#5": [1]}, "a/hit", False, id="entered"),
        pytest.param([], {"a/hit#5": [1]}, "a/parry", True, id="another-entered"),
        pytest.param(["a/*"], {}, "a/hit", False, id="manual"),
    ],
)
def test_entered_dice_draw_straight_from_the_generated_stream_only_where_nothing_is_entered(
    manual: list[str], rolls: dict[str, list[int]], stream: str, drawn: bool
) -> None:
    assert (EnteredDice(9, manual, rolls).drawer(stream) is not None) is drawn


def test_a_manual_streams_roll_that_was_not_entered_names_its_stream_draw_and_die() -> None:
    dice = entered(["brenna/*"], {"brenna/hit#1": [42]})
    dice.roll("brenna", "hit", "1d100")
    with pytest.raises(
        DiceExhausted,
        match=r"^\$\.dice\.rolled: brenna/hit#2 \(a d100 for brenna's hit roll\) was not entered$",
    ):
        dice.roll("brenna", "hit", "1d100")


def test_an_entered_roll_outside_its_die_is_refused_naming_it() -> None:
    dice = entered(["*"], {"a/b#1": [7]})
    with pytest.raises(DiceExhausted, match=r"a/b#1 is 7, but a d6 for a's b roll needs 1 face of 1\.\.6"):
        dice.roll("a", "b", "1d6")


def test_an_entered_roll_of_several_dice_needs_a_face_for_each() -> None:
    dice = entered(["*"], {"a/damage#1": [3]})
    with pytest.raises(DiceExhausted, match=r"a/damage#1 is 3, but 2d6 for a's damage roll needs 2 faces"):
        dice.roll("a", "damage", "2d6")


def test_an_entered_roll_of_several_dice_gives_each_face() -> None:
    roll = entered(["*"], {"a/damage#1": [3, 5]}).roll("a", "damage", "2d6+1")
    assert (roll.faces, roll.total) == ((3, 5), 9)


def test_a_pattern_marks_the_streams_it_matches_manual() -> None:
    dice = entered(["*/parry"], {})
    dice.roll("a", "hit", "1d100")  # generated
    with pytest.raises(DiceExhausted, match="b/parry#1"):
        dice.roll("b", "parry", "1d100")


def test_the_entered_rolls_never_asked_for_are_named() -> None:
    source = EnteredDice(9, ["*"], {"a/hit#1": [5], "a/hit#2": [6], "b/hit#1": [7]})
    Dice(source).roll("a", "hit", "1d10")
    assert source.unused() == "2 of the rolls entered in $.dice.rolled were never asked for: a/hit#2, b/hit#1"


def test_all_entered_rolls_used_leave_nothing_to_warn_of() -> None:
    source = EnteredDice(9, ["*"], {"a/hit#1": [5]})
    Dice(source).roll("a", "hit", "1d10")
    assert source.unused() is None


# -- the page's reference --------------------------------------------------------------------------


def _page_reference() -> dict[str, Any]:
    """The Python of docs/log-format.md's "Dice" section, run: its ``word`` and ``face``."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "log-format.md").read_text(encoding="utf-8")
    section = text[text.index("## Dice:") :]
    code = section[section.index("```python\n") + len("```python\n") : section.index("```\n", 10)]
    names: dict[str, Any] = {}
    exec(compile(code, "docs/log-format.md", "exec"), names)  # the page's own code, as a reader copies it
    return names


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1), stream=streams, sides=sides_)
def test_the_pages_reference_draws_what_affray_draws(
    seed: int, stream: str, sides: int, algorithm: str
) -> None:
    face = _page_reference()["face"]
    n, faces = 0, []
    for _ in range(10):
        drawn, n = face(seed, stream, n, sides, algorithm)
        faces.append(drawn)
    dice = GeneratedDice(seed, algorithm)  # type: ignore[arg-type]
    assert faces == [dice.face(stream, sides) for _ in range(10)]
