"""Combatants played from outside affray (affray/handlers/outside.py): a scenario naming a factory that
is not there, controllers made by their factories and called (Called), answers given between steps
(Stepped), and the recorded answers taken when a log is re-simulated (Replayed).

Controllers are small modules written into the test's folder, next to a scenario file that names them, so
that they are imported from the scenario's folder as ``affray run`` imports them.
"""

from __future__ import annotations

import importlib
import random
import re
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
import tomli_w

from affray import rulesets
from affray.errors import ControllerError, ScenarioError, UnrecordedDecision
from affray.events.base import Event
from affray.events.codec import encode_log
from affray.events.energion.kinds import AttackResolved, IntentChosen, TargetChosen
from affray.events.shared import ActionRefused, CombatantOut, EncounterEnded, Score
from affray.handlers.energion.battle import EnergionBattle
from affray.handlers.energion.repertoire import menu
from affray.handlers.energion.scenario import EnergionScenario
from affray.npc.energion.intents import Flee, Intent, Surrender
from affray.npc.energion.nearest import NearestEnemy
from affray.npc.outside import Decision, Seat, seat_seed
from tests.handlers.energion import Script, fighter, scenario_toml
from tests.strategies import header_for, log_lines, read, rechain, verdict
from tests.user_code import module

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def scenario_file(folder: Path, example: str, controllers: dict[str, str]) -> Path:
    """``examples/<example>.toml`` written into ``folder`` with the combatants' controllers set."""
    raw: dict[str, Any] = tomllib.loads((EXAMPLES / f"{example}.toml").read_text())
    for combatant in raw["combatants"]:
        if combatant["id"] in controllers:
            combatant["controller"] = controllers[combatant["id"]]
    path = folder / f"{example}.toml"
    path.write_text(tomli_w.dumps(raw))
    return path


def load(path: Path) -> EnergionScenario:
    """The scenario file read as ``affray run`` reads it (its factories imported from its folder)."""
    scenario: EnergionScenario = rulesets.load_scenario(path)[1]
    return scenario


def outcome(log: list[Event], *, decisions: bool = True) -> list[dict[str, Any]]:
    """The log's events as data without who played whom: the ``controller`` of ``intent_chosen`` and
    ``target_chosen`` left out; without ``decisions``, no ``intent_chosen`` at all and no ``seq``."""
    found = []
    for event in log:
        if isinstance(event, IntentChosen) and not decisions:
            continue
        data: dict[str, Any] = msgspec.to_builtins(event)
        if isinstance(event, IntentChosen | TargetChosen):
            data.pop("controller")
        if not decisions:
            data.pop("seq")
        found.append(data)
    return found


def first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> str:
    """Where two outcomes first part, in a few words (for an assertion's message)."""

    def said(e: dict[str, Any]) -> str:
        return f"{e['kind']} of {e.get('combatant', e.get('attacker'))} at {e['t']} ms"

    for index, (left, right) in enumerate(zip(a, b, strict=False)):
        if left != right:
            return f"event {index}: {said(left)}, against {said(right)} ({len(a)} and {len(b)} events)"
    return f"one stops first: {len(a)} events against {len(b)}"


# --- a scenario's controllers ---------------------------------------------------------------------------


def test_a_scenario_file_naming_a_missing_factory_is_an_error_at_load(tmp_path: Path) -> None:
    name = module(tmp_path, "def make(seat):\n    return None\n")
    path = scenario_file(tmp_path, "duel", {"gorm": f"{name}:nope"})
    with pytest.raises(
        ScenarioError, match=re.escape(f"$.combatants[1].controller: controller '{name}:nope'")
    ):
        load(path)


# --- Called: factories' controllers in a run ------------------------------------------------------------

NEAREST_AS_OUTSIDE = """\
from affray.npc.energion.nearest import NearestEnemy


class Nearest:
    def __init__(self, seat):
        self.inner = NearestEnemy()

    def decide(self, view, legal):
        return self.inner.decide(view)


def make(seat):
    return Nearest(seat)
"""


