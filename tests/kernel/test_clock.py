"""The clock: seconds to whole milliseconds (halves away from zero) and milliseconds shown as seconds."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.kernel.clock import MS_PER_SECOND, game_time, parse_game_time, seconds, to_ms


def test_a_second_is_a_thousand_milliseconds() -> None:
    assert MS_PER_SECOND == 1000


@pytest.mark.parametrize(("value", "ms"), [(0, 0), (3, 3000), (-2, -2000), (86400, 86_400_000)])
def test_to_ms_takes_whole_seconds(value: int, ms: int) -> None:
    assert to_ms(value) == ms


@pytest.mark.parametrize(
    ("value", "ms"),
    [("0.0005", 1), ("1.2345", 1235), ("4.3335", 4334), ("2.0025", 2003), ("0.0015", 2)],
)
def test_to_ms_rounds_a_positive_half_up(value: str, ms: int) -> None:
    assert to_ms(Decimal(value)) == ms


@pytest.mark.parametrize(("value", "ms"), [("-0.0005", -1), ("-1.2345", -1235), ("-2.0025", -2003)])
def test_to_ms_rounds_a_negative_half_down_away_from_zero(value: str, ms: int) -> None:
    assert to_ms(Decimal(value)) == ms


@pytest.mark.parametrize(
    ("value", "ms"), [("0.00049999", 0), ("1.2344999", 1234), ("-0.0004", 0), ("0.0005001", 1)]
)
def test_to_ms_rounds_off_half_to_the_nearest(value: str, ms: int) -> None:
    assert to_ms(Decimal(value)) == ms


def test_to_ms_rounds_a_repeating_fraction() -> None:
    assert to_ms(Decimal(13) / 3) == 4333


@given(st.decimals(allow_nan=False, allow_infinity=False, places=6, min_value=-(10**6), max_value=10**6))
def test_to_ms_is_the_nearest_millisecond_with_halves_away_from_zero(value: Decimal) -> None:
    scaled = abs(value) * 1000
    whole = int(scaled)
    expected = whole + (1 if scaled - whole >= Decimal("0.5") else 0)
    assert to_ms(value) == (-expected if value < 0 else expected)


@pytest.mark.parametrize(
    ("ms", "text"),
    [
        (12500, "12.500"),
        (0, "0.000"),
        (5, "0.005"),
        (999, "0.999"),
        (1000, "1.000"),
        (86_400_000, "86400.000"),
    ],
)
def test_seconds_shows_milliseconds_as_seconds_with_three_decimals(ms: int, text: str) -> None:
    assert seconds(ms) == text


@pytest.mark.parametrize(("ms", "text"), [(-1, "-0.001"), (-12500, "-12.500"), (-1000, "-1.000")])
def test_seconds_puts_the_sign_before_a_negative_time(ms: int, text: str) -> None:
    assert seconds(ms) == text


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_seconds_read_back_with_to_ms_give_the_same_milliseconds(ms: int) -> None:
    assert to_ms(Decimal(seconds(ms))) == ms


@pytest.mark.parametrize(
    ("ms", "text"),
    [
        (46330, "46.330 s"),
        (3599999, "3599.999 s"),
        (3600000, "1 h 00 min 00 s"),
        (90061500, "1 d 1 h 01 min 01.500 s"),
        (2592064000, "30 d 0 h 01 min 04 s"),
    ],
)
def test_game_time_shows_seconds_in_the_first_hour_then_days_and_hours(ms: int, text: str) -> None:
    assert game_time(ms) == text


@pytest.mark.parametrize(
    ("text", "ms"),
    [("12.5", 12500), ("30d", 2592000000), ("1h 30min", 5400000), ("2 h 30 m", 9000000), ("4.5 s", 4500)],
)
def test_a_typed_time_may_carry_units(text: str, ms: int) -> None:
    assert parse_game_time(text) == ms


@given(st.integers(min_value=0, max_value=3650 * 86400 * 1000))
def test_a_shown_time_reads_back_as_itself(ms: int) -> None:
    assert parse_game_time(game_time(ms)) == ms


@pytest.mark.parametrize("text", ["", "abc", "-3", "1e5", "12.5.3", "3 weeks"])
def test_what_is_not_a_time_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="time"):
        parse_game_time(text)
