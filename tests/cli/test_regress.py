"""``affray regress PATH...``: recorded logs re-run as regression tests under today's rules, sorted.

A folder of golden copies is all unchanged (exit 0); a log re-simulated otherwise is CHANGED, naming its
first divergent seq and how the outcome differs (exit 1) until ``--update`` rewrites it; a hand-edited log
is DAMAGED and never rewritten; a file that is no log is UNREADABLE; a log of an older ruleset version is
OTHER VERSION and does not fail the run. In the duel, seq 1 is brenna joining with 32 damage points;
giving her one in the header's scenario (and re-chaining) hands the fight to side raiders.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.cli.conftest import ROOT, Affray, Result, assert_user_error
from tests.strategies import join_lines, log_lines, rechain

GOLDEN = ROOT / "tests" / "golden"
GOLDEN_LOGS = sorted(GOLDEN.glob("*.jsonl"))
OLD_DUEL = ROOT / "tests" / "corpus" / "format-1" / "duel.jsonl"
N = len(GOLDEN_LOGS)

SUMMARY = re.compile(
    r"^(?P<logs>\d+) logs: (?P<unchanged>\d+) unchanged, (?P<changed>\d+) changed "
    r"\((?P<winners>\d+) with another winner\), (?P<damaged>\d+) damaged, (?P<unreadable>\d+) unreadable, "
    r"(?P<other>\d+) of another version(?:; (?P<rewritten>\d+) rewritten under today's rules)?$"
)


def summary_line(
    logs: int,
    unchanged: int = 0,
    changed: int = 0,
    winners: int = 0,
    damaged: int = 0,
    unreadable: int = 0,
    other: int = 0,
    rewritten: int = 0,
) -> str:
    counted = f"{logs} log{'' if logs == 1 else 's'}"
    line = (
        f"{counted}: {unchanged} unchanged, {changed} changed ({winners} with another winner), "
        f"{damaged} damaged, {unreadable} unreadable, {other} of another version"
    )
    return line + (f"; {rewritten} rewritten under today's rules" if rewritten else "")


def out_lines(result: Result) -> list[str]:
    return result.out.splitlines()


def said(result: Result, sort: str) -> list[str]:
    """The report's lines of one sort (``CHANGED``, ``DAMAGED``, ...)."""
    return [line for line in out_lines(result) if line.startswith(f"{sort} ")]


@pytest.fixture
def goldens(tmp_path: Path) -> Path:
    """A folder holding a copy of every golden log."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for log in GOLDEN_LOGS:
        shutil.copy(log, folder / log.name)
    return folder


def one_point_for_brenna(log: Path) -> None:
    """Give brenna one damage point in the log's header's scenario and re-chain it: whole, but changed."""
    lines = log_lines(log.read_bytes())
    assert b'"damage_points":32' in lines[0]
    lines[0] = lines[0].replace(b'"damage_points":32', b'"damage_points":1', 1)
    log.write_bytes(rechain(lines))


def hand_edit(log: Path, index: int = 10) -> None:
    """Make the game time of line ``index`` (seq ``index``) a millisecond later, without re-chaining."""
    lines = log_lines(log.read_bytes())
    lines[index], count = re.subn(rb'"t":(\d+)', lambda m: b'"t":%d' % (int(m[1]) + 1), lines[index], count=1)
    assert count == 1
    log.write_bytes(join_lines(lines))


@pytest.fixture
def changed(goldens: Path) -> Path:
    """The goldens' folder with its duel changed in the header and re-chained."""
    one_point_for_brenna(goldens / "duel.jsonl")
    return goldens / "duel.jsonl"


@pytest.fixture
def damaged(goldens: Path) -> Path:
    """The goldens' folder with its duel edited by hand at seq 10."""
    hand_edit(goldens / "duel.jsonl")
    return goldens / "duel.jsonl"


# -- unchanged ---------------------------------------------------------------------------------------


def test_a_folder_of_golden_copies_is_all_unchanged(affray: Affray, goldens: Path) -> None:
    result = affray("regress", goldens)
    assert result.code == 0, result
    assert out_lines(result) == [summary_line(N, unchanged=N)]


def test_progress_goes_to_stderr_as_plain_lines(affray: Affray, goldens: Path) -> None:
    result = affray("regress", goldens)
    assert result.err_lines, result
    assert all("\r" not in line and "\x1b" not in line for line in result.err_lines)
    assert result.err_lines[-1].startswith(f"{N}/{N} logs")
    assert "logs:" not in result.err


