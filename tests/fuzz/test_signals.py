"""Signals at random moments of every kind of command that writes: a real ``python -m affray`` is sent
SIGINT, SIGTERM or SIGHUP a random time after it began writing (or after it ended, when it is quicker).

What must hold whatever the moment: the command either finished (exit 0, its output whole; or ended by
the signal's default action as it exited, once affray's handlers were put back) or stopped
(exit 128 + the signal's number, one line, no traceback, the old output as it was); either way no
temporary or lock file is left beside the output.

6 cases under the quick profile, 60 under ``--hypothesis-profile=long``.
"""

from __future__ import annotations

import signal
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.cli.conftest import EXAMPLES, ROOT
from tests.cli.test_memory import siege
from tests.cli.test_signals import OLD, assert_stopped, holds_lines, stopped_once, temporary_files

GOLDEN = ROOT / "tests" / "golden"
CASES = 6 if settings.default.max_examples <= 25 else 60


@dataclass(frozen=True)
class Writing:
    """A command that writes ``output`` (made with ``--force`` over an old file there), from inputs made
    in a folder."""

    name: str
    output: str
    arguments: Callable[[Path], list[str]]


def _siege(folder: Path) -> str:
    scenario = folder / "siege.toml"
    scenario.write_text(siege(2))
    return str(scenario)


COMMANDS = [
    Writing("run", "s.jsonl", lambda f: ["run", _siege(f), "-o", str(f / "s.jsonl"), "--force"]),
    Writing(
        "heal",
        "h.jsonl",
        lambda f: ["heal", str(GOLDEN / "robots.jsonl"), "--days", "30", "-o", str(f / "h.jsonl"), "--force"],
    ),
    Writing(
        "whatif",
        "w.jsonl",
        lambda f: [
            "whatif",
            str(GOLDEN / "duel.jsonl"),
            "--set",
            "brenna/hit#2=5",
            "-o",
            str(f / "w.jsonl"),
            "--force",
        ],
    ),
    Writing(
        "timeline",
        "t.png",
        lambda f: ["timeline", str(GOLDEN / "bar-brawl.jsonl"), "-o", str(f / "t.png"), "--force"],
    ),
    Writing(
        "view",
        "v.html",
        lambda f: ["view", str(GOLDEN / "bar-brawl.jsonl"), "-o", str(f / "v.html"), "--force"],
    ),
    Writing(
        "battle",
        "r.csv",
        lambda f: [
            "battle",
            str(EXAMPLES / "duel.toml"),
            "--runs",
            "5000",
            "-o",
            str(f / "r.csv"),
            "--force",
        ],
    ),
]


@settings(max_examples=CASES, deadline=None)
@given(
    command=st.sampled_from(COMMANDS),
    stop=st.sampled_from([signal.SIGINT, signal.SIGTERM, signal.SIGHUP]),
    after_s=st.floats(min_value=0, max_value=0.5),
)
def test_a_signal_at_any_moment_stops_a_command_cleanly(
    command: Writing, stop: signal.Signals, after_s: float
) -> None:
    with tempfile.TemporaryDirectory(prefix="stop") as made:
        folder = Path(made)
        output = folder / command.output
        output.write_bytes(OLD)
        arguments = command.arguments(folder)
        began = holds_lines(folder, output.name)
        moment: list[float] = []

        def due() -> bool:
            """``after_s`` after the command began writing."""
            if not moment and began():
                moment.append(time.monotonic() + after_s)
            return bool(moment) and time.monotonic() >= moment[0]

        result = stopped_once(arguments, due, stop, folder, may_finish=True)
        finished = result.code in (0, -stop)  # -stop: the signal came as it exited, its work done
        event(f"{command.name}: {'finished' if finished else 'stopped'}")
        if finished:
            assert output.read_bytes() != OLD, result
        else:
            assert_stopped(result, stop)
            assert output.read_bytes() == OLD
        assert temporary_files(folder) == []
