"""Ctrl-C (SIGINT), a kill (SIGTERM) and a closed terminal (SIGHUP) stop every command alike: one line, exit
status 128 + the signal's number, the partial log kept under its name, no temporary or lock file left,
an old output untouched (affray/cli/stops.py). Each test stops a real ``python -m affray`` while it
writes."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from affray import stores
from affray.stores.sqlite import Campaign
from tests.cli.conftest import EXAMPLES, Affray, Result
from tests.cli.test_memory import siege

STOPS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
WAIT_S = 60
"""The longest any wait here lasts: for a process to start writing, or to end once stopped."""
OLD = b"an older log, not to be lost\n"


def said(stop: signal.Signals) -> str:
    """How the one line of a command stopped by ``stop`` begins."""
    return "interrupted" if stop == signal.SIGINT else f"interrupted by {stop.name}"


def stopped_once(
    args: Sequence[str | os.PathLike[str]],
    writing: Callable[[], bool],
    stop: signal.Signals,
    cwd: Path,
    *,
    group: bool = False,
    may_finish: bool = False,
) -> Result:
    """``python -m affray *args`` started in a session of its own, sent ``stop`` once ``writing()`` holds (to
    its whole process group with ``group``, as a terminal's Ctrl-C reaches every process of the job); with
    ``may_finish`` a command that ends first is not sent it."""
    process = subprocess.Popen(
        [sys.executable, "-m", "affray", *map(os.fspath, args)],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + WAIT_S
        while not writing():
            if process.poll() is not None and may_finish:
                break
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the command wrote nothing in a minute"
            time.sleep(0.02)
        if process.poll() is None:
            os.killpg(process.pid, stop) if group else process.send_signal(stop)
        out, err = process.communicate(timeout=WAIT_S)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return Result(process.returncode, out.decode(), err.decode())


def temporary_files(folder: Path) -> list[Path]:
    """What a writer leaves beside its target only while it writes."""
    return [p for p in folder.iterdir() if p.name.endswith((".tmp", ".lock"))]


def holds_lines(folder: Path, name: str) -> Callable[[], bool]:
    """Whether a temporary file of ``name`` in ``folder`` holds a line yet."""
    return lambda: any(
        p.name.startswith(f".{name}.") and p.suffix == ".tmp" and p.stat().st_size > 0
        for p in folder.iterdir()
    )


@pytest.fixture
def long_fight(tmp_path: Path) -> Path:
    """A day-long siege: long enough to be stopped while it is written."""
    scenario = tmp_path / "siege.toml"
    scenario.write_text(siege(4))
    return scenario


PROGRESS = re.compile(r"\d+/\d+ runs, \d+/s, about \d+ s left")
"""A batch's progress line in a pipe, which may come before the line that says it stopped."""


def assert_stopped(result: Result, stop: signal.Signals) -> None:
    """Exit 128 + the signal's number, and one line saying so, with no traceback (after a batch's
    progress lines)."""
    assert result.code == 128 + stop, result
    *before, last = result.err_lines
    assert all(PROGRESS.fullmatch(line) for line in before), result.err
    assert last == said(stop) or last.startswith(f"{said(stop)}; "), result.err


@pytest.mark.parametrize("stop", STOPS, ids=lambda s: s.name)
def test_a_stopped_run_keeps_its_log_as_partial_and_the_old_one_as_it_was(
    tmp_path: Path, long_fight: Path, stop: signal.Signals
) -> None:
    log = tmp_path / "siege.jsonl"
    log.write_bytes(OLD)
    result = stopped_once(
        ["run", long_fight, "-o", log, "--force"], holds_lines(tmp_path, log.name), stop, tmp_path
    )
    assert_stopped(result, stop)
    assert result.err_lines[-1].endswith(f"the log so far is kept in {log}.partial")
    assert log.read_bytes() == OLD
    assert (tmp_path / "siege.jsonl.partial").read_bytes().startswith(b'{"format":"affray-log"')
    assert temporary_files(tmp_path) == []


def test_a_run_into_a_campaign_stopped_by_a_kill_keeps_its_encounter_as_partial(
    tmp_path: Path, long_fight: Path
) -> None:
    campaign = tmp_path / "c.sqlite"

    def started() -> bool:
        if not campaign.exists():
            return False
        with Campaign.open(campaign, read_only=True) as opened:
            return any(stored.events > 0 for stored in opened.stored())

    result = stopped_once(["run", long_fight, "-o", f"{campaign}#one"], started, signal.SIGTERM, tmp_path)
    assert_stopped(result, signal.SIGTERM)
    assert result.err_lines[-1].endswith(f"the log so far is kept in {campaign}#one.partial")
    with Campaign.open(campaign, read_only=True) as opened:
        assert [(s.name, s.whole) for s in opened.stored()] == [("one.partial", False)]


def test_a_closed_terminal_saves_the_rolls_typed_so_far(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    table = tmp_path / "table.toml"
    table.write_text((EXAMPLES / "duel.toml").read_text() + '\n[dice]\nmanual = ["brenna/*"]\n')
    child = pexpect.spawn(
        sys.executable,
        ["-m", "affray", "adjudicate", str(table), "-o", str(tmp_path / "t.jsonl")],
        timeout=30,
    )
    try:
        child.expect(r"(\S+/\S+#\d+) 1d\d+")
        asked = child.match.group(1).decode()
        child.sendline("1")
        child.expect(r"\S+/\S+#\d+ 1d\d+")
        child.kill(signal.SIGHUP)
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 128 + signal.SIGHUP, child.before
    assert (tmp_path / "t.jsonl.rolls.toml").read_text() == f'"{asked}" = 1\n'


@pytest.mark.parametrize(
    ("stop", "group"),
    [(signal.SIGINT, True), (signal.SIGTERM, False)],
    ids=["ctrl-c-to-the-job", "kill"],
)
def test_a_stopped_batch_on_two_workers_ends_at_once_and_reports_the_runs_fought(
    tmp_path: Path, stop: signal.Signals, group: bool
) -> None:
    results = tmp_path / "r.csv"
    runs = 100_000  # some two minutes of fighting on two cores
    args = ["battle", EXAMPLES / "skirmish.toml", "--runs", str(runs), "--jobs", "2", "-o", results]
    started = time.monotonic()
    result = stopped_once(args, holds_lines(tmp_path, results.name), stop, tmp_path, group=group)
    assert time.monotonic() - started < WAIT_S, "the batch was fought on after the stop"
    assert_stopped(result, stop)
    fought = int(result.err_lines[-1].split("; ")[1].split()[0])
    assert 0 < fought < runs
    assert result.out.splitlines()[0].endswith(
        f"{fought} runs from seed 7 (interrupted: the runs fought before the stop)"
    )
    rows = (tmp_path / "r.csv.partial").read_text().splitlines()
    assert len(rows) == fought + 1  # and the header
    assert not results.exists()
    assert temporary_files(tmp_path) == []


def test_a_stop_as_the_log_is_begun_keeps_what_was_written(
    affray: Affray, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the stop comes as the log's header is written, before the run could hold the writer: it waits for
    # the writer to exist, then the log so far (its header) is kept and said
    begin = stores.log_writer

    def stopped_while_begun(*args: Any, **kwargs: Any) -> Any:
        writer = begin(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGTERM)
        return writer

    monkeypatch.setattr(stores, "log_writer", stopped_while_begun)
    log = tmp_path / "duel.jsonl"
    result = affray("run", EXAMPLES / "duel.toml", "-o", log)
    assert result.code == 128 + signal.SIGTERM, result
    assert result.err_lines[-1] == f"interrupted by SIGTERM; the log so far is kept in {log}.partial"
    assert (tmp_path / "duel.jsonl.partial").read_bytes().startswith(b'{"format":"affray-log"')
    assert temporary_files(tmp_path) == []


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_a_stopped_redact_leaves_no_copy_and_the_old_one_as_it_was(
    affray: Affray, tmp_path: Path, stop: signal.Signals
) -> None:
    scenario = tmp_path / "siege.toml"
    scenario.write_text(
        siege(4).replace("max_seconds = 86400", 'max_seconds = 3600\n\n[dice]\nsealed = ["north*/*"]')
    )
    referee, copy = tmp_path / "referee.jsonl", tmp_path / "players.jsonl"
    assert affray("run", scenario, "-o", referee).code == 0
    copy.write_bytes(OLD)
    result = stopped_once(
        ["redact", referee, "-o", copy, "--force"], holds_lines(tmp_path, copy.name), stop, tmp_path
    )
    assert_stopped(result, stop)
    assert copy.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["players.jsonl", "referee.jsonl", "siege.toml"]
