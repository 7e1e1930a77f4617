"""Shared test settings: hypothesis profiles (quick by default, ``--hypothesis-profile=long`` for more);
``--thorough`` for the long tests and the whole fuzz sweeps (.ci/run runs them after the quick suite);
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

SWEEP_SAMPLE = 6
"""Without --thorough a sweep tries one mutant in this many (each field still gets some)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--thorough",
        action="store_true",
        help="run the long tests (marked thorough) and every mutant of the fuzz sweeps",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--thorough"):
        return
    skip = pytest.mark.skip(reason="a long test: run with --thorough (.ci/run does)")
    for item in items:
        if "thorough" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def sweep_share(request: pytest.FixtureRequest) -> int:
    """One mutant in how many a sweep tries: all with --thorough, else one in SWEEP_SAMPLE."""
    return 1 if request.config.getoption("--thorough") else SWEEP_SAMPLE


@pytest.fixture(autouse=True)
def _cache_of_the_tests(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """affray's cache (snapshots of long logs) in the tests' own folder, never the user's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "cache"))


@pytest.fixture(autouse=True)
def _user_code_forgotten(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The folders put on ``sys.path`` for controllers from outside affray, and their modules, go after
    each test."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield
    user_code.forget()
