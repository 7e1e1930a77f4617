"""affray's pytest plugin, run by pytest's own ``pytester``: golden logs as items, the fixture, updating."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from affray import stores
from affray.stores import StoredLog
from affray.stores.sqlite import SUFFIXES
from affray.testing.pytest_plugin import CAMPAIGNS
from tests.strategies import log_lines, rechain

pytest_plugins = ["pytester"]

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
INI = (
    "[pytest]\naffray_golden = golden\nfilterwarnings =\n    error\n"
    # pytester runs pytest in this process, where affray is imported already, and pytest 9 warns that it
    # cannot rewrite the asserts of the installed pytest11 plugin's package; a project's own run does not
    "    ignore:Module already imported so cannot be rewritten:pytest.PytestAssertRewriteWarning\n"
)


@pytest.fixture
def goldens(pytester: pytest.Pytester) -> Path:
    """A project with two of affray's golden logs in ``golden/`` and the plugin configured for it."""
    pytester.makeini(INI)
    folder = pytester.path / "golden"
    folder.mkdir()
    for name in ("duel", "bar-brawl"):
        shutil.copy(GOLDEN / f"{name}.jsonl", folder)
    return folder


def _rechained_with(path: Path, old: bytes, new: bytes) -> None:
    """The log with its header's ``old`` replaced by ``new`` and every hash recomputed."""
    lines = log_lines(path.read_bytes())
    lines[0] = lines[0].replace(old, new, 1)
    path.write_bytes(rechain(lines[:-1]))


def test_each_golden_log_is_an_item_named_after_its_file(pytester: pytest.Pytester, goldens: Path) -> None:
    result = pytester.runpytest("--collect-only", "-q")
    assert {"golden/duel.jsonl::duel", "golden/bar-brawl.jsonl::bar-brawl"} <= set(result.outlines)


def test_golden_logs_that_re_simulate_pass(pytester: pytest.Pytester, goldens: Path) -> None:
    pytester.runpytest().assert_outcomes(passed=2)


def test_a_changed_golden_fails_with_a_short_message(pytester: pytest.Pytester, goldens: Path) -> None:
    _rechained_with(goldens / "duel.jsonl", b'"skill":70', b'"skill":20')
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    report = result.stdout.str()
    assert "CHANGED" in report
    assert "the outcome: " in report
    assert "--affray-update rewrites it" in report
    assert "Traceback" not in report
    assert len(report.splitlines()) < 40


def test_affray_update_rewrites_a_changed_golden(pytester: pytest.Pytester, goldens: Path) -> None:
    _rechained_with(goldens / "duel.jsonl", b'"skill":70', b'"skill":20')
    pytester.runpytest("--affray-update").assert_outcomes(passed=2)
    pytester.runpytest().assert_outcomes(passed=2)


def test_a_hand_edited_golden_fails_as_damaged_and_is_not_rewritten(
    pytester: pytest.Pytester, goldens: Path
) -> None:
    path = goldens / "duel.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[10] = lines[10].replace(b'"t":', b'"t":1', 1)
    path.write_bytes(b"\n".join(lines))
    edited = path.read_bytes()
    result = pytester.runpytest("--affray-update")
    result.assert_outcomes(passed=1, failed=1)
    assert "DAMAGED" in result.stdout.str()
    assert path.read_bytes() == edited


def test_a_golden_of_another_ruleset_version_is_skipped(pytester: pytest.Pytester, goldens: Path) -> None:
    shutil.copy(GOLDEN.parent / "corpus" / "format-1" / "duel.jsonl", goldens / "old-duel.jsonl")
    pytester.runpytest("-rs").assert_outcomes(passed=2, skipped=1)


def test_without_the_setting_no_log_is_collected(pytester: pytest.Pytester) -> None:
    shutil.copy(GOLDEN / "duel.jsonl", pytester.path)
    pytester.runpytest().assert_outcomes()


FIXTURE_TEST = """
from pathlib import Path

def test_made(affray_golden):
    affray_golden.check(Path("{made}").read_bytes(), Path("{golden}"))
"""


