"""A log never runs the code it names (issue 22, item 1).

A stranger sends logs whose scenarios name ``controller = "pwned:f"``, with a ``pwned/`` package beside them;
the user's own current folder holds a ``pwned/`` too. Importing either writes ``PWNED`` into the folder
that holds it, so a test sees whether, and from where, it ran. The stranger's logs are made in a real
process, so that this one never imports ``pwned`` unless a command does.

No command imports code a log names: heal, verify, regress, replay, state, explain, view, timeline, diff
and the pytest plugin take the recorded decisions or need none; whatif takes them up to the change and
stops with one error line if a new one is needed, unless ``--controllers DIR`` names the folder the code
comes from. A scenario is the user's program: its controllers come from its own folder, never from the
current one, however affray is started.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from affray.events.energion.kinds import IntentChosen
from tests.cli.conftest import DUEL, EXAMPLES, Affray, Result, assert_user_error, run_process
from tests.strategies import log_lines, read_path, rechain

pytest_plugins = ["pytester"]

CONTROLLER = "pwned:f"

PWNED = """\
from pathlib import Path

(Path(__file__).resolve().parent.parent / "PWNED").write_text("ran\\n")

from affray.npc.energion.nearest import NearestEnemy


class F:
    def __init__(self, seat):
        self.inner = NearestEnemy()

    def decide(self, view, legal):
        return self.inner.decide(view)


def f(seat):
    return F(seat)
"""
"""The stranger's controller: it plays as affray's nearest-enemy controller does, and says it ran."""


def plant(folder: Path) -> Path:
    """``folder/pwned/__init__.py``; the marker its import writes."""
    (folder / "pwned").mkdir(parents=True, exist_ok=True)
    (folder / "pwned" / "__init__.py").write_text(PWNED)
    return folder / "PWNED"


def played_by_pwned(source: Path, combatant: str, folder: Path) -> Path:
    """``source`` (an example scenario) written into ``folder`` with ``combatant`` played by pwned:f."""
    text = source.read_text()
    start = text.index(f'id = "{combatant}"')
    end = text.find("[[combatants]]", start)
    block = text[start : end if end != -1 else len(text)]
    lines = [line for line in block.splitlines(keepends=True) if not line.startswith("controller =")]
    lines.insert(1, f'controller = "{CONTROLLER}"\n')
    path = folder / source.name
    path.write_text(text[:start] + "".join(lines) + text[start + len(block) :])
    return path


@pytest.fixture(scope="module")
def stranger_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The stranger's duel (brenna played by pwned:f) and raid (dorn played by it), made by affray run
    in a real process in the stranger's folder."""
    folder = tmp_path_factory.mktemp("stranger")
    plant(folder)
    made = {}
    for name, source, combatant in (
        ("evil", DUEL, "brenna"),
        ("evil-robots", EXAMPLES / "robots.toml", "dorn"),
    ):
        scenario = played_by_pwned(source, combatant, folder)
        result = run_process("run", scenario, "-o", f"{name}.jsonl", cwd=folder)
        assert result.code == 0, result
        made[name] = (folder / f"{name}.jsonl").read_bytes()
    assert (folder / "PWNED").exists()  # the stranger ran his code to make the logs
    return made


@dataclass(frozen=True)
class Sent:
    """The logs as the user received them (``stranger/``, with ``pwned/`` beside them), and the user's
    own folder (``here``, the current folder, with a ``pwned/`` of its own)."""

    stranger: Path
    here: Path

    @property
    def duel(self) -> Path:
        return self.stranger / "evil.jsonl"

    @property
    def raid(self) -> Path:
        return self.stranger / "evil-robots.jsonl"

    def ran(self) -> list[str]:
        """Where pwned was imported from: the folders holding a marker."""
        return [p.parent.name for p in (self.stranger / "PWNED", self.here / "PWNED") if p.exists()]


@pytest.fixture
def sent(tmp_path: Path, stranger_logs: dict[str, bytes], monkeypatch: pytest.MonkeyPatch) -> Iterator[Sent]:
    found = Sent(tmp_path / "stranger", tmp_path / "here")
    for folder in (found.stranger, found.here):
        plant(folder)
    for name, data in stranger_logs.items():
        (found.stranger / f"{name}.jsonl").write_bytes(data)
    monkeypatch.chdir(found.here)
    monkeypatch.syspath_prepend(str(found.here))  # the current folder on the path, as python -m has it
    yield found
    for name in [m for m in sys.modules if m == "pwned" or m.startswith("pwned.")]:
        del sys.modules[name]


