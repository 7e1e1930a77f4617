"""Controllers from outside affray through the command: examples/ambush.toml's outlaws are played by
examples/bots/utility.py (``controller = "bots.utility:utility"``), imported from the scenario's folder;
their decisions are in the log, verified without the bot, told and explained with their scores.

User errors are scenarios written into the test's folder next to a module of their own (a module once
imported stays in ``sys.modules``), each naming it as ``module:factory``.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

from affray.events.energion.kinds import IntentChosen
from tests import user_code
from tests.cli.conftest import DUEL, EXAMPLES, Affray, assert_user_error, run_with_user_code
from tests.strategies import read_path

AMBUSH = EXAMPLES / "ambush.toml"
UTILITY = "bots.utility:utility"


@pytest.fixture(scope="module")
def ambush_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The ambush's log as ``affray run`` writes it (run once for the module)."""
    return run_with_user_code(AMBUSH, tmp_path_factory.mktemp("ambush") / "ambush.jsonl")


@pytest.fixture
def ambush_log(tmp_path: Path, ambush_bytes: bytes) -> Path:
    path = tmp_path / "ambush.jsonl"
    path.write_bytes(ambush_bytes)
    return path


def decisions(path: Path) -> list[IntentChosen]:
    return [e for e in read_path(path) if isinstance(e, IntentChosen)]


def forget_bots() -> None:
    """Make ``bots.utility`` impossible to import (asserted, not assumed)."""
    user_code.forget()
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != EXAMPLES.resolve()]
    importlib.invalidate_caches()
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("bots.utility")


# --- the ambush -----------------------------------------------------------------------------------------


