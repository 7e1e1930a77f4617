"""The scenario's ``[dice]`` section: generated dice, rolls in one list, or rolls by stream and draw."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from affray.kernel.dice import EnteredDice, GeneratedDice, ManualDice
from affray.kernel.scenario import Dice


def dice(**section: Any) -> Dice:
    return msgspec.convert(section, Dice)


def test_no_dice_section_is_generated_dice() -> None:
    assert isinstance(dice().source_for(7), GeneratedDice)


def test_rolls_in_one_list_are_given_in_order() -> None:
    assert isinstance(dice(source="manual", rolls=[3, 4]).source_for(7), ManualDice)


@pytest.mark.parametrize(
    "section",
    [
        {"manual": ["brenna/*"]},
        {"rolled": {"brenna/parry#3": 47}},
        {"source": "manual", "rolled": {"brenna/parry#3": 47}},
        {"source": "manual"},
    ],
    ids=["manual-streams", "one-roll-set", "every-stream-manual", "manual-with-nothing-entered"],
)
def test_rolls_by_stream_and_draw_are_entered_dice(section: dict[str, Any]) -> None:
    assert isinstance(dice(**section).source_for(7), EnteredDice)


def test_one_entered_face_and_a_list_of_faces_are_both_rolls() -> None:
    section = dice(rolled={"brenna/hit#1": 41, "gorm/damage#1": [3, 5]})
    assert section.rolled == {"brenna/hit#1": 41, "gorm/damage#1": [3, 5]}


def test_rolls_in_a_list_and_by_stream_at_once_are_refused() -> None:
    with pytest.raises(msgspec.ValidationError, match="not both"):
        dice(source="manual", rolls=[3], rolled={"a/hit#1": 4})


def test_rolls_in_a_list_need_manual_dice() -> None:
    with pytest.raises(msgspec.ValidationError, match='source = "manual"'):
        dice(rolls=[3])


@pytest.mark.parametrize("key", ["brenna/parry", "brenna#3", "brenna/parry#0", "/parry#1", "a/b#x"])
def test_a_roll_is_named_by_its_stream_and_draw(key: str) -> None:
    with pytest.raises(msgspec.ValidationError, match=r"\$\.rolled"):
        dice(rolled={key: 4})


@pytest.mark.parametrize("face", [0, 1_000_001, -3])
def test_an_entered_face_is_one_of_a_die(face: int) -> None:
    with pytest.raises(msgspec.ValidationError):
        dice(rolled={"a/hit#1": face})


def test_a_purpose_of_several_words_names_a_stream() -> None:
    assert dice(manual=["ford/to hit"], rolled={"ford/primary attack#2": 40}).manual == ["ford/to hit"]


def test_sealed_streams_are_named_by_pattern() -> None:
    assert dice(sealed=["wolf-*/*", "*/perception"]).sealed_streams == ("wolf-*/*", "*/perception")


def test_no_stream_is_sealed_unless_named_and_none_is_written() -> None:
    assert dice().sealed_streams == ()
    assert b"sealed" not in msgspec.json.encode(dice().recorded())


@pytest.mark.parametrize("pattern", ["wolf", "wolf/", "wolf/hit/x", ""])
def test_a_sealed_stream_is_a_stream_pattern(pattern: str) -> None:
    with pytest.raises(msgspec.ValidationError, match=r"\$\.sealed"):
        dice(sealed=[pattern])


def test_sealed_streams_are_refused_with_rolls_in_one_list() -> None:
    with pytest.raises(msgspec.ValidationError, match="does not say which roll is whose"):
        dice(source="manual", rolls=[3], sealed=["wolf/*"])