def assert_nothing_ran(sent: Sent) -> None:
    assert sent.ran() == []
    assert "pwned" not in sys.modules


def outputs(folder: Path, name: str) -> list[str]:
    """Every file in ``folder`` whose name starts with ``name`` or its hidden temporary form."""
    return sorted(p.name for p in folder.iterdir() if p.name.lstrip(".").startswith(name))


# --- whatif ---------------------------------------------------------------------------------------------


def test_whatif_needing_a_new_decision_stops_with_one_error_line_naming_combatant_controller_and_flag(
    affray: Affray, sent: Sent
) -> None:
    """The issue's command: the ruling on brenna's attack at seq 23 (20.332 s) parts the fight from the log
    before brenna decides again."""
    result = affray("whatif", sent.duel, "--seq", "23", "--rule", "miss", "--reason", "x", "-o", "w.jsonl")
    assert_user_error(
        result,
        f"{sent.duel}: after the change, brenna (controller '{CONTROLLER}') must make a decision at ",
        "that the log does not record",
        "affray imports code a log names only from a folder you give with --controllers DIR",
    )
    assert result.out == ""
    assert outputs(sent.here, "w.jsonl") == []
    assert_nothing_ran(sent)


def test_whatif_needing_no_new_decision_takes_the_recorded_ones_and_verifies(
    affray: Affray, sent: Sent
) -> None:
    """The last blow changed: gorm is out as before and brenna is not asked again."""
    result = affray("whatif", sent.duel, "--seq", "43", "--set", "brenna/hit#12=5", "-o", "w.jsonl")
    assert result.code == 0, result
    assert result.out.startswith(f"w.jsonl: {sent.duel} with brenna/hit#12=5; ")
    parent, child = read_path(sent.duel).events, read_path(sent.here / "w.jsonl").events
    assert [e for e in child if isinstance(e, IntentChosen)] == [
        e for e in parent if isinstance(e, IntentChosen)
    ]
    assert affray("verify", "w.jsonl").code == 0
    assert_nothing_ran(sent)


def test_whatif_handing_the_combatant_to_affrays_controller_needs_no_code(affray: Affray, sent: Sent) -> None:
    result = affray(
        "whatif", sent.duel, "--seq", "18", "--intent", "brenna:controller=tactician", "-o", "w.jsonl"
    )
    assert result.code == 0, result
    assert affray("verify", "w.jsonl").code == 0
    assert_nothing_ran(sent)


def test_whatif_giving_the_combatant_other_targets_needs_its_code_from_that_time(
    affray: Affray, sent: Sent
) -> None:
    """Its view changes at the order's time, with no event to show it: every decision from then is new."""
    result = affray("whatif", sent.duel, "--seq", "18", "--intent", "brenna:target=gorm", "-o", "w.jsonl")
    at = read_path(sent.duel).events[17].t / 1000
    assert_user_error(
        result, f"brenna (controller '{CONTROLLER}') must make a decision at {at:.3f} s", "--controllers DIR"
    )
    assert outputs(sent.here, "w.jsonl") == []
    assert_nothing_ran(sent)


def test_whatif_with_controllers_imports_the_code_from_that_folder_only_and_verifies(
    affray: Affray, sent: Sent
) -> None:
    result = affray(
        "whatif", sent.duel, "--seq", "23", "--rule", "miss", "--reason", "x", "-o", "w.jsonl",
        "--controllers", sent.stranger,
    )  # fmt: skip
    assert result.code == 0, result
    assert sent.ran() == ["stranger"]
    assert sys.modules["pwned"].__file__ == str(sent.stranger.resolve() / "pwned" / "__init__.py")
    assert affray("verify", "w.jsonl").code == 0


def test_whatif_with_controllers_naming_the_current_folder_imports_from_it(
    affray: Affray, sent: Sent
) -> None:
    result = affray(
        "whatif", sent.duel, "--seq", "23", "--rule", "miss", "--reason", "x", "-o", "w.jsonl",
        "--controllers", ".",
    )  # fmt: skip
    assert result.code == 0, result
    assert sent.ran() == ["here"]


