"""What a killed or failed run leaves beside a log (issue 22, item 7): a real ``affray run`` killed with
SIGKILL, which no handler sees, leaves its temporary file; the next affray writing that name keeps it as
``NAME.partial`` and says so in one ``note:`` line, and a run that succeeds beside a ``NAME.partial`` of an
earlier failed run says it is still there. Nothing is silently kept or deleted."""

from __future__ import annotations

import contextlib
import re
import sqlite3
from pathlib import Path

import pytest

from tests.cli.conftest import DUEL, Affray
from tests.cli.test_memory import siege
from tests.killed import killed_once_written
from tests.strategies import read_path

KILL_AFTER = 400
"""How many events the killed run has written, at least, when it is killed."""


def _events(path: Path | None) -> int:
    if path is None:
        return 0
    try:
        return max(path.read_bytes().count(b"\n") - 1, 0)
    except FileNotFoundError:
        return 0


@pytest.fixture
def killed(tmp_path: Path) -> Path:
    """A folder where ``affray run`` of a day-long siege to ``siege.jsonl`` was killed with SIGKILL once it
    had written ``KILL_AFTER`` events (as tests/stores/test_contract.py kills one)."""
    scenario = tmp_path / "siege.toml"
    scenario.write_text(siege(4))
    arguments = ["run", scenario, "-o", tmp_path / "siege.jsonl"]
    killed_once_written(
        arguments, lambda _: _events(next(tmp_path.glob(".siege.jsonl.*.tmp"), None)), KILL_AFTER
    )
    return tmp_path


def test_a_killed_run_leaves_its_temporary_file_and_lock(killed: Path) -> None:
    left = {p.name for p in killed.iterdir() if p.name.startswith(".")}
    assert ".siege.jsonl.lock" in left
    (temporary,) = left - {".siege.jsonl.lock"}
    assert re.fullmatch(r"\.siege\.jsonl\.[0-9a-f]{16}\.tmp", temporary)


def test_the_next_run_of_that_name_keeps_the_left_over_as_partial_and_says_so(
    affray: Affray, killed: Path
) -> None:
    left = next(killed.glob(".siege.jsonl.*.tmp"))
    written = left.read_bytes()
    result = affray("run", DUEL, "-o", killed / "siege.jsonl")
    assert result.code == 0, result
    partial = killed / "siege.jsonl.partial"
    assert result.err_lines == [
        f"note: {killed / 'siege.jsonl'}: a run that was killed while writing it left {left.name}; "
        f"kept as {partial}"
    ]
    assert partial.read_bytes() == written
    log = read_path(partial)
    assert log.problem is not None
    assert "cut short" in log.problem.message
    assert len(log.events) >= KILL_AFTER
    assert sorted(p.name for p in killed.iterdir()) == ["siege.jsonl", "siege.jsonl.partial", "siege.toml"]


def test_a_run_that_succeeds_beside_an_earlier_partial_says_it_is_still_there(
    affray: Affray, killed: Path
) -> None:
    assert affray("run", DUEL, "-o", killed / "siege.jsonl").code == 0
    result = affray("run", DUEL, "-o", killed / "siege.jsonl", "--force")
    assert result.code == 0, result
    assert result.err_lines == [
        f"note: {killed / 'siege.jsonl'}: {killed / 'siege.jsonl.partial'}, from an earlier run that failed, "
        "is still beside it"
    ]
    assert (killed / "siege.jsonl.partial").exists()


def test_a_failed_runs_partial_is_said_when_the_next_run_succeeds(affray: Affray, tmp_path: Path) -> None:
    (tmp_path / "duel.jsonl.partial").write_text("the lines of a run that failed\n")
    result = affray("run", DUEL, "-o", tmp_path / "duel.jsonl")
    assert result.code == 0, result
    assert result.err_lines == [
        f"note: {tmp_path / 'duel.jsonl'}: {tmp_path / 'duel.jsonl.partial'}, from an earlier run that "
        "failed, is still beside it"
    ]
    assert (tmp_path / "duel.jsonl.partial").read_text() == "the lines of a run that failed\n"


def test_a_run_with_nothing_beside_it_says_nothing(affray: Affray, tmp_path: Path) -> None:
    result = affray("run", DUEL, "-o", tmp_path / "duel.jsonl")
    assert (result.code, result.err) == (0, "")


def _encounter_lines(campaign: Path, prefix: str) -> int:
    """How many lines the encounters whose names begin with ``prefix`` hold (0 before the campaign is)."""
    if not campaign.exists():
        return 0
    with contextlib.closing(sqlite3.connect(f"file:{campaign}?mode=ro", uri=True)) as connection:
        try:
            found = connection.execute(
                "SELECT count(*) FROM events JOIN encounters ON encounters.id = events.encounter "
                "WHERE substr(name, 1, ?) = ?",
                (len(prefix), prefix),
            ).fetchone()
        except sqlite3.OperationalError:  # the schema is still being made
            return 0
    return int(found[0])


@pytest.fixture
def killed_in_campaign(tmp_path: Path) -> Path:
    """A campaign into which ``affray run`` of a day-long siege as encounter ``siege`` was killed with
    SIGKILL once it had written ``KILL_AFTER`` events."""
    scenario = tmp_path / "siege.toml"
    scenario.write_text(siege(4))
    campaign = tmp_path / "c.sqlite"
    arguments = ["run", scenario, "-o", campaign, "--encounter", "siege"]
    killed_once_written(arguments, lambda _: _encounter_lines(campaign, ".siege."), KILL_AFTER)
    return campaign


def test_the_next_run_into_a_campaign_keeps_a_killed_runs_encounter_as_partial_and_says_so(
    affray: Affray, killed_in_campaign: Path
) -> None:
    # issue 22 item 7: the next writer of the name found the killed run's .siege.PID.tmp and left it
    result = affray("run", DUEL, "-o", killed_in_campaign, "--encounter", "siege")
    assert result.code == 0, result
    (note,) = result.err_lines
    assert re.fullmatch(
        rf"note: {re.escape(str(killed_in_campaign))}#siege: a run that was killed while writing it left "
        rf"\.siege\.[0-9]+\.tmp; kept as {re.escape(str(killed_in_campaign))}#siege\.partial",
        note,
    )
    listed = affray("encounters", killed_in_campaign).out
    assert "siege.partial" in listed
    assert ".tmp" not in listed


def test_a_run_into_a_campaign_beside_an_earlier_partial_says_it_is_still_there(
    affray: Affray, killed_in_campaign: Path
) -> None:
    assert affray("run", DUEL, "-o", killed_in_campaign, "--encounter", "siege").code == 0
    result = affray("run", DUEL, "-o", killed_in_campaign, "--encounter", "siege", "--force")
    assert result.code == 0, result
    assert result.err_lines == [
        f"note: {killed_in_campaign}#siege: {killed_in_campaign}#siege.partial, from an earlier run that "
        "failed, is still in the campaign"
    ]
