"""affray.stops: a stop signal raised where the command is, or as a held step ends."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest

from affray import stops


@pytest.fixture
def caught() -> Iterator[None]:
    restore = stops.catch_stops()
    try:
        yield
    finally:
        restore()


def _stopped_then(done: list[str], signal_: signal.Signals) -> None:
    os.kill(os.getpid(), signal_)
    done.append("after the stop")


def _held_step(done: list[str]) -> None:
    with stops.held():
        _stopped_then(done, signal.SIGINT)
        done.append("written")


def test_a_stop_is_raised_where_the_command_is(caught: None) -> None:
    done: list[str] = []
    with pytest.raises(stops.Stopped):
        _stopped_then(done, signal.SIGTERM)
    assert done == []
    assert stops.stopped_by() == signal.SIGTERM


def test_a_stop_inside_a_held_step_is_raised_as_the_step_ends(caught: None) -> None:
    done: list[str] = []
    with pytest.raises(stops.Stopped):
        _held_step(done)
    assert done == ["after the stop", "written"]


def test_a_held_step_with_no_stop_raises_nothing(caught: None) -> None:
    done = []
    with stops.held():
        done.append("counted")
    assert done == ["counted"]


def test_a_stop_once_the_last_output_goes_into_place_cuts_nothing_short(caught: None) -> None:
    # the command's work is done: the stop is let go, and the command ends as it would have
    done: list[str] = []
    stops.finishing()
    _stopped_then(done, signal.SIGHUP)
    with stops.held():
        done.append("written")
    assert done == ["after the stop", "written"]


def test_catching_stops_again_ends_finishing(caught: None) -> None:
    # a process that runs commands one after another (a test's) starts each unfinished
    stops.finishing()
    restore = stops.catch_stops()
    try:
        with pytest.raises(stops.Stopped):
            _stopped_then([], signal.SIGINT)
    finally:
        restore()
