"""``regress()``: a recorded log re-simulated under today's rules and sorted, with the log today's rules make.

Every log here is a copy of a golden log (tests/golden), whole or edited: re-chained (its chain made valid
again, so only the re-simulation can object: ``changed``) or by hand (its chain broken: ``damaged``). In
the duel, seq 1 is brenna joining with 32 damage points and seq 12 is brenna's first hit, 3.75 damage to
gorm (her first blow, seq 11, misses); side ford wins at 54.996 s after 31 events.
"""

from __future__ import annotations

import contextlib
import io
import re
from decimal import Decimal
from pathlib import Path

import pytest

from affray import rulesets
from affray.events.reader import LogFile, read_log
from affray.replays.diff import FieldDifference
from affray.replays.regress import Regression, regress
from tests.cli.conftest import call_main
from tests.strategies import join_lines, log_lines, read_path, rechain
from tests.strategies import verdict as verdict_of

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
EXAMPLES = ROOT / "examples"
GOLDEN_LOGS = sorted(GOLDEN.glob("*.jsonl"))
DUEL = (GOLDEN / "duel.jsonl").read_bytes()
DUEL_1 = (ROOT / "tests" / "corpus" / "format-1-last" / "duel.jsonl").read_bytes()
"""The golden duel in format 1, which chains every line."""
FIRST_HIT = 12
"""The seq of brenna's first hit in the duel: 3.75 damage to gorm."""


def read_canonical(path: Path) -> LogFile:
    """The log at ``path`` read as ``affray regress`` reads it (canonical form checked)."""
    return read_log(path, rulesets.vocabulary_for, canonical=True)


def regressed(path: Path) -> tuple[Regression, bytes | None]:
    """``regress`` on the log at ``path``, as ``affray regress`` calls it."""
    log = read_canonical(path)
    return regress(str(path), log, lambda: rulesets.recorded(log.header, str(path)))


