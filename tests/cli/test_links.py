"""Links planted where affray writes (issue 22, items 3 and 6): every output of every command is created new
under a random name and moved onto its name, so a link at a name affray once used for its temporary file
is never written through, and a link at the output's own name is replaced (with ``--force``), never
followed. Each test plants links the way a stranger's folder would hold them and checks that the file they
point to is untouched."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import DUEL, ROOT, Affray, assert_user_error
from tests.cli.test_regress import one_point_for_brenna

PRECIOUS = b"precious, and not affray's\n"


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file a stranger's link points to, outside every folder affray writes in."""
    path = tmp_path / "victim"
    path.write_bytes(PRECIOUS)
    return path


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current folder, one below the victim's (``../victim`` from here, ``../../victim`` from a
    folder in it)."""
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def plant(link: Path, to: str | Path) -> None:
    link.symlink_to(to)


def assert_untouched(victim: Path) -> None:
    assert victim.read_bytes() == PRECIOUS


def assert_a_file(path: Path) -> None:
    assert not path.is_symlink(), f"{path} is still a link"
    assert path.is_file()


# -- regress --update -----------------------------------------------------------------------------------


@pytest.fixture
def changed_golden(work: Path) -> Path:
    """``golden/fight.jsonl``: the duel, with brenna given one damage point (whole, but changed)."""
    (work / "golden").mkdir()
    golden = work / "golden" / "fight.jsonl"
    shutil.copy(ROOT / "tests" / "golden" / "duel.jsonl", golden)
    one_point_for_brenna(golden)
    return golden


def test_regress_update_never_writes_through_a_link_at_its_old_temporary_name(
    affray: Affray, changed_golden: Path, victim: Path
) -> None:
    """The issue's reproduction: ``ln -s ../../victim golden/.fight.jsonl.partial.jsonl``."""
    plant(changed_golden.parent / ".fight.jsonl.partial.jsonl", "../../victim")
    result = affray("regress", "--update", "golden")
    assert result.code == 0, result
    assert "rewritten under today's rules" in result.out
    assert_untouched(victim)
    assert_a_file(changed_golden)
    assert affray("regress", "golden").code == 0


def test_regress_update_replaces_a_golden_that_is_a_link(
    affray: Affray, changed_golden: Path, victim: Path
) -> None:
    victim.write_bytes(changed_golden.read_bytes())
    changed_golden.unlink()
    plant(changed_golden, victim)
    assert affray("regress", "--update", "golden").code == 0
    assert_a_file(changed_golden)
    assert victim.read_bytes() != changed_golden.read_bytes(), "the link's target kept the old log"


def test_junit_never_writes_through_a_link_at_its_old_temporary_name(
    affray: Affray, work: Path, victim: Path
) -> None:
    plant(work / ".report.xml.partial.xml", "../victim")
    result = affray("regress", ROOT / "tests" / "golden" / "duel.jsonl", "--junit", "report.xml")
    assert result.code == 0, result
    assert_untouched(victim)
    assert_a_file(work / "report.xml")


def test_junit_replaces_a_link_at_its_name_only_with_force(affray: Affray, work: Path, victim: Path) -> None:
    plant(work / "report.xml", "../victim")
    duel = ROOT / "tests" / "golden" / "duel.jsonl"
    assert_user_error(
        affray("regress", duel, "--junit", "report.xml"), "--junit report.xml: a link has that name; --force"
    )
    assert affray("regress", duel, "--junit", "report.xml", "--force").code == 0
    assert_untouched(victim)
    assert_a_file(work / "report.xml")


# -- view and timeline ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("command", "page"), [("view", "page.html"), ("timeline", "fight.png")])
def test_a_picture_or_page_never_writes_through_a_link_at_its_old_temporary_name(
    affray: Affray, work: Path, victim: Path, duel_log: Path, command: str, page: str
) -> None:
    suffix = Path(page).suffix
    plant(work / f".{page}.partial{suffix}", "../victim")
    result = affray(command, duel_log, "-o", page)
    assert result.code == 0, result
    assert_untouched(victim)
    assert_a_file(work / page)


