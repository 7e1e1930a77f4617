"""The statistics of a batch: pure functions of counts and values.

A win rate's interval is Wilson's score interval (95 % by default): unlike the normal approximation it
stays within 0 and 1 and holds for small counts and rates near 0 or 1. Percentiles interpolate between
the two nearest values (the "linear" method of NumPy and of Hyndman and Fan's type 7).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z_95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


def wilson(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson's score interval for ``successes`` out of ``trials``: (0, 1) when there are none.

    8 of 10: centre (8 + 1.92) / 13.84 = 0.717, half-width 1.96 x sqrt(1.6 + 0.96) / 13.84 = 0.226:
    (0.490, 0.943).
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exactly 0 and 1 at the ends, not a rounding
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` percentile (0 to 100) of values sorted ascending; NaN when there are none."""
    if not sorted_values:
        return math.nan
    position = (len(sorted_values) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def mean(values: Sequence[float]) -> float:
    """The mean; NaN when there are no values."""
    return sum(values) / len(values) if values else math.nan