def test_the_fixture_fails_naming_where_the_logs_part(pytester: pytest.Pytester) -> None:
    golden = pytester.path / "duel.jsonl"
    shutil.copy(GOLDEN / "duel.jsonl", golden)
    made = pytester.path / "made.jsonl"
    shutil.copy(GOLDEN / "skirmish.jsonl", made)
    pytester.makepyfile(FIXTURE_TEST.format(made=made, golden=golden))
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    assert "the headers differ" in result.stdout.str()


def test_the_fixture_writes_a_missing_golden_with_affray_update(pytester: pytest.Pytester) -> None:
    golden = pytester.path / "new.jsonl"
    made = pytester.path / "made.jsonl"
    shutil.copy(GOLDEN / "duel.jsonl", made)
    pytester.makepyfile(FIXTURE_TEST.format(made=made, golden=golden))
    pytester.runpytest().assert_outcomes(failed=1)
    pytester.runpytest("--affray-update").assert_outcomes(passed=1)
    assert golden.read_bytes() == made.read_bytes()


def test_goldens_no_test_checked_are_reported_as_unused(pytester: pytest.Pytester) -> None:
    folder = pytester.path / "goldens"
    folder.mkdir()
    shutil.copy(GOLDEN / "duel.jsonl", folder)
    shutil.copy(GOLDEN / "skirmish.jsonl", folder / "gone.jsonl")
    pytester.makepyfile(FIXTURE_TEST.format(made=folder / "duel.jsonl", golden=folder / "duel.jsonl"))
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*affray: unused golden logs*", "*gone.jsonl: no test checked it*"])
    assert "duel.jsonl: no test" not in result.stdout.str()


def test_a_narrowed_run_reports_no_unused_golden(pytester: pytest.Pytester) -> None:
    folder = pytester.path / "goldens"
    folder.mkdir()
    shutil.copy(GOLDEN / "duel.jsonl", folder)
    shutil.copy(GOLDEN / "skirmish.jsonl", folder / "gone.jsonl")
    pytester.makepyfile(FIXTURE_TEST.format(made=folder / "duel.jsonl", golden=folder / "duel.jsonl"))
    result = pytester.runpytest("-k", "made")
    result.assert_outcomes(passed=1)
    assert "unused golden" not in result.stdout.str()


def _campaign_of(goldens: Path) -> Path:
    """The goldens moved into ``golden/fights.sqlite``, one encounter each."""
    campaign = goldens / "fights.sqlite"
    for log in sorted(goldens.glob("*.jsonl")):
        with log.open("rb") as lines:
            stores.write_whole(StoredLog(campaign, log.stem), lines)
        log.unlink()
    return campaign


def test_each_whole_encounter_of_a_campaign_is_an_item_named_after_it(
    pytester: pytest.Pytester, goldens: Path
) -> None:
    _campaign_of(goldens)
    result = pytester.runpytest("--collect-only", "-q")
    assert {"golden/fights.sqlite::duel", "golden/fights.sqlite::bar-brawl"} <= set(result.outlines)


def test_a_changed_encounter_fails_and_affray_update_rewrites_it_in_its_campaign(
    pytester: pytest.Pytester, goldens: Path
) -> None:
    _rechained_with(goldens / "duel.jsonl", b'"skill":70', b'"skill":20')
    campaign = _campaign_of(goldens)
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    assert f"CHANGED {campaign}#duel" in result.stdout.str()
    pytester.runpytest("--affray-update").assert_outcomes(passed=2)
    pytester.runpytest().assert_outcomes(passed=2)


