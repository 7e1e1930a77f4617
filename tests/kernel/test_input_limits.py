"""The kernel's limits on input numbers: dice expressions, manual rolls, positions, TOML it cannot read and
file names no file can have; each is a ScenarioError (or the error asked for) with a short message."""

from __future__ import annotations

from pathlib import Path

import pytest

from affray.errors import QUOTE_LIMIT, ScenarioError, TableError, briefly, excerpt, read_user_file
from affray.kernel.dice import MAX_DICE, MAX_FACES, MAX_MODIFIER, parse_expression
from affray.kernel.scenario import Coordinate, Dice, convert, parse_toml
from affray.kernel.space import FIELD_M

LONG = "9" * 5000
"""More digits than Python turns into an integer (4300)."""


# -- dice expressions --------------------------------------------------------------------------------


def test_a_die_has_up_to_a_million_faces_and_no_more() -> None:
    assert parse_expression(f"1d{MAX_FACES}").sides == MAX_FACES
    with pytest.raises(ScenarioError, match="the number of faces is at most 1,000,000"):
        parse_expression(f"1d{MAX_FACES + 1}")


@pytest.mark.parametrize("text", ["1d99999999999999999999", "1d18446744073709551617"])
def test_a_die_of_more_faces_than_a_hash_word_holds_is_refused_naming_the_expression(text: str) -> None:
    with pytest.raises(ScenarioError, match="the number of faces is at most 1,000,000") as caught:
        parse_expression(text)
    assert repr(text) in str(caught.value)


def test_an_expression_rolls_up_to_a_thousand_dice_and_no_more() -> None:
    assert parse_expression(f"{MAX_DICE}d6").count == MAX_DICE
    with pytest.raises(ScenarioError, match="the number of dice is at most 1,000"):
        parse_expression(f"{MAX_DICE + 1}d6")


def test_a_billion_dice_are_refused() -> None:
    with pytest.raises(ScenarioError, match="the number of dice is at most 1,000"):
        parse_expression("999999999d6")


@pytest.mark.parametrize("sign", ["+", "-"])
def test_a_modifier_is_up_to_a_million_either_way_and_no_more(sign: str) -> None:
    assert abs(parse_expression(f"1d6{sign}{MAX_MODIFIER}").modifier) == MAX_MODIFIER
    with pytest.raises(ScenarioError, match=r"the modifier, \+ or -, is at most 1,000,000"):
        parse_expression(f"1d6{sign}{MAX_MODIFIER + 1}")


@pytest.mark.parametrize("text", [f"1d{LONG}", f"{LONG}d6", f"1d6+{LONG}"])
def test_a_number_too_long_to_convert_is_a_scenario_error(text: str) -> None:
    with pytest.raises(ScenarioError):
        parse_expression(text)


def test_a_number_padded_with_zeros_is_judged_by_its_value() -> None:
    assert parse_expression("0" * 50 + f"{MAX_DICE}d6").count == MAX_DICE
    with pytest.raises(ScenarioError, match="the number of dice"):
        parse_expression("0" * 50 + f"{MAX_DICE + 1}d6")


def test_an_error_quotes_only_the_start_of_a_long_expression() -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_expression(f"1d{LONG}")
    assert len(str(caught.value)) < 120


def test_a_malformed_long_expression_is_quoted_short() -> None:
    with pytest.raises(ScenarioError, match="is not of the form") as caught:
        parse_expression("x" * 5000)
    assert len(str(caught.value)) < 120


# -- scenario numbers --------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), 1e308, 1e25])
def test_a_coordinate_that_is_huge_or_not_finite_is_refused(value: float) -> None:
    with pytest.raises(ScenarioError, match=r"s\.toml: \$\[0\]: expected `float`"):
        convert([value, 0.0], tuple[Coordinate, Coordinate], "s.toml")


