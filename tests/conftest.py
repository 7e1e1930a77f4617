"""Shared test settings: hypothesis profiles (quick by default, ``--hypothesis-profile=long`` for more);
user code that a test had affray import is forgotten after it (tests/user_code.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests import user_code

settings.register_profile(
    "quick", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "long", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("quick")


@pytest.fixture(autouse=True)
def _user_code_forgotten(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The folders put on ``sys.path`` for controllers from outside affray, and their modules, go after
    each test."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield
    user_code.forget()