def test_a_folder_is_searched_recursively_and_only_for_logs(affray: Affray, goldens: Path) -> None:
    inner = goldens / "inner" / "deeper"
    inner.mkdir(parents=True)
    (goldens / "duel.jsonl").rename(inner / "duel.jsonl")
    (goldens / "notes.txt").write_text("not a log\n")
    result = affray("regress", goldens)
    assert result.code == 0, result
    assert out_lines(result) == [summary_line(N, unchanged=N)]


def test_a_log_named_twice_is_checked_once(affray: Affray, goldens: Path) -> None:
    result = affray("regress", goldens / "duel.jsonl", goldens, goldens / "duel.jsonl")
    assert result.code == 0, result
    assert out_lines(result) == [summary_line(N, unchanged=N)]


# -- changed -----------------------------------------------------------------------------------------


def test_a_changed_log_names_its_first_divergent_seq_and_the_outcome(affray: Affray, changed: Path) -> None:
    result = affray("regress", changed.parent)
    assert result.code == 1, result
    (line,) = said(result, "CHANGED")
    assert line.startswith(f"CHANGED {changed}: line 2 (seq 1): differs from the re-simulation: ")
    assert "damage_points: recorded 32, simulated 1" in line
    assert "; the outcome: winner ford -> raiders; ends at 54.996 s -> " in line
    assert "; events 31 -> " in line
    assert "rewritten" not in line
    assert out_lines(result)[-1] == summary_line(N, unchanged=N - 1, changed=1, winners=1)
    assert len(out_lines(result)) == 2


def test_a_changed_log_alone(affray: Affray, changed: Path) -> None:
    result = affray("regress", changed)
    assert result.code == 1, result
    assert out_lines(result)[-1] == summary_line(1, changed=1, winners=1)


def test_update_rewrites_a_changed_log_and_says_so(affray: Affray, changed: Path) -> None:
    result = affray("regress", changed.parent, "--update")
    assert result.code == 0, result
    (line,) = said(result, "CHANGED")
    assert line.startswith(f"CHANGED {changed}: line 2 (seq 1): ")
    assert line.endswith("; rewritten under today's rules")
    assert out_lines(result)[-1] == summary_line(N, unchanged=N - 1, changed=1, winners=1, rewritten=1)
    assert not list(changed.parent.glob(".*partial*")), "a partial file was left"


def test_after_update_the_log_is_unchanged_and_verifies(affray: Affray, changed: Path) -> None:
    assert affray("regress", changed.parent, "--update").code == 0
    again = affray("regress", changed.parent)
    assert again.code == 0, again
    assert out_lines(again) == [summary_line(N, unchanged=N)]
    verified = affray("verify", changed)
    assert verified.code == 0, verified
    assert b'"damage_points":1,' in log_lines(changed.read_bytes())[0]


def test_update_leaves_unchanged_logs_as_they_were(affray: Affray, changed: Path) -> None:
    before = {p.name: p.read_bytes() for p in changed.parent.glob("*.jsonl") if p != changed}
    assert affray("regress", changed.parent, "--update").code == 0
    assert {p.name: p.read_bytes() for p in changed.parent.glob("*.jsonl") if p != changed} == before


# -- damaged -----------------------------------------------------------------------------------------


def test_a_hand_edited_log_is_damaged(affray: Affray, damaged: Path) -> None:
    result = affray("regress", damaged.parent)
    assert result.code == 1, result
    (line,) = said(result, "DAMAGED")
    assert line.startswith(f"DAMAGED {damaged}: line 11 (seq 10): ")
    assert not said(result, "CHANGED")
    assert out_lines(result)[-1] == summary_line(N, unchanged=N - 1, damaged=1)


def test_update_never_rewrites_a_damaged_log(affray: Affray, damaged: Path) -> None:
    before = damaged.read_bytes()
    result = affray("regress", damaged.parent, "--update")
    assert result.code == 1, result
    assert damaged.read_bytes() == before
    assert "rewritten" not in result.out
    assert out_lines(result)[-1] == summary_line(N, unchanged=N - 1, damaged=1)


def test_a_re_chained_edit_then_a_hand_edit_is_damaged_and_not_rewritten(
    affray: Affray, goldens: Path
) -> None:
    log = goldens / "duel.jsonl"
    one_point_for_brenna(log)
    hand_edit(log, 15)
    before = log.read_bytes()
    result = affray("regress", log, "--update")
    assert result.code == 1, result
    (line,) = said(result, "DAMAGED")
    assert line.startswith(f"DAMAGED {log}: line 2 (seq 1): ")
    assert log.read_bytes() == before