def test_run_logs_each_decision_of_the_controllers_the_scenario_names(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "ambush.jsonl"
    result = affray("run", AMBUSH, "-o", out)
    assert result.code == 0, result
    found = decisions(out)
    assert {(e.combatant, e.controller) for e in found} == {("fenn", UTILITY), ("brock", UTILITY)}
    assert all(e.intent is not None and e.intent.reason.startswith("best of ") for e in found if e.intent)
    assert all(e.scores for e in found if e.intent is not None)


def test_run_imports_the_controller_from_the_scenarios_folder_wherever_it_is_run(
    affray: Affray, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    forget_bots()
    assert affray("run", AMBUSH, "-o", tmp_path / "ambush.jsonl").code == 0
    assert sys.modules["bots.utility"].__file__ == str(EXAMPLES / "bots" / "utility.py")


def test_verify_replays_the_recorded_decisions_without_the_controllers_code(
    affray: Affray, ambush_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    forget_bots()
    result = affray("verify", ambush_log)
    assert result.code == 0, result
    assert result.out.startswith(f"ok: {ambush_log}: ")
    assert "bots.utility" not in sys.modules


def test_replay_tells_each_decision_with_its_reason_and_scores(affray: Affray, ambush_log: Path) -> None:
    result = affray("replay", ambush_log)
    assert result.code == 0, result
    lines = {int(line.split("#")[1].split()[0]): line for line in result.out.splitlines() if " #" in line}
    found = decisions(ambush_log)
    assert found
    for e in found:
        assert e.intent is not None
        scores = "; ".join(f"{s.option} {s.score:g}" for s in e.scores)
        told = f"{e.combatant} ({UTILITY}) chooses to {e.intent.words()}: {e.intent.reason} [{scores}]"
        assert lines[e.seq].endswith(told), lines[e.seq]


def test_explain_shows_a_decisions_controller_intent_and_scores(affray: Affray, ambush_log: Path) -> None:
    e = decisions(ambush_log)[0]
    assert e.intent is not None
    found = json.loads(affray("explain", ambush_log, str(e.seq), "--json").out)
    assert found["kind"] == "intent_chosen"
    steps = [(step["what"], step["value"], step["how"]) for step in found["steps"]]
    assert steps[:2] == [
        ("controller", UTILITY, "played from outside affray (docs/controllers.md)"),
        ("intent", e.intent.words(), e.intent.reason),
    ]
    assert steps[2:] == [("score", f"{s.score:g}", s.option) for s in e.scores]


def test_explain_lays_a_decision_out_in_words(affray: Affray, ambush_log: Path) -> None:
    e = decisions(ambush_log)[0]
    result = affray("explain", ambush_log, str(e.seq))
    assert result.code == 0, result
    lines = [line.split() for line in result.out.splitlines()]
    assert lines[lines.index(["derivation:"]) + 1][:2] == ["controller", UTILITY]
    assert [line[:2] for line in lines if line[:1] == ["score"]] == [
        ["score", f"{s.score:g}"] for s in e.scores
    ]


# --- user errors ----------------------------------------------------------------------------------------


def controlled(tmp_path: Path, controller: str, source: str | None = None) -> tuple[Path, str]:
    """The duel with brenna (``$.combatants[0]``) played by ``controller``; with ``source``, a module of
    its own written next to it, named for ``{module}`` in ``controller``. The scenario and the module."""
    name = ""
    if source is not None:
        name = user_code.module(tmp_path, source)
    text = DUEL.read_text().replace(
        "skill = 70\n", f'skill = 70\ncontroller = "{controller.format(module=name)}"\n', 1
    )
    path = tmp_path / "scenario.toml"
    path.write_text(text)
    return path, name


FIELD = "$.combatants[0].controller"


def test_a_controller_module_that_is_not_there_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    path, _ = controlled(tmp_path, "no_such_bot_module:make")
    result = affray("run", path, "-o", tmp_path / "out.jsonl")
    assert_user_error(result, str(path), FIELD, "cannot import no_such_bot_module")
    assert not (tmp_path / "out.jsonl").exists()


def test_a_factory_the_module_does_not_have_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    path, name = controlled(tmp_path, "{module}:nope", "def make(seat):\n    return None\n")
    result = affray("run", path, "-o", tmp_path / "out.jsonl")
    assert_user_error(result, str(path), FIELD, f"{name} has no nope")


def test_a_controller_module_that_fails_to_import_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    path, name = controlled(tmp_path, "{module}:make", "raise RuntimeError('no weights found')\n")
    result = affray("run", path, "-o", tmp_path / "out.jsonl")
    assert_user_error(result, str(path), FIELD, f"importing {name} failed: RuntimeError: no weights found")


def test_a_factory_that_raises_is_one_error_line_naming_the_exception_and_place(
    affray: Affray, tmp_path: Path
) -> None:
    path, name = controlled(tmp_path, "{module}:make", "def make(seat):\n    raise ValueError('no seat')\n")
    result = affray("run", path, "-o", tmp_path / "out.jsonl")
    where = tmp_path.resolve() / f"{name}.py"
    assert_user_error(result, str(path), FIELD, "ValueError: no seat", f"{where}:2")


RAISING = """\
class Bot:
    def decide(self, view, legal):
        raise ValueError("boom")


def make(seat):
    return Bot()
"""


def test_a_controller_whose_decide_raises_is_one_error_line_naming_the_exception_and_place(
    affray: Affray, tmp_path: Path
) -> None:
    path, name = controlled(tmp_path, "{module}:make", RAISING)
    result = affray("run", path, "-o", tmp_path / "out.jsonl")
    where = tmp_path.resolve() / f"{name}.py"
    assert_user_error(result, str(path), FIELD, "ValueError: boom", f"{where}:3")


def test_a_controller_answering_what_is_no_intent_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    path, _ = controlled(tmp_path, "{module}:make", RAISING.replace('raise ValueError("boom")', "return 42"))
    result = affray("run", path, "-o", tmp_path / "out.jsonl")
    assert_user_error(result, str(path), FIELD, "answered 42: not an intent, a Decision or None")


def test_a_combatant_played_step_by_step_cannot_be_run_by_affray_run(affray: Affray, tmp_path: Path) -> None:
    path, _ = controlled(tmp_path, "external")
    result = affray("run", path, "-o", tmp_path / "out.jsonl")
    assert_user_error(
        result, str(path), "brenna's controller is 'external'", "played step by step from outside"
    )


def test_a_fight_played_from_outside_affray_is_not_fought_on(affray: Affray, ambush_log: Path) -> None:
    # battle LOG@N would need the controller's code for every later decision: no log's code runs
    result = affray("battle", f"{ambush_log}@5", "--runs", "5")
    assert_user_error(result, "is played by 'bots.utility:utility', code from outside affray")
    assert "bots" not in sys.modules