@pytest.mark.parametrize("example", ["duel", "skirmish"])
def test_an_outside_controller_answering_as_nearest_fights_as_nearest_does(
    example: str, tmp_path: Path
) -> None:
    """Every combatant the built-in nearest-enemy controller plays is played instead by an outside one
    that answers what nearest would: the fight is the same, event for event, bar the decisions recorded."""
    built = load(EXAMPLES / f"{example}.toml")
    battle = EnergionBattle(built)
    nearest = [c for c, controller in battle.controllers.items() if isinstance(controller, NearestEnemy)]
    assert nearest
    name = module(tmp_path, NEAREST_AS_OUTSIDE)
    outside = load(scenario_file(tmp_path, example, dict.fromkeys(nearest, f"{name}:make")))
    own, played = outcome(battle.run().log, decisions=False), outcome(EnergionBattle(outside).run().log)
    decided = [e for e in played if e["kind"] == "intent_chosen"]
    assert {e["combatant"] for e in decided} == set(nearest)
    without = [{k: v for k, v in e.items() if k != "seq"} for e in played if e["kind"] != "intent_chosen"]
    assert own == without, first_difference(own, without)


SEATED = """\
SEATS = []


class Idle:
    def decide(self, view, legal):
        return None


def make(seat):
    SEATS.append(seat)
    return Idle()
"""


def test_each_factory_is_given_its_combatants_seat_in_file_order(tmp_path: Path) -> None:
    name = module(tmp_path, SEATED)
    built = load(scenario_file(tmp_path, "skirmish", {"mira": f"{name}:make", "vell": f"{name}:make"}))
    EnergionBattle(built).run()
    assert [
        Seat(combatant="mira", side="watch", controller=f"{name}:make", seed=seat_seed(built.seed, "mira")),
        Seat(combatant="vell", side="bandits", controller=f"{name}:make", seed=seat_seed(built.seed, "vell")),
    ] == sys.modules[name].SEATS


def test_each_run_makes_fresh_controllers(tmp_path: Path) -> None:
    name = module(tmp_path, SEATED)
    battle = EnergionBattle(load(scenario_file(tmp_path, "duel", {"brenna": f"{name}:make"})))
    battle.run()
    battle.run()
    assert [seat.combatant for seat in sys.modules[name].SEATS] == ["brenna", "brenna"]


def test_a_factory_that_raises_is_an_error_naming_the_controller_combatant_and_place(tmp_path: Path) -> None:
    name = module(tmp_path, "def make(seat):\n    raise ValueError('no weights')\n")
    battle = EnergionBattle(load(scenario_file(tmp_path, "duel", {"gorm": f"{name}:make"})))
    with pytest.raises(ControllerError) as error:
        battle.run()
    where = tmp_path.resolve() / f"{name}.py"
    assert str(error.value) == (
        f"$.combatants[1].controller ({name}:make) of gorm: its factory failed: ValueError: no weights "
        f"(at {where}:2)"
    )


def test_a_run_with_a_combatant_played_step_by_step_needs_the_steps(tmp_path: Path) -> None:
    battle = EnergionBattle(load(scenario_file(tmp_path, "duel", {"gorm": "external"})))
    with pytest.raises(
        ScenarioError,
        match=r"^\$\.combatants\[1\]\.controller: gorm's controller is 'external': it is played step",
    ):
        battle.run()


DECIDING = """\
from affray.npc.energion.intents import Approach, Attack, Wait
from affray.npc.outside import Decision


class Bot:
    def decide(self, view, legal):
        if view.now >= 10_000:
            return None
        if Attack(target="gorm", reason="") in legal:
            return Attack(target="gorm", reason="in reach")
        return Decision(
            Approach(target="gorm", reason="own reason"),
            reason="closing in",
            scores={"approach gorm": 2, "wait": 0.5},
        )


def make(seat):
    return Bot()
"""


def test_each_answer_is_recorded_with_its_reason_and_scores_before_it_is_carried_out(tmp_path: Path) -> None:
    name = module(tmp_path, DECIDING)
    log = EnergionBattle(load(scenario_file(tmp_path, "duel", {"brenna": f"{name}:make"}))).run().log
    first = next(e for e in log if isinstance(e, IntentChosen))
    assert (first.combatant, first.controller, first.intent) == (
        "brenna",
        f"{name}:make",
        msgspec.convert({"do": "approach", "target": "gorm", "reason": "closing in"}, Intent),
    )
    assert first.scores == (Score(option="approach gorm", score=2.0), Score(option="wait", score=0.5))
    target = log[first.seq]  # the event after it: its target chosen, with the decision's reason
    assert isinstance(target, TargetChosen)
    assert (target.combatant, target.controller, target.reason) == ("brenna", f"{name}:make", "closing in")


