"""Shared test settings: hypothesis profiles (quick by default, ``--hypothesis-profile=long`` for more)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "quick", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "long", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("quick")
