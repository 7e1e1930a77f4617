"""Fixtures for the ``affray`` command's tests: call it in-process or as a real process; logs to feed it.

In-process calls go through ``affray.cli.main`` (the same function the console script runs), so they see the
``error:`` lines and exit codes a user sees. A real process is used only where the process itself matters:
tracebacks, ``PYTHONHASHSEED``, interpreter flags.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from affray.cli import main
from affray.events.reader import LogFile
from affray.replays import snapshots
from affray.replays.explain import Explaining
from tests import strategies
from tests.strategies import example_log, read_path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
DUEL = EXAMPLES / "duel.toml"
SKIRMISH = EXAMPLES / "skirmish.toml"


@dataclass(frozen=True)
class Result:
    """What one ``affray`` call did: its exit code and everything it printed."""

    code: int
    out: str
    err: str

    @property
    def err_lines(self) -> list[str]:
        """stderr split into lines (no trailing empty line)."""
        return self.err.splitlines()


Affray = Callable[..., Result]


def _exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    return exc.code if isinstance(exc.code, int) else 1


def call_main(args: Sequence[str | os.PathLike[str]]) -> int:
    """Run ``affray.cli.main`` on ``args``; its exit code (0 when it returns normally)."""
    try:
        main([os.fspath(a) for a in args])
    except SystemExit as exc:
        return _exit_code(exc)
    return 0


def run_with_user_code(scenario: Path, out: Path) -> bytes:
    """The log ``affray run`` writes of ``scenario``, whose controllers are code beside it; the code is
    forgotten after (tests/user_code.py), whatever ``sys.path`` it needed."""
    from tests import user_code

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "path", list(sys.path))
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = call_main(["run", scenario, "-o", out])
    user_code.forget()
    assert code == 0
    return out.read_bytes()


@pytest.fixture
def affray(capsys: pytest.CaptureFixture[str]) -> Affray:
    """``affray(*args)`` runs the command in-process and returns its Result."""

    def invoke(*args: str | os.PathLike[str]) -> Result:
        capsys.readouterr()
        code = call_main(args)
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return invoke


def run_process(
    *args: str | os.PathLike[str],
    env: dict[str, str] | None = None,
    python_flags: Sequence[str] = (),
    cwd: Path | None = None,
) -> Result:
    """Run ``python -m affray *args`` as a real process and return its Result."""
    completed = subprocess.run(
        [sys.executable, *python_flags, "-m", "affray", *(os.fspath(a) for a in args)],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        timeout=60,
        check=False,
    )
    return Result(completed.returncode, completed.stdout, completed.stderr)


def assert_user_error(result: Result, *fragments: str) -> None:
    """Exit 2, nothing but one ``error:`` line on stderr, no traceback, and every fragment in that line."""
    assert result.code == 2, result
    assert len(result.err_lines) == 1, result.err
    line = result.err_lines[0]
    assert line.startswith("error: "), line
    assert "Traceback" not in result.err
    for fragment in fragments:
        assert fragment in line, f"{fragment!r} not in {line!r}"


@pytest.fixture(scope="session")
def duel_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The duel example's log as ``affray run`` writes it (simulated once per session)."""
    out = tmp_path_factory.mktemp("duel") / "duel.jsonl"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = call_main(["run", DUEL, "-o", out])
    assert code == 0
    return out.read_bytes()


@pytest.fixture
def duel_log(tmp_path: Path, duel_bytes: bytes) -> Path:
    """A fresh copy of the duel's log in this test's directory."""
    path = tmp_path / "duel.jsonl"
    path.write_bytes(duel_bytes)
    return path


@pytest.fixture
def duel_read(duel_log: Path) -> LogFile:
    """The duel's log, read back."""
    return read_path(duel_log)


def rechain(lines: list[bytes], format_version: int | None = None) -> bytes:
    """A log from a header and event lines, with every ``prev`` its format holds recomputed and a fresh end
    line (tests.strategies.rechain).

    This is what a careful forger does: the result chains, so only the fold or a re-simulation can object.
    """
    return strategies.rechain(lines, format_version)


def duel_named(folder: Path, brenna: str, gorm: str, title: str) -> Path:
    """The duel's scenario written in ``folder`` with its two fighters and itself named otherwise (any
    text: markup, controls)."""
    text = DUEL.read_text()
    for old, new in [
        ('"Brenna of the Ford"', brenna),
        ('"Gorm the Axeman"', gorm),
        ('"Duel at the ford"', title),
    ]:
        assert old in text
        text = text.replace(old, json.dumps(new), 1)
    scenario = folder / "duel.toml"
    scenario.write_text(text)
    return scenario


# --- a real Dask cluster on loopback ---------------------------------------------------------------

DASK = Path(sys.executable).with_name("dask")
STARTUP_S = 60


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_dask(*args: str) -> subprocess.Popen[bytes]:
    """A Dask process in its own process group, its output kept out of the test's."""
    return subprocess.Popen(
        [str(DASK), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def stop_dask(process: subprocess.Popen[bytes]) -> None:
    """Stop the process and everything it started, by its process group."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=20)


@pytest.fixture(scope="session")
def scheduler() -> Iterator[str]:
    """The address of a real Dask scheduler with one worker, both on 127.0.0.1 (ports chosen free,
    dashboards on 127.0.0.1:0), stopped by their process groups when the tests end; skipped without Dask."""
    distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = start_dask(
        "scheduler", "--host", "127.0.0.1", "--port", str(port), "--dashboard-address", "127.0.0.1:0"
    )
    worker = None
    try:
        worker = start_dask(
            "worker",
            address,
            "--host",
            "127.0.0.1",
            "--nthreads",
            "1",
            "--nworkers",
            "1",
            "--dashboard-address",
            "127.0.0.1:0",
        )
        client = distributed.Client(address, timeout=STARTUP_S, set_as_default=False)
        try:
            client.wait_for_workers(1, timeout=STARTUP_S)
        finally:
            client.close()
        yield address
    finally:
        if worker is not None:
            stop_dask(worker)
        stop_dask(scheduler)


@pytest.fixture
def long_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The skirmish standing in for a long log: a snapshot every 16 events, for logs of 32 or more."""
    monkeypatch.setattr(snapshots, "EVERY", 16)
    monkeypatch.setattr(snapshots, "WORTH_IT", 32)
    log = tmp_path / "skirmish.jsonl"
    log.write_bytes(example_log("skirmish"))
    return log


@pytest.fixture
def resumed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seq of each snapshot an explaining reading starts from, as it is asked for (-1: none)."""
    seqs: list[int] = []
    explaining = snapshots.explaining

    def spied(*args: Any, **kwargs: Any) -> Explaining | None:
        found = explaining(*args, **kwargs)
        seqs.append(-1 if found is None else found.state.seq)
        return found

    monkeypatch.setattr(snapshots, "explaining", spied)
    return seqs