def test_a_controller_answering_none_does_nothing_more(tmp_path: Path) -> None:
    name = module(tmp_path, DECIDING)
    log = EnergionBattle(load(scenario_file(tmp_path, "duel", {"brenna": f"{name}:make"}))).run().log
    last = [e for e in log if isinstance(e, IntentChosen)][-1]
    assert last.intent is None
    assert last.t >= 10_000
    after = [e for e in log[last.seq :] if not isinstance(e, CombatantOut | EncounterEnded)]
    assert not [e for e in after if "brenna" in (getattr(e, "combatant", ""), getattr(e, "attacker", ""))]


STUBBORN = """\
from affray.npc.energion.intents import Attack


class Bot:
    def __init__(self):
        self.tries = 2

    def decide(self, view, legal):
        self.tries -= 1
        return Attack(target="gorm", reason="from afar") if self.tries >= 0 else None


def make(seat):
    return Bot()
"""


def test_an_intent_the_rules_do_not_allow_is_refused_not_an_error(tmp_path: Path) -> None:
    name = module(tmp_path, STUBBORN)
    log = EnergionBattle(load(scenario_file(tmp_path, "duel", {"brenna": f"{name}:make"}))).run().log
    chosen = next(e for e in log if isinstance(e, IntentChosen))
    refused = next(e for e in log if isinstance(e, ActionRefused))
    assert refused.seq > chosen.seq
    assert (refused.combatant, refused.action) == ("brenna", "attack gorm")
    assert "beyond reach" in refused.reason


SEEING = """\
from affray.npc.energion.intents import Attack

SAW = []


class Bot:
    def decide(self, view, legal):
        if view.now > 0:
            return None
        SAW.append(view.field.get("b").out)
        return Attack(target="b", reason="b stands")


def make(seat):
    return Bot()
"""


def three(folder: Path, controller: str, *order: str) -> EnergionBattle:
    """a (ford, played by ``controller``) against b and c (raiders), b 1 m away, in file ``order``;
    b surrenders at once and c stands idle."""
    fighters = {
        "a": fighter("a", "ford", prepared=True, controller=controller),
        "b": fighter("b", "raiders", prepared=True, position=[1, 0]),
        "c": fighter("c", "raiders", prepared=True, position=[0, 30]),
    }
    path = folder / "three.toml"
    path.write_text(scenario_toml(*(fighters[c] for c in order), max_seconds=3))
    battle = EnergionBattle(load(path))
    battle.controllers["b"] = Script(Surrender(reason="gives up"))
    battle.controllers["c"] = Script()
    return battle


def test_an_outside_decision_is_carried_out_on_the_state_it_was_made_on(tmp_path: Path) -> None:
    """a is asked first at 0 s and b surrenders at that instant: the surrender comes before a's decision
    in the log exactly when a's controller saw b out."""
    name = module(tmp_path, SEEING)
    log = three(tmp_path, f"{name}:make", "a", "b", "c").run().log
    (saw_out,) = sys.modules[name].SAW
    decided = next(e for e in log if isinstance(e, IntentChosen))
    out = next(e for e in log if isinstance(e, CombatantOut) and e.combatant == "b")
    assert saw_out == (out.seq < decided.seq), (
        f"saw b out: {saw_out}; b out at seq {out.seq}, decided at {decided.seq}"
    )


def test_an_attack_at_a_combatant_out_of_the_fight_is_refused(tmp_path: Path) -> None:
    """b surrenders before a decides (b first in the file); a's controller attacks it all the same."""
    name = module(tmp_path, SEEING)
    log = three(tmp_path, f"{name}:make", "b", "a", "c").run().log
    assert sys.modules[name].SAW == [True]
    assert not [e for e in log if isinstance(e, AttackResolved)]
    (refused,) = [e for e in log if isinstance(e, ActionRefused)]
    assert (refused.combatant, refused.action) == ("a", "attack b")


# --- Stepped: answers given between steps ---------------------------------------------------------------

PLAYBACK = """\
ANSWERS = {}


class Playback:
    def __init__(self, seat):
        self.answers = list(ANSWERS[seat.combatant])

    def decide(self, view, legal):
        return self.answers.pop(0)


def make(seat):
    return Playback(seat)
"""

Answerer = Callable[[str, Any, tuple[Intent, ...]], object]


def stepped_run(built: EnergionScenario, answer: Answerer) -> list[Event]:
    """Run ``built`` step by step, each question of an ``external`` combatant answered by ``answer``
    (given the combatant, its view and its legal intents); the log."""
    battle = EnergionBattle(built)
    stepped = battle.step_outside()
    encounter = battle.start()
    while not encounter.finished.processed:
        if stepped.waiting is None:
            encounter.step()
            continue
        combatant, offer = stepped.waiting
        stepped.answer(answer(combatant, offer.view(), offer.legal()))
    battle.close(encounter)
    return encounter.log