# -- unreadable and other versions -------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [b"hello\n", b"", b'{"a":1}\n', b"\x00\xff\xfe\n"],
    ids=["text", "empty", "json", "binary"],
)
def test_a_file_that_is_not_a_log_is_unreadable(affray: Affray, goldens: Path, content: bytes) -> None:
    notes = goldens / "notes.jsonl"
    notes.write_bytes(content)
    result = affray("regress", goldens)
    assert result.code == 1, result
    assert "Traceback" not in result.err
    (line,) = said(result, "UNREADABLE")
    assert line.startswith(f"UNREADABLE {notes}: ")
    assert out_lines(result)[-1] == summary_line(N + 1, unchanged=N, unreadable=1)


def test_a_log_of_an_older_ruleset_version_is_other_version_and_does_not_fail(
    affray: Affray, goldens: Path
) -> None:
    old = goldens / "old-duel.jsonl"
    shutil.copy(OLD_DUEL, old)
    result = affray("regress", goldens)
    assert result.code == 0, result
    (line,) = said(result, "OTHER VERSION")
    assert line.startswith(f"OTHER VERSION {old}: line 1 (header): made under energion version 1; ")
    assert out_lines(result)[-1] == summary_line(N + 1, unchanged=N, other=1)


def test_update_leaves_a_log_of_an_older_ruleset_version_as_it_was(affray: Affray, tmp_path: Path) -> None:
    old = tmp_path / "old-duel.jsonl"
    shutil.copy(OLD_DUEL, old)
    assert affray("regress", old, "--update").code == 0
    assert old.read_bytes() == OLD_DUEL.read_bytes()


# -- --json and --junit ------------------------------------------------------------------------------


@pytest.fixture
def mixed(goldens: Path) -> Path:
    """The goldens with one log of each sort: duel changed, brawl damaged, an old duel, a file of notes."""
    one_point_for_brenna(goldens / "duel.jsonl")
    hand_edit(goldens / "brawl.jsonl")
    shutil.copy(OLD_DUEL, goldens / "old-duel.jsonl")
    (goldens / "notes.jsonl").write_text("hello\n")
    return goldens


def test_json_is_a_list_of_every_log(affray: Affray, mixed: Path) -> None:
    result = affray("regress", mixed, "--json")
    assert result.code == 1, result
    rows = {Path(row["path"]).name: row for row in json.loads(result.out)}
    assert len(rows) == N + 2
    sorts = {name: row["sort"] for name, row in rows.items()}
    assert sorts == {
        **{log.name: "unchanged" for log in GOLDEN_LOGS},
        "duel.jsonl": "changed",
        "brawl.jsonl": "damaged",
        "old-duel.jsonl": "other_version",
        "notes.jsonl": "unreadable",
    }
    duel = rows["duel.jsonl"]
    assert (duel["seq"], duel["winner_changed"], duel["updated"]) == (1, True, False)
    (field,) = duel["fields"]
    assert field["path"] == "damage_points"
    assert (Decimal(str(field["a"])), Decimal(str(field["b"]))) == (Decimal(32), Decimal(1))
    assert {"path": "winner", "a": "ford", "b": "raiders"} in duel["outcome"]
    assert rows["brawl.jsonl"]["seq"] == 10
    assert rows["ambush.jsonl"] == {
        "path": str(mixed / "ambush.jsonl"),
        "sort": "unchanged",
        "where": "",
        "message": "",
        "seq": None,
        "fields": [],
        "outcome": [],
        "updated": False,
        "since": [],
        "winner_changed": False,
    }


def test_json_with_update_says_which_were_rewritten(affray: Affray, mixed: Path) -> None:
    rows = json.loads(affray("regress", mixed, "--json", "--update").out)
    assert {Path(row["path"]).name for row in rows if row["updated"]} == {"duel.jsonl"}


def test_junit_counts_every_log_and_fails_the_changed_one(
    affray: Affray, mixed: Path, tmp_path: Path
) -> None:
    report = tmp_path / "report.xml"
    result = affray("regress", mixed, "--junit", report)
    assert result.code == 1, result
    suite = ElementTree.parse(report).getroot()
    assert suite.tag == "testsuite"
    assert suite.get("name") == "affray regress"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors"), suite.get("skipped")) == (
        str(N + 2),
        "3",
        "0",
        "1",
    )
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert len(cases) == N + 2
    assert all(case.get("classname") == str(mixed) for case in cases.values())
    failure = cases["duel.jsonl"].find("failure")
    assert failure is not None
    assert failure.get("type") == "changed"
    assert failure.text is not None
    assert failure.text.startswith("CHANGED ")
    assert "winner ford -> raiders" in failure.text
    failures = {name: case.find("failure") for name, case in cases.items()}
    assert {name: f.get("type") for name, f in failures.items() if f is not None} == {
        "duel.jsonl": "changed",
        "brawl.jsonl": "damaged",
        "notes.jsonl": "unreadable",
    }
    assert [name for name, case in cases.items() if case.find("skipped") is not None] == ["old-duel.jsonl"]
    assert cases["ambush.jsonl"].find("failure") is None
    # the report on stdout is as without --junit
    assert out_lines(result)[-1] == summary_line(
        N + 2, unchanged=N - 2, changed=1, winners=1, damaged=1, unreadable=1, other=1
    )


