"""The statistics of a batch (batch/stats.py), each checked against a hand computation."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.batch.stats import mean, percentile, wilson


def test_wilson_of_8_in_10() -> None:
    # z = 1.96: centre (0.8 + 1.92/10) / 1.384 = 0.7168, half 1.96 * sqrt(0.016 + 0.00096) / 1.384 = 0.2266
    low, high = wilson(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)


def test_wilson_of_none_in_none_is_the_whole_range() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_of_no_successes_starts_at_zero() -> None:
    # 0 of 100: (0, z^2 / (n + z^2)) = (0, 3.8415 / 103.8415) = (0, 0.0370)
    low, high = wilson(0, 100)
    assert (low, round(high, 4)) == (0.0, 0.037)


@given(st.integers(min_value=1, max_value=10_000), st.data())
def test_a_wilson_interval_holds_the_rate_and_stays_in_0_1(trials: int, data: st.DataObject) -> None:
    successes = data.draw(st.integers(min_value=0, max_value=trials))
    low, high = wilson(successes, trials)
    assert 0 <= low <= successes / trials <= high <= 1


def test_the_median_of_an_even_count_is_between_the_middle_two() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5


def test_a_percentile_interpolates_linearly() -> None:
    # position (4 - 1) * 0.9 = 2.7: 3 + 0.7 * (4 - 3) = 3.7
    assert percentile([1.0, 2.0, 3.0, 4.0], 90) == pytest.approx(3.7)


def test_no_values_have_no_percentile_nor_mean() -> None:
    assert math.isnan(percentile([], 50))
    assert math.isnan(mean([]))