def random_answers(seed: int, given: dict[str, list[object]]) -> Answerer:
    """Answers picked at random among the legal intents (never a flight or surrender, to keep the fight
    going), every other one a Decision with a reason and scores; each kept in ``given`` by combatant."""
    rng = random.Random(seed)

    def answer(combatant: str, view: Any, legal: tuple[Intent, ...]) -> object:
        picks = [i for i in legal if not isinstance(i, Flee | Surrender)]
        pick: object = rng.choice(picks) if picks else None
        if pick is not None and rng.random() < 0.5:
            pick = Decision(pick, reason=f"pick {len(given[combatant])}", scores={"luck": rng.random()})
        given[combatant].append(pick)
        return pick

    return answer


@pytest.mark.parametrize("example", ["duel", "skirmish"])
def test_a_stepped_run_logs_what_a_run_of_controllers_giving_the_same_answers_logs(
    example: str, tmp_path: Path
) -> None:
    ids = [c["id"] for c in tomllib.loads((EXAMPLES / f"{example}.toml").read_text())["combatants"]]
    external, called = ids[0], ids[-1]  # one stepped, one called in the same run
    given: dict[str, list[object]] = {external: []}
    name = module(tmp_path, PLAYBACK)
    mixed = load(scenario_file(tmp_path, example, {external: "external", called: f"{name}:make"}))
    bot = sys.modules[name]
    bot.ANSWERS[called] = [Decision(None, reason="", scores={})]  # the called one stands idle
    stepped = stepped_run(mixed, random_answers(7, given))
    assert len(given[external]) > 3
    bot.ANSWERS[external] = given[external]
    played = load(scenario_file(tmp_path, example, {external: f"{name}:make", called: f"{name}:make"}))
    assert outcome(stepped) == outcome(EnergionBattle(played).run().log)


def test_a_stepped_question_offers_the_combatants_view_and_legal_intents(tmp_path: Path) -> None:
    battle = EnergionBattle(load(scenario_file(tmp_path, "duel", {"brenna": "external"})))
    stepped = battle.step_outside()
    encounter = battle.start()
    while stepped.waiting is None:
        encounter.step()
    combatant, offer = stepped.waiting
    view, legal = offer.view(), offer.legal()
    assert (combatant, view.me.id, view.now) == ("brenna", "brenna", encounter.now)
    full = menu(battle.loadouts["brenna"], ("gorm",))
    assert legal
    assert [intent for intent in full if intent in legal] == list(legal)


def test_a_stepped_run_waits_while_a_question_waits(tmp_path: Path) -> None:
    battle = EnergionBattle(load(scenario_file(tmp_path, "duel", {"brenna": "external"})))
    stepped = battle.step_outside()
    encounter = battle.start()
    while stepped.waiting is None:
        encounter.step()
    count = encounter.count
    for _ in range(50):  # gorm's own steps may go on; brenna's answer does not come
        if encounter.peek() == float("inf"):
            break
        encounter.step()
    decided = [e for e in encounter.log[count:] if isinstance(e, IntentChosen)]
    assert decided == []
    assert stepped.waiting is not None


def test_answering_when_no_question_waits_is_an_error(tmp_path: Path) -> None:
    battle = EnergionBattle(load(scenario_file(tmp_path, "duel", {"brenna": "external"})))
    with pytest.raises(RuntimeError, match="no question is waiting"):
        battle.step_outside().answer(None)


def test_a_stepped_answer_that_is_no_intent_is_an_error_naming_the_combatant(tmp_path: Path) -> None:
    battle = EnergionBattle(load(scenario_file(tmp_path, "duel", {"brenna": "external"})))
    stepped = battle.step_outside()
    encounter = battle.start()
    while stepped.waiting is None:
        encounter.step()
    with pytest.raises(ControllerError, match=r"^the answer for brenna answered 42: not an intent"):
        stepped.answer(42)


# --- Replayed: a log verified without the controllers' code ---------------------------------------------