def test_junit_after_update_fails_none_of_the_rewritten(
    affray: Affray, changed: Path, tmp_path: Path
) -> None:
    report = tmp_path / "report.xml"
    assert affray("regress", changed.parent, "--update", "--junit", report).code == 0
    suite = ElementTree.parse(report).getroot()
    assert (suite.get("tests"), suite.get("failures")) == (str(N), "0")


def test_junit_with_force_replaces_the_file(affray: Affray, goldens: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.xml"
    report.write_text("old")
    assert affray("regress", goldens, "--junit", report, "--force").code == 0
    assert ElementTree.parse(report).getroot().get("tests") == str(N)


# -- jobs ----------------------------------------------------------------------------------------------


def _process(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "affray", "regress", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
    )


def test_two_jobs_report_as_one_does(mixed: Path) -> None:
    one, two = _process(mixed, "-j", "1"), _process(mixed, "-j", "2")
    assert one.returncode == two.returncode == 1, (one, two)
    assert two.stdout == one.stdout
    assert "Traceback" not in two.stderr
    assert two.stderr.splitlines()[-1].startswith(f"{N + 2}/{N + 2} logs")


def test_two_jobs_update_as_one_does(mixed: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(mixed, other)
    one, two = _process(mixed, "-j", "1", "--update"), _process(other, "-j", "2", "--update")
    assert one.returncode == two.returncode == 1, (one, two)
    assert two.stdout.replace(str(other), str(mixed)) == one.stdout
    assert (other / "duel.jsonl").read_bytes() == (mixed / "duel.jsonl").read_bytes()


# -- user errors ---------------------------------------------------------------------------------------


def test_a_path_that_is_not_there_is_a_user_error(affray: Affray, tmp_path: Path) -> None:
    assert_user_error(affray("regress", tmp_path / "nowhere"), "nowhere", "no such file or folder")


def test_a_folder_with_no_log_is_a_user_error(affray: Affray, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("hello\n")
    assert_user_error(affray("regress", empty), str(empty), "no log")


def test_an_existing_junit_file_without_force_is_a_user_error(
    affray: Affray, goldens: Path, tmp_path: Path
) -> None:
    report = tmp_path / "report.xml"
    report.write_text("old")
    result = affray("regress", goldens, "--junit", report)
    assert_user_error(result, str(report), "--force")
    assert result.out == ""
    assert report.read_text() == "old"


def test_a_junit_file_not_ending_in_xml_is_a_user_error(
    affray: Affray, goldens: Path, tmp_path: Path
) -> None:
    result = affray("regress", goldens, "--junit", tmp_path / "report.txt")
    assert_user_error(result, ".xml")
    assert not (tmp_path / "report.txt").exists()


def test_a_junit_file_that_is_a_log_to_check_is_a_user_error(affray: Affray, goldens: Path) -> None:
    duel = goldens / "duel.jsonl"
    before = duel.read_bytes()
    assert_user_error(affray("regress", goldens, "--junit", duel, "--force"))
    assert duel.read_bytes() == before


def test_no_path_is_a_user_error(affray: Affray) -> None:
    assert_user_error(affray("regress"), "PATHS")


@pytest.mark.parametrize("jobs", ["0", "65", "two"])
def test_a_bad_jobs_count_is_a_user_error(affray: Affray, goldens: Path, jobs: str) -> None:
    assert_user_error(affray("regress", goldens, "-j", jobs), "--jobs")


def test_a_log_that_is_a_fifo_is_unreadable_not_missing(affray: Affray, tmp_path: Path) -> None:
    # it was said to be "no such file or folder"; it is there, and refused unread
    fifo = tmp_path / "f.jsonl"
    os.mkfifo(fifo)
    result = affray("regress", fifo)
    assert result.code == 1, result
    assert f"UNREADABLE {fifo}: is a fifo, not a log; affray reads only regular files" in result.out
