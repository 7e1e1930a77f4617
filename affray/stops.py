"""How a command stops: Ctrl-C (SIGINT), a kill (SIGTERM) and a closed terminal (SIGHUP) alike.

``catch_stops`` makes each of them raise :class:`Stopped`, a KeyboardInterrupt, where the command is, so
every clean-up a command has for Ctrl-C runs for all three: the partial log kept under its name, the
temporary and lock files removed, a batch's workers stopped. While it stops, a second such signal is left
to the system, whose default ends the process at once: a command stuck in its clean-up can still be
ended. ``affray.cli.main`` then prints one line and exits with 128 + the signal's number, as a shell
reports it. ``python -m affray`` and the ``affray`` command catch them before importing the commands
(``affray.__main__``), so a stop while they load is as clean.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn

STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop a command cleanly."""


class Stopped(KeyboardInterrupt):
    """A stop signal, raised where the command was when it came (``stopped_by`` says which). It takes no
    arguments of its own: SimPy raises an exception again as ``type(exc)(*exc.args)``."""


_received = signal.SIGINT
_holding = False
_held = False
_finishing = False


def catch_stops() -> Callable[[], None]:
    """From now on each of ``STOPS`` raises :class:`Stopped` (the first one; the next ends the process),
    but a signal this process was started ignoring stays ignored (``nohup`` ignores SIGHUP for it).
    Returns what puts their handlers back as they were, for a process that goes on (a test's)."""
    global _received, _holding, _held, _finishing
    _received = signal.SIGINT
    _holding = _held = _finishing = False
    before = {stop: signal.getsignal(stop) for stop in STOPS}
    for stop, handler in before.items():
        if handler != signal.SIG_IGN:  # ignored when we were started (nohup, a shell's background job)
            signal.signal(stop, _stop)

    def restore() -> None:
        for stop, handler in before.items():
            signal.signal(stop, handler)

    return restore


def _stop(number: int, frame: FrameType | None) -> None:
    global _received, _held
    _received = signal.Signals(number)
    for stop in STOPS:
        if signal.getsignal(stop) == _stop:
            signal.signal(stop, signal.SIG_DFL)
    if _holding:
        _held = True
        return
    raise Stopped


@contextmanager
def held() -> Iterator[None]:
    """A step no stop may cut in two (an outcome counted and written, never one without the other): a stop
    that comes inside it is raised as it ends."""
    global _holding, _held
    _holding, _held = True, False
    try:
        yield
    finally:
        _holding = _finishing
    if _held and not _finishing:
        _held = False
        raise Stopped


def finishing() -> None:
    """The command's last output is written and goes into place now: a stop that comes from here on
    cuts nothing short (the work is done, what is left is its last lines), so it is let go and the command
    ends as it would have. A second stop still ends the process at once."""
    global _holding, _finishing
    _holding = _finishing = True


def stopped_by() -> signal.Signals:
    """The signal that stopped the command: SIGINT unless a SIGTERM or SIGHUP came first."""
    return _received


def exit_status() -> int:
    """128 + the number of the signal that stopped the command (130 for Ctrl-C)."""
    return 128 + _received


def said() -> str:
    """How the one line a stopped command prints begins: ``interrupted`` (Ctrl-C), or ``interrupted by
    SIGTERM``."""
    return "interrupted" if _received == signal.SIGINT else f"interrupted by {_received.name}"


def stopped_while_loading() -> NoReturn:
    """A stop that came before a command could run (while affray loaded): its one line, and its exit."""
    print(said(), file=sys.stderr)
    sys.exit(exit_status())