RANDOM_LEGAL = """\
import random

from affray.npc.energion.intents import Flee, Surrender
from affray.npc.outside import Decision


class Random:
    def __init__(self, seat):
        self.rng = random.Random(seat.seed)

    def decide(self, view, legal):
        picks = [i for i in legal if not isinstance(i, Flee | Surrender)] or list(legal)
        pick = self.rng.choice(picks)
        return Decision(pick, reason="at random", scores={"luck": self.rng.random()})


def make(seat):
    return Random(seat)
"""


def forget(name: str, folder: Path) -> None:
    """Make module ``name`` in ``folder`` impossible to import (asserted, not assumed)."""
    sys.modules.pop(name, None)
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != folder.resolve()]
    importlib.invalidate_caches()
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(name)


def outside_log(tmp_path: Path, source: str, example: str = "duel") -> tuple[bytes, str]:
    """The log of ``example`` with every combatant played by the controller in ``source``; the module."""
    name = module(tmp_path, source)
    ids = [c["id"] for c in tomllib.loads((EXAMPLES / f"{example}.toml").read_text())["combatants"]]
    built = load(scenario_file(tmp_path, example, dict.fromkeys(ids, f"{name}:make")))
    return encode_log(header_for(built), EnergionBattle(built).run().log), name


@pytest.mark.parametrize("example", ["duel", "skirmish", "brawl"])
def test_a_log_made_by_outside_controllers_verifies_without_their_code(
    example: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, name = outside_log(tmp_path, RANDOM_LEGAL, example)
    assert b'"kind":"intent_chosen"' in data
    forget(name, tmp_path)
    monkeypatch.chdir(tmp_path.parent)
    found = verdict(read(data))
    assert found.ok, found


def test_a_recorded_decision_changed_is_carried_out_and_caught_at_the_event_it_changes(
    tmp_path: Path,
) -> None:
    data, name = outside_log(tmp_path, NEAREST_AS_OUTSIDE)
    forget(name, tmp_path)
    lines = log_lines(data)
    at = next(n for n, line in enumerate(lines) if b'"kind":"intent_chosen"' in line)
    changed = re.sub(rb'"intent":\{[^}]*\}', b'"intent":{"do":"wait","seconds":1,"reason":"r"}', lines[at])
    assert changed != lines[at]
    found = verdict(read(rechain([*lines[:at], changed, *lines[at + 1 :]])))
    assert (found.ok, found.seq) == (False, at + 1)
    assert "simulated waited" in found.message


# --- a log's factories are never imported ---------------------------------------------------------------


def from_header(header: Any) -> EnergionScenario:
    """The scenario a log's header gives (read with no folder: nothing imported as it loads)."""
    scenario: EnergionScenario = rulesets.recorded(header, "log").scenario
    return scenario


def test_a_run_of_a_scenario_from_a_log_imports_no_factory_it_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The module is on the import path and in the current folder, yet a battle made from the header
    of a log naming it imports nothing: its factory was never imported from a folder the user named."""
    name = module(tmp_path, "raise RuntimeError('imported')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    built = rulesets.ruleset("energion").load(
        tomllib.loads(scenario_file(tmp_path, "duel", {"gorm": f"{name}:make"}).read_text()), "s", None
    )
    with pytest.raises(ControllerError) as error:
        EnergionBattle(from_header(header_for(built))).run()
    assert str(error.value).startswith(
        f"$.combatants[1].controller ({name}:make) of gorm: controller '{name}:make': its code was not "
        "imported: affray imports a controller only from the folder of the scenario file that names it"
    )
    assert name not in sys.modules


def test_strict_replay_of_a_decision_the_log_does_not_hold_names_the_combatant_and_controller(
    tmp_path: Path,
) -> None:
    data, name = outside_log(tmp_path, NEAREST_AS_OUTSIDE)
    forget(name, tmp_path)
    log = read(data)
    recorded = log.events
    battle = EnergionBattle(from_header(log.header))
    given = iter(recorded[:20])
    due: list[Event | None] = [next(given, None)]

    def follow(event: Event) -> None:
        due[0] = next(given, None)

    battle.replay_decisions(lambda: due[0], strict=True)
    with pytest.raises(UnrecordedDecision) as error:
        battle.run(sinks=[follow])
    asked = next(e for e in recorded[20:] if isinstance(e, IntentChosen))
    assert (error.value.combatant, error.value.controller, error.value.now) == (
        asked.combatant,
        f"{name}:make",
        asked.t,
    )
    assert str(error.value) == (
        f"{asked.combatant} (controller '{name}:make') must make a decision at {asked.t / 1000:.3f} s that "
        "the log does not record"
    )
    assert name not in sys.modules