def test_a_database_that_is_no_campaign_fails_as_one_item(pytester: pytest.Pytester, goldens: Path) -> None:
    (goldens / "notes.db").write_text("not a campaign\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, failed=1)
    assert "UNREADABLE" in result.stdout.str()
    assert "notes.db: not an affray campaign" in result.stdout.str()


def test_the_plugin_knows_a_campaign_by_the_suffixes_affray_does() -> None:
    assert CAMPAIGNS == SUFFIXES


PRECIOUS = b"precious, and not affray's\n"


def test_affray_update_never_writes_through_a_link_at_the_old_temporary_name(
    pytester: pytest.Pytester, goldens: Path
) -> None:
    victim = pytester.path / "victim"
    victim.write_bytes(PRECIOUS)
    _rechained_with(goldens / "duel.jsonl", b'"skill":70', b'"skill":20')
    (goldens / ".duel.jsonl.partial.jsonl").symlink_to("../victim")
    pytester.runpytest("--affray-update").assert_outcomes(passed=2)
    assert victim.read_bytes() == PRECIOUS
    assert not (goldens / "duel.jsonl").is_symlink()
    pytester.runpytest().assert_outcomes(passed=2)


def test_the_fixture_replaces_a_golden_that_is_a_link_and_leaves_its_target(
    pytester: pytest.Pytester,
) -> None:
    victim = pytester.path / "victim"
    victim.write_bytes(PRECIOUS)
    golden = pytester.path / "duel.jsonl"
    golden.symlink_to(victim)
    made = pytester.path / "made.jsonl"
    shutil.copy(GOLDEN / "duel.jsonl", made)
    pytester.makepyfile(FIXTURE_TEST.format(made=made, golden=golden))
    pytester.runpytest("--affray-update").assert_outcomes(passed=1)
    assert victim.read_bytes() == PRECIOUS
    assert not golden.is_symlink()
    assert golden.read_bytes() == made.read_bytes()


def test_the_fixture_shows_a_name_from_the_logs_as_text(pytester: pytest.Pytester) -> None:
    golden = pytester.path / "duel.jsonl"
    shutil.copy(GOLDEN / "duel.jsonl", golden)
    made = pytester.path / "made.jsonl"
    shutil.copy(GOLDEN / "duel.jsonl", made)
    _rechained_with(made, b'"Gorm the Axeman"', b'"Gorm\\u001b]0;PWNED\\u0007\\u202e"')
    pytester.makepyfile(FIXTURE_TEST.format(made=made, golden=golden))
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    report = result.stdout.str()
    assert "Gorm\\u001b]0;PWNED\\u0007\\u202e" in report
    assert not {"\x1b", "\x07", "\u202e"} & set(report)


def test_a_golden_that_is_a_fifo_fails_unread(pytester: pytest.Pytester) -> None:
    # it was read with read_bytes, which waits on a fifo for a writer that never comes
    golden = pytester.path / "duel.jsonl"
    os.mkfifo(golden)
    made = pytester.path / "made.jsonl"
    shutil.copy(GOLDEN / "duel.jsonl", made)
    pytester.makepyfile(FIXTURE_TEST.format(made=made, golden=golden))
    result = pytester.runpytest_subprocess(timeout=60)
    result.assert_outcomes(failed=1)
    assert "is a fifo, not a golden log; affray reads only regular files" in result.stdout.str()


def test_goldens_checked_as_items_are_not_reported_as_unused(
    pytester: pytest.Pytester, goldens: Path
) -> None:
    # bar-brawl is checked as an item of golden/, duel by the fixture too: neither is unused
    duel = goldens / "duel.jsonl"
    pytester.makepyfile(FIXTURE_TEST.format(made=duel, golden=duel))
    result = pytester.runpytest()
    result.assert_outcomes(passed=3)
    assert "unused golden" not in result.stdout.str()


def test_the_fixtures_failure_keeps_the_lines_of_the_difference(pytester: pytest.Pytester) -> None:
    golden = pytester.path / "duel.jsonl"
    shutil.copy(GOLDEN / "duel.jsonl", golden)
    made = pytester.path / "made.jsonl"
    shutil.copy(GOLDEN / "skirmish.jsonl", made)
    pytester.makepyfile(FIXTURE_TEST.format(made=made, golden=golden))
    result = pytester.runpytest()
    lines = result.stdout.lines
    first = next(i for i, line in enumerate(lines) if "the headers differ" in line)
    assert lines[first] == "the headers differ:"
    assert lines[first + 1].split() == ["A", "B"]
    assert lines[first + 2].split()[:3] == ["seed", "1130", "7"]


def test_a_hidden_file_beside_the_goldens_is_no_golden(pytester: pytest.Pytester, goldens: Path) -> None:
    # as affray regress skips them: a writer's temporary file or a planted link is neither a test item
    # nor an unused golden
    (goldens / ".fight.jsonl.partial.jsonl").write_text("not a golden\n")
    duel = goldens / "duel.jsonl"
    pytester.makepyfile(FIXTURE_TEST.format(made=duel, golden=duel))
    result = pytester.runpytest()
    result.assert_outcomes(passed=3)
    assert ".fight.jsonl.partial.jsonl" not in result.stdout.str()