@pytest.mark.parametrize("sign", [1, -1])
def test_a_coordinate_is_up_to_a_million_metres_either_way_and_no_more(sign: int) -> None:
    assert convert([sign * FIELD_M, 0], tuple[Coordinate, Coordinate], "s.toml") == (sign * FIELD_M, 0)
    with pytest.raises(ScenarioError, match=r"\$\[0\]: expected `float`"):
        convert([sign * (FIELD_M + 0.001), 0], tuple[Coordinate, Coordinate], "s.toml")


def test_a_manual_roll_above_the_largest_die_is_refused() -> None:
    with pytest.raises(ScenarioError, match=r"\$\.rolls\[0\]: expected `int` <= 1000000"):
        convert({"source": "manual", "rolls": [10**30]}, Dice, "s.toml")


# -- TOML that cannot be read ------------------------------------------------------------------------


def test_an_integer_of_more_digits_than_python_converts_is_a_scenario_error_naming_its_line() -> None:
    with pytest.raises(ScenarioError, match=r"^s\.toml: .*line 3: an integer has more than 4300 digits$"):
        parse_toml(f'ruleset = "energion"\nname = "x"\nseed = {LONG}\n', "s.toml")


def test_a_long_run_of_digits_inside_a_string_is_not_taken_for_the_long_integer() -> None:
    text = f'reaction = "1d{LONG}"\nseed = {LONG}\n'
    with pytest.raises(ScenarioError, match="line 2: "):
        parse_toml(text, "s.toml")


def test_arrays_nested_too_deeply_are_a_scenario_error() -> None:
    with pytest.raises(ScenarioError, match=r"^s\.toml: .*nested too deeply$"):
        parse_toml("x = " + "[" * 1000 + "]" * 1000, "s.toml")


def test_inline_tables_nested_too_deeply_are_a_scenario_error() -> None:
    with pytest.raises(ScenarioError, match="nested too deeply"):
        parse_toml("x = " + "{a = " * 1000 + "1" + "}" * 1000, "s.toml")


# -- user files ----------------------------------------------------------------------------------------


def test_a_file_name_holding_a_nul_byte_raises_the_error_asked_for(tmp_path: Path) -> None:
    with pytest.raises(TableError, match="not a file name") as caught:
        read_user_file(tmp_path / "a\x00b", TableError, "a table file")
    assert "\x00" not in str(caught.value)


def test_a_file_name_holding_a_newline_is_told_on_one_line(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="no such file") as caught:
        read_user_file(tmp_path / "a\nb", ScenarioError, "a scenario file")
    assert "\n" not in str(caught.value)


# -- quoting -------------------------------------------------------------------------------------------


def test_a_value_is_quoted_whole_up_to_the_quote_limit_and_cut_beyond_it() -> None:
    assert excerpt("9" * QUOTE_LIMIT) == "9" * QUOTE_LIMIT
    assert excerpt("9" * (QUOTE_LIMIT + 1)) == "9" * (QUOTE_LIMIT - 3) + "..."


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        ("Object contains unknown field `a\nb` - at `$`", "Object contains unknown field `a\\nb` - at `$`"),
        (
            "Object contains unknown field `" + "x" * 100 + "`",
            "Object contains unknown field `" + "x" * 37 + "...`",
        ),
        (
            "Invalid enum value '" + "y" * 100 + "' - at `$.a`",
            "Invalid enum value '" + "y" * 37 + "...' - at `$.a`",
        ),
        ("Expected `int`, got `str`\u2028", "Expected `int`, got `str`\\u2028"),
    ],
)
def test_a_decoders_message_is_one_line_quoting_at_most_the_quote_limit(message: str, shown: str) -> None:
    assert briefly(message) == shown


@pytest.mark.parametrize("key", ["a\\nerror: forged", "x" * 100])
def test_an_unknown_field_is_named_on_one_line_in_a_few_dozen_characters(key: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        convert(parse_toml(f'source = "generated"\n"{key}" = 1\n', "dice.toml"), Dice, "dice.toml")
    message = str(caught.value)
    assert len(message.splitlines()) == 1
    assert "x" * (QUOTE_LIMIT + 1) not in message
    assert message.startswith("dice.toml: $: object contains unknown field `")