@pytest.mark.parametrize(("command", "page"), [("view", "page.html"), ("timeline", "fight.png")])
def test_a_dangling_link_at_the_output_is_refused_then_replaced_with_force(
    affray: Affray, work: Path, duel_log: Path, command: str, page: str
) -> None:
    plant(work / page, "../made-through-the-link")
    assert_user_error(affray(command, duel_log, "-o", page), f"-o {page}: a link has that name; --force")
    assert affray(command, duel_log, "-o", page, "--force").code == 0
    assert not (work.parent / "made-through-the-link").exists()
    assert_a_file(work / page)


def test_an_output_that_is_a_folder_is_refused_before_any_work(
    affray: Affray, work: Path, duel_log: Path
) -> None:
    (work / "page.html").mkdir()
    assert_user_error(affray("view", duel_log, "-o", "page.html", "--force"), "-o page.html: is a folder")


# -- battle ---------------------------------------------------------------------------------------------


def test_battle_results_never_write_through_a_link_at_their_old_temporary_name(
    affray: Affray, work: Path, victim: Path
) -> None:
    plant(work / ".res.csv.partial", "../victim")
    result = affray("battle", DUEL, "--runs", "3", "-o", "res.csv")
    assert result.code == 0, result
    assert_untouched(victim)
    assert (work / "res.csv").read_text().startswith("run,seed,")


def test_battle_results_replace_a_link_at_their_name_only_with_force(
    affray: Affray, work: Path, victim: Path
) -> None:
    plant(work / "res.csv", "../victim")
    assert_user_error(affray("battle", DUEL, "--runs", "3", "-o", "res.csv"), "a link has that name; --force")
    assert affray("battle", DUEL, "--runs", "3", "-o", "res.csv", "--force").code == 0
    assert_untouched(victim)
    assert_a_file(work / "res.csv")


def test_kept_logs_over_an_earlier_kept_txt_are_refused_before_any_fight(affray: Affray, work: Path) -> None:
    """The issue's reproduction: ``--keep-logs 1 --logs logs`` replaced an existing logs/kept.txt."""
    (work / "logs").mkdir()
    (work / "logs" / "kept.txt").write_text("mine\n")
    result = affray("battle", DUEL, "--runs", "5", "--keep-logs", "1", "--logs", "logs")
    assert_user_error(result, "--logs logs/kept.txt: the file exists; --force replaces it")
    assert result.out == ""
    assert (work / "logs" / "kept.txt").read_text() == "mine\n"
    assert sorted(os.listdir(work / "logs")) == ["kept.txt"]


def test_kept_logs_with_force_replace_kept_txt_and_a_link_there(
    affray: Affray, work: Path, victim: Path
) -> None:
    (work / "logs").mkdir()
    plant(work / "logs" / "kept.txt", "../../victim")
    result = affray("battle", DUEL, "--runs", "5", "--keep-logs", "1", "--logs", "logs", "--force")
    assert result.code == 0, result
    assert_untouched(victim)
    assert_a_file(work / "logs" / "kept.txt")
    assert "run-" in (work / "logs" / "kept.txt").read_text()


def test_kept_logs_over_the_logs_of_an_earlier_batch_are_refused(affray: Affray, work: Path) -> None:
    (work / "logs").mkdir()
    (work / "logs" / "run-0000001.jsonl").write_text("mine\n")
    result = affray("battle", DUEL, "--runs", "5", "--keep-logs", "1", "--logs", "logs")
    assert_user_error(result, "--logs logs: holds the logs of an earlier batch (run-0000001.jsonl); --force")
    assert (work / "logs" / "run-0000001.jsonl").read_text() == "mine\n"


def test_plots_never_write_through_a_dangling_link(affray: Affray, work: Path) -> None:
    """The issue's reproduction: ``--plots`` wrote through a dangling link outside the folder."""
    (work / "plots").mkdir()
    plant(work / "plots" / "wins.png", "../../outside.png")
    result = affray("battle", DUEL, "--runs", "5", "--plots", "plots")
    assert_user_error(result, "--plots plots/wins.png: a link has that name; --force replaces it")
    assert not (work.parent / "outside.png").exists()
    assert sorted(os.listdir(work / "plots")) == ["wins.png"]