def test_whatif_with_controllers_that_do_not_hold_the_code_is_one_error_line(
    affray: Affray, sent: Sent, tmp_path: Path
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = affray(
        "whatif", sent.duel, "--seq", "23", "--rule", "miss", "--reason", "x", "-o", "w.jsonl",
        "--controllers", empty,
    )  # fmt: skip
    assert_user_error(
        result,
        f"--controllers {empty}: controller '{CONTROLLER}': cannot import pwned: {empty.resolve()} holds no "
        "module or package pwned",
    )
    assert outputs(sent.here, "w.jsonl") == []
    assert_nothing_ran(sent)


def log_naming(sent: Sent, controller: str) -> Path:
    """The stranger's duel with its controller renamed ``controller`` and its chain mended, as a forger
    would."""
    lines = log_lines(sent.duel.read_bytes().replace(CONTROLLER.encode(), controller.encode()))
    path = sent.stranger / "named.jsonl"
    path.write_bytes(rechain(lines))
    return path


LOADED = ["os:system", "subprocess:run", "affray.cli:main"]
"""Callables of modules every affray process has imported already."""


@pytest.fixture
def spies(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """os.system, subprocess.run and affray.cli.main replaced by spies that note each call."""
    import affray.cli

    called: list[str] = []
    for module, name in ((os, "system"), (subprocess, "run"), (affray.cli, "main")):
        monkeypatch.setattr(module, name, lambda *args, _n=name, **kw: called.append(_n))
    return called


@pytest.mark.parametrize("controller", LOADED)
def test_a_log_naming_a_loaded_module_has_it_called_by_no_command(
    controller: str, affray: Affray, sent: Sent, spies: list[str]
) -> None:
    named = log_naming(sent, controller)
    assert affray("verify", named).code == 0
    changed = ("--seq", "23", "--rule", "miss", "--reason", "x", "-o", "w.jsonl")
    assert_user_error(affray("whatif", named, *changed), f"(controller '{controller}') must make a decision")
    module = controller.partition(":")[0]
    top = module.partition(".")[0]
    assert_user_error(
        affray("whatif", named, *changed, "--controllers", sent.stranger),
        f"cannot import {module}: {sent.stranger.resolve()} holds no module or package {top}",
    )
    assert affray("whatif", named, "--seq", "43", "--set", "brenna/hit#12=5", "-o", "w.jsonl").code == 0
    assert spies == []
    assert_nothing_ran(sent)


def test_a_log_naming_a_module_played_step_by_step_cannot_be_asked_for_a_new_decision(
    affray: Affray, sent: Sent
) -> None:
    named = log_naming(sent, "external")
    result = affray("whatif", named, "--seq", "23", "--rule", "miss", "--reason", "x", "-o", "w.jsonl")
    assert_user_error(result, "brenna (controller 'external')", "played step by step (affray.envs)")


# --- heal and the commands that read --------------------------------------------------------------------


def test_heal_takes_the_recorded_decisions_and_imports_nothing(affray: Affray, sent: Sent) -> None:
    """The issue's command: an aftermath needs no new decision."""
    result = affray("heal", sent.raid, "--days", "30", "-o", "h.jsonl")
    assert result.code == 0, result
    assert affray("verify", "h.jsonl").code == 0
    assert_nothing_ran(sent)


READING = {
    "verify": ["verify", "{duel}"],
    "regress": ["regress", "{stranger}"],
    "replay": ["replay", "{duel}"],
    "state": ["state", "{duel}", "--seq", "20"],
    "explain": ["explain", "{duel}", "19"],
    "view": ["view", "{duel}", "-o", "page.html"],
    "timeline": ["timeline", "{duel}", "-o", "clock.svg"],
    "diff": ["diff", "{duel}", "{raid}"],
    "lineage": ["lineage", "{duel}"],
}


@pytest.mark.parametrize("command", sorted(READING))
def test_a_command_reading_the_log_imports_nothing(command: str, affray: Affray, sent: Sent) -> None:
    args = [a.format(duel=sent.duel, raid=sent.raid, stranger=sent.stranger) for a in READING[command]]
    result = affray(*args)
    assert result.code in (0, 1), result  # diff exits 1: the logs differ
    assert "error:" not in result.err
    assert_nothing_ran(sent)


INI = (
    "[pytest]\naffray_golden = golden\nfilterwarnings =\n    error\n"
    "    ignore:Module already imported so cannot be rewritten:pytest.PytestAssertRewriteWarning\n"
)


def test_the_pytest_plugin_imports_nothing_a_golden_log_names(
    pytester: pytest.Pytester, stranger_logs: dict[str, bytes]
) -> None:
    pytester.makeini(INI)
    golden = pytester.path / "golden"
    golden.mkdir()
    (golden / "evil.jsonl").write_bytes(stranger_logs["evil"])
    markers = [plant(golden), plant(pytester.path)]
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert not any(marker.exists() for marker in markers)
    assert "pwned" not in sys.modules


# --- scenarios ------------------------------------------------------------------------------------------


def test_a_scenarios_controller_is_imported_from_its_folder_not_the_current_one(
    affray: Affray, sent: Sent
) -> None:
    scenario = played_by_pwned(DUEL, "brenna", sent.stranger)
    assert affray("run", scenario, "-o", "r.jsonl").code == 0
    assert sent.ran() == ["stranger"]


def test_a_scenario_whose_controller_is_only_in_the_current_folder_is_refused(
    affray: Affray, sent: Sent, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    scenario = played_by_pwned(DUEL, "brenna", elsewhere)
    result = affray("run", scenario, "-o", "r.jsonl")
    assert_user_error(
        result,
        f"{scenario}: $.combatants[0].controller: controller '{CONTROLLER}': cannot import pwned: ",
        f"{elsewhere.resolve()} holds no module or package pwned",
        "(a controller is imported from that folder only)",
    )
    assert outputs(sent.here, "r.jsonl") == []
    assert_nothing_ran(sent)


# --- real processes, started both ways ------------------------------------------------------------------

SCRIPT = Path(sys.executable).parent / "affray"


def started(how: str, *args: str | os.PathLike[str], cwd: Path) -> Result:
    """``affray ARGS`` in a real process in ``cwd``: by ``python -m affray`` or by the console script."""
    if how == "python -m":
        return run_process(*args, cwd=cwd)
    if not SCRIPT.exists():
        pytest.skip(f"no console script at {SCRIPT}")
    done = subprocess.run(
        [SCRIPT, *map(os.fspath, args)], capture_output=True, text=True, cwd=cwd, timeout=60, check=False
    )
    return Result(done.returncode, done.stdout, done.stderr)


HOW = ["python -m", "console script"]


@pytest.mark.parametrize("how", HOW)
def test_a_real_whatif_in_a_folder_holding_the_package_imports_nothing(how: str, sent: Sent) -> None:
    result = started(
        how,
        "whatif",
        sent.duel,
        "--seq",
        "23",
        "--rule",
        "miss",
        "--reason",
        "x",
        "-o",
        "w.jsonl",
        cwd=sent.here,
    )
    assert_user_error(result, f"brenna (controller '{CONTROLLER}')", "--controllers DIR")
    assert outputs(sent.here, "w.jsonl") == []
    assert sent.ran() == []


@pytest.mark.parametrize("how", HOW)
def test_a_real_heal_in_a_folder_holding_the_package_imports_nothing(how: str, sent: Sent) -> None:
    result = started(how, "heal", sent.raid, "--days", "30", "-o", "h.jsonl", cwd=sent.here)
    assert result.code == 0, result
    assert sent.ran() == []


@pytest.mark.parametrize("how", HOW)
def test_a_real_run_of_a_scenario_refuses_a_controller_only_in_the_current_folder(
    how: str, sent: Sent, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    scenario = played_by_pwned(DUEL, "brenna", elsewhere)
    result = started(how, "run", scenario, "-o", "r.jsonl", cwd=sent.here)
    assert_user_error(
        result, f"controller '{CONTROLLER}': cannot import pwned: {elsewhere.resolve()} holds no module"
    )
    assert sent.ran() == []


@pytest.mark.parametrize("how", HOW)
def test_a_real_run_of_a_scenario_imports_its_controller_from_its_own_folder(how: str, sent: Sent) -> None:
    scenario = played_by_pwned(DUEL, "brenna", sent.stranger)
    result = started(how, "run", scenario, "-o", "r.jsonl", cwd=sent.here)
    assert result.code == 0, result
    assert sent.ran() == ["stranger"]


def test_python_m_affray_takes_the_current_folder_off_the_import_path(sent: Sent) -> None:
    """A module in the folder a command runs in never stands in for one affray imports later."""
    (sent.here / "csv.py").write_text("raise SystemExit('the planted csv ran')\n")
    result = run_process("battle", DUEL, "--runs", "2", "-o", "runs.csv", cwd=sent.here)
    assert result.code == 0, result
    assert "planted" not in result.err


# --- the docs -------------------------------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_controllers_page_opens_with_a_warning_that_a_log_never_runs_code() -> None:
    text = (DOCS / "controllers.md").read_text()
    box = text.split("\n\n")[1].splitlines()
    assert box[0].startswith("> **Warning: a controller is code")
    said = " ".join(line.removeprefix("> ") for line in box)
    for fact in (
        "scenario file's own folder",
        "never from the current folder",
        "A log never makes affray import code",
        "--controllers DIR",
    ):
        assert fact in said, fact


def test_the_scenario_format_says_where_a_controllers_code_comes_from() -> None:
    text = (DOCS / "scenario-format.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith('| `controller` | `"auto"`'))
    assert "imported from the scenario file's folder only" in row
    assert "--controllers DIR" in row