def written(tmp_path: Path, data: bytes, name: str = "duel.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def with_header(data: bytes, old: bytes, new: bytes) -> list[bytes]:
    """The log's lines with the first ``old`` in its header replaced by ``new``."""
    lines = log_lines(data)
    assert old in lines[0]
    lines[0] = lines[0].replace(old, new, 1)
    return lines


def with_blow(data: bytes, damage: bytes) -> list[bytes]:
    """The duel's lines with brenna's first hit dealing ``damage``."""
    lines = log_lines(data)
    assert b'"damage":3.75}' in lines[FIRST_HIT]
    lines[FIRST_HIT] = lines[FIRST_HIT].replace(b'"damage":3.75}', b'"damage":' + damage + b"}", 1)
    return lines


def bump_time(line: bytes) -> bytes:
    """The line with its game time a millisecond later."""
    edited, count = re.subn(rb'"t":(\d+)', lambda m: b'"t":%d' % (int(m[1]) + 1), line, count=1)
    assert count == 1
    return edited


def fresh_run(tmp_path: Path, toml: str) -> bytes:
    """The log ``affray run`` writes for the scenario ``toml``."""
    scenario, out = tmp_path / "scenario.toml", tmp_path / "fresh.jsonl"
    scenario.write_text(toml)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert call_main(["run", scenario, "-o", out]) == 0
    return out.read_bytes()


def one_point_for_brenna() -> bytes:
    """The duel re-chained after its header's scenario was edited to give brenna one damage point."""
    return rechain(with_header(DUEL, b'"damage_points":32', b'"damage_points":1'))


def brenna_with_one_damage_point() -> str:
    toml = (EXAMPLES / "duel.toml").read_text()
    assert toml.count("damage_points = 32\n") == 1
    return toml.replace("damage_points = 32\n", "damage_points = 1\n")


# -- unchanged ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("golden", GOLDEN_LOGS, ids=lambda p: p.stem)
def test_a_copy_of_a_golden_log_is_unchanged(tmp_path: Path, golden: Path) -> None:
    path = written(tmp_path, golden.read_bytes(), golden.name)
    found, today = regressed(path)
    assert found == Regression(path=str(path), sort="unchanged")
    assert today is None
    assert not found.winner_changed


# -- changed -----------------------------------------------------------------------------------------


def test_a_re_chained_edit_of_a_blows_damage_is_changed_at_its_seq(tmp_path: Path) -> None:
    path = written(tmp_path, rechain(with_blow(DUEL, b"4.75")))
    found, _ = regressed(path)
    assert (found.sort, found.seq, found.where) == ("changed", FIRST_HIT, f"line 13 (seq {FIRST_HIT})")
    assert "damage.damage: recorded 4.75, simulated 3.75" in found.message
    assert found.fields == [FieldDifference("damage.damage", Decimal("4.75"), Decimal("3.75"))]
    assert not found.updated


def test_the_outcome_rows_of_a_re_chained_damage_edit_are_the_combatants_damage(tmp_path: Path) -> None:
    # brenna's hits: 3.75 + 1.875 + 7.5 + 3.75 + 9.375 + 9.375 + 9.375 = 45, or 46 with the edited 4.75
    found, _ = regressed(written(tmp_path, rechain(with_blow(DUEL, b"4.75"))))
    assert found.outcome == [
        FieldDifference("brenna", "dealt 46, took 10.875, standing", "dealt 45, took 10.875, standing"),
        FieldDifference(
            "gorm",
            "dealt 10.875, took 46, out at 54.996 s",
            "dealt 10.875, took 45, out at 54.996 s",
        ),
    ]
    assert not found.winner_changed


def test_today_the_re_chained_damage_edit_is_the_golden_log_again(tmp_path: Path) -> None:
    _, today = regressed(written(tmp_path, rechain(with_blow(DUEL, b"4.75"))))
    assert today == DUEL


def test_a_re_chained_header_edit_that_fells_the_winner_changes_the_winner(tmp_path: Path) -> None:
    found, _ = regressed(written(tmp_path, one_point_for_brenna()))
    assert (found.sort, found.seq, found.where) == ("changed", 1, "line 2 (seq 1)")
    assert found.fields == [FieldDifference("damage_points", Decimal(32), Decimal(1))]
    assert found.winner_changed
    rows = {row.path: (row.a, row.b) for row in found.outcome}
    assert list(rows) == ["winner", "ends at", "end reason", "events", "brenna", "gorm"]
    assert rows["winner"] == ("ford", "raiders")
    assert rows["ends at"][0] == "54.996 s"
    assert rows["events"][0] == 31
    assert rows["end reason"] == ("only side ford still stands", "only side raiders still stands")
    assert rows["brenna"][0].endswith(", standing")
    assert re.fullmatch(r"dealt .+, took .+, out at .+ s", rows["brenna"][1])


def test_the_log_today_of_a_changed_header_verifies(tmp_path: Path) -> None:
    _, today = regressed(written(tmp_path, one_point_for_brenna()))
    assert today is not None
    path = written(tmp_path, today, "today.jsonl")
    verdict = verdict_of(read_path(path), str(path))
    assert (verdict.ok, verdict.finding) == (True, "ok")
    assert verdict_of(read_canonical(path), str(path)).ok


def test_the_log_today_of_a_changed_header_is_what_affray_run_writes_for_it(tmp_path: Path) -> None:
    _, today = regressed(written(tmp_path, one_point_for_brenna()))
    assert today == fresh_run(tmp_path, brenna_with_one_damage_point())


def test_the_outcome_rows_compare_the_recorded_log_with_the_log_today(tmp_path: Path) -> None:
    found, today = regressed(written(tmp_path, one_point_for_brenna()))
    assert today is not None
    ended = read_path(written(tmp_path, today, "today.jsonl")).events[-1]
    rows = {row.path: row.b for row in found.outcome}
    assert rows["events"] == ended.seq
    assert rows["winner"] == getattr(ended, "winner", None)


def test_a_re_chained_log_cut_short_is_changed_where_it_stops(tmp_path: Path) -> None:
    lines = log_lines(DUEL)[:21]  # the header and seq 1..20, then a fresh end line
    found, today = regressed(written(tmp_path, rechain(lines)))
    assert (found.sort, found.seq) == ("changed", 21)
    assert "the log stops at seq 20" in found.message
    assert found.fields == []
    assert {row.path for row in found.outcome} >= {"events", "ends at", "winner"}
    assert today == DUEL


def test_a_changed_what_if_keeps_its_parent_and_its_changes_today(tmp_path: Path) -> None:
    parent = written(tmp_path, DUEL)
    whatif = tmp_path / "whatif.jsonl"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert call_main(["whatif", parent, "--set", "brenna/hit#2=5", "-o", whatif]) == 0
    recorded = read_path(whatif).header
    edited = rechain(with_header(whatif.read_bytes(), b'"damage_points":36', b'"damage_points":30'))
    found, today = regressed(written(tmp_path, edited, "whatif.jsonl"))
    assert found.sort == "changed"
    assert today is not None
    header = read_path(written(tmp_path, today, "today.jsonl")).header
    assert (header.parent, header.changes) == (recorded.parent, recorded.changes)
    assert header.changes == ["brenna/hit#2=5"]


# -- damaged -----------------------------------------------------------------------------------------


def test_a_hand_edit_of_a_blows_damage_is_damaged_at_its_seq(tmp_path: Path) -> None:
    found, today = regressed(written(tmp_path, join_lines(with_blow(DUEL, b"4.75"))))
    assert (found.sort, found.seq) == ("damaged", FIRST_HIT)
    assert found.where == f"line 13 (seq {FIRST_HIT})"
    assert (found.fields, found.outcome) == ([], [])
    assert today is None
    assert not found.winner_changed


def test_a_hand_edit_of_the_header_is_damaged(tmp_path: Path) -> None:
    lines = with_header(DUEL, b'"damage_points":32', b'"damage_points":1')
    found, today = regressed(written(tmp_path, join_lines(lines)))
    assert found.sort == "damaged"
    assert today is None


def test_a_re_chained_edit_then_a_hand_edit_after_it_is_damaged(tmp_path: Path) -> None:
    # format 1 chains every line: the hand edit is named at its line
    lines = log_lines(rechain(with_blow(DUEL_1, b"4.75")))
    lines[20] = bump_time(lines[20])  # seq 20, not re-chained
    found, today = regressed(written(tmp_path, join_lines(lines)))
    assert found.sort == "damaged"
    assert found.seq == FIRST_HIT
    assert "differs from the re-simulation" in found.message
    assert "; and line 21 (seq 20): " in found.message
    assert today is None


def test_a_re_chained_edit_then_a_hand_edit_in_its_block_is_damaged(tmp_path: Path) -> None:
    # format 2 chains blocks of lines: the hand edit breaks the chain of the duel's one block, named after
    # the first line of it that differs from the re-simulation
    lines = log_lines(rechain(with_blow(DUEL, b"4.75")))
    lines[20] = bump_time(lines[20])  # seq 20, not re-chained
    found, today = regressed(written(tmp_path, join_lines(lines)))
    assert found.sort == "damaged"
    assert found.seq == FIRST_HIT
    assert "differs from the re-simulation" in found.message
    assert found.message.endswith(
        "; and line 2 (seq 1): lines 2 to 32 (seqs 1 to 31) were changed: their hash no longer matches the "
        "prev that the end line records"
    )
    assert today is None