def test_plots_with_force_replace_a_link_onto_another_file(affray: Affray, work: Path, victim: Path) -> None:
    """The issue's reproduction: with ``--force``, ``--plots`` wrote through a link onto another file."""
    (work / "plots").mkdir()
    plant(work / "plots" / "wins.png", "../../victim")
    plant(work / "plots" / ".time.png.partial", "../../victim")
    result = affray("battle", DUEL, "--runs", "5", "--plots", "plots", "--force")
    assert result.code == 0, result
    assert_untouched(victim)
    for name in ("wins.png", "time.png", "damage.png"):
        assert_a_file(work / "plots" / name)
        assert (work / "plots" / name).read_bytes().startswith(b"\x89PNG")


def test_sweep_plot_replaces_a_link_onto_another_file(affray: Affray, work: Path, victim: Path) -> None:
    (work / "plots").mkdir()
    plant(work / "plots" / "sweep.png", "../../victim")
    vary = "combatants.gorm.skill=70,110"
    result = affray("battle", DUEL, "--runs", "3", "--vary", vary, "--plots", "plots", "--force")
    assert result.code == 0, result
    assert_untouched(victim)
    assert (work / "plots" / "sweep.png").read_bytes().startswith(b"\x89PNG")


def test_plots_into_a_dangling_link_is_one_error_and_makes_nothing(affray: Affray, work: Path) -> None:
    plant(work / "plots", "../elsewhere")
    result = affray("battle", DUEL, "--runs", "5", "--plots", "plots")
    assert_user_error(result, "--plots plots: a link has that name, not a folder")
    assert not (work.parent / "elsewhere").exists()


# -- logs: run, export ----------------------------------------------------------------------------------


def test_run_replaces_a_link_at_its_output_only_with_force(affray: Affray, work: Path, victim: Path) -> None:
    plant(work / "duel.jsonl", "../victim")
    assert_user_error(affray("run", DUEL, "-o", "duel.jsonl"), "a link has that name")
    assert affray("run", DUEL, "-o", "duel.jsonl", "--force").code == 0
    assert_untouched(victim)
    assert_a_file(work / "duel.jsonl")


def test_run_never_writes_through_a_link_at_its_lock(affray: Affray, work: Path, victim: Path) -> None:
    plant(work / ".duel.jsonl.lock", "../victim")
    assert_user_error(
        affray("run", DUEL, "-o", "duel.jsonl"), ".duel.jsonl.lock beside it is a link; remove it"
    )
    assert_untouched(victim)
    assert not (work / "duel.jsonl").exists()


def test_export_replaces_a_link_at_its_output_only_with_force(
    affray: Affray, work: Path, victim: Path
) -> None:
    assert affray("run", DUEL, "-o", "c.sqlite#duel").code == 0
    plant(work / "duel.jsonl", "../victim")
    assert affray("export", "c.sqlite#duel", "-o", "duel.jsonl").code == 2
    assert affray("export", "c.sqlite#duel", "-o", "duel.jsonl", "--force").code == 0
    assert_untouched(victim)
    assert_a_file(work / "duel.jsonl")


def test_dev_stdout_is_written_in_place_when_it_is_a_pipe(tmp_path: Path) -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "affray", "run", DUEL, "-o", "/dev/stdout", "--force"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith(b'{"format":"affray-log"')
    assert os.path.islink("/dev/stdout")


def test_dev_stdout_that_is_a_file_is_refused_and_never_replaced(tmp_path: Path) -> None:
    """``-o /dev/stdout > file``: the name is a link in /dev, which affray must not replace by a file."""
    with (tmp_path / "out.txt").open("wb") as out:
        ran = subprocess.run(
            [sys.executable, "-m", "affray", "run", DUEL, "-o", "/dev/stdout", "--force"],
            stdout=out,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    assert ran.returncode == 2
    assert ran.stderr.decode().splitlines() == [
        "error: /dev/stdout: is not a terminal, a pipe or a device here; name the file itself"
    ]
    assert os.path.islink("/dev/stdout")
    assert (tmp_path / "out.txt").read_bytes() == b""
