"""Five-step dice notation (rule F13): "1:100sd" is 1d100, "X:10sd" is X d10, and the NdS form."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.errors import AffrayError
from affray.rules.fivestep.dice import D10, D100, DiceExpression, DiceNotationError, parse_dice


# rule F13: "1:100sd" is one hundred-sided die
def test_one_colon_100sd_is_1d100() -> None:
    assert parse_dice("1:100sd") == DiceExpression(count=1, sides=100)
    assert str(D100) == "1d100"


# rule F13: "X:10sd" is X ten-sided dice: 4:10sd -> 4d10
def test_x_colon_10sd_is_x_d10() -> None:
    assert str(parse_dice("4:10sd")) == "4d10"


# rule F13: the damage die roll's "X:10sd + Y" (F10's "AUTO PISTOL 4+2 means 4:10sd+2") keeps the + Y
def test_colon_form_with_a_modifier() -> None:
    assert parse_dice("4:10sd + 2") == DiceExpression(count=4, sides=10, modifier=2)


# rule F13 (ruling): the scan's "l:100sd" has the letter l for the count 1
def test_ocr_letter_l_count_is_one() -> None:
    assert parse_dice("l:100sd") == D100
    assert parse_dice("l:10sd") == D10


# rule F13 (ruling): a count left out is 1: "10sd" (the text's "roll l0sd") and "d10" are 1d10
def test_count_left_out_is_one() -> None:
    assert parse_dice("10sd") == D10
    assert parse_dice("d10") == D10


# rule F13: the plain NdS form, with a negative modifier: 3d6-1
def test_plain_nds_form() -> None:
    assert parse_dice("3d6-1") == DiceExpression(count=3, sides=6, modifier=-1)
    assert str(parse_dice("3D6 - 1")) == "3d6-1"


# rule F13: "X:10sd" with a letter X is not a number of dice
@pytest.mark.parametrize("text", ["X:10sd", "1:sd", "1d", "two d6", "1:100", ""])
def test_not_dice_notation(text: str) -> None:
    with pytest.raises(DiceNotationError, match="is not dice notation"):
        parse_dice(text)


# rule F13: 0 dice or a 1-sided die are refused; the error is an AffrayError (user input)
def test_zero_dice_and_one_side_are_refused() -> None:
    with pytest.raises(DiceNotationError, match="count of dice is 1 to"):
        parse_dice("0:10sd")
    with pytest.raises(AffrayError, match="at least 2 sides"):
        parse_dice("1:1sd")


# rule F13: 4:10sd+2 with faces 3, 7, 10, 1: 3 + 7 + 10 + 1 + 2 = 23
def test_total_adds_faces_and_modifier() -> None:
    assert parse_dice("4:10sd+2").total([3, 7, 10, 1]) == 23


# rule F13: a face outside 1-10 or the wrong number of faces is a caller's mistake
def test_total_checks_the_faces() -> None:
    with pytest.raises(ValueError, match="rolls 2 dice, got 1 faces"):
        parse_dice("2:10sd").total([4])
    with pytest.raises(ValueError, match="1 to 10, got 11"):
        D10.total([11])


# rule F13: the two notations read the same dice, and str() round-trips through the parser
@given(
    count=st.integers(min_value=1, max_value=50),
    sides=st.integers(min_value=2, max_value=1000),
    modifier=st.integers(min_value=-50, max_value=50),
)
def test_colon_and_d_forms_agree_and_round_trip(count: int, sides: int, modifier: int) -> None:
    suffix = "" if modifier == 0 else f"{modifier:+d}"
    expression = parse_dice(f"{count}:{sides}sd{suffix}")
    assert expression == parse_dice(f"{count}d{sides}{suffix}")
    assert parse_dice(str(expression)) == expression
    assert expression.minimum == count + modifier
    assert expression.maximum == count * sides + modifier


def test_text_that_is_not_dice_notation_is_quoted_in_a_few_dozen_characters() -> None:
    with pytest.raises(DiceNotationError) as caught:
        parse_dice("x" * 100)
    assert "x" * 41 not in str(caught.value)
