"""Controllers from outside affray (affray/npc/outside.py): a scenario's controllers checked, answers
checked and made ready to record, the ``package.module:factory`` spec, a seat's own seed, and importing a
factory from a folder: only from it, never from the import path or the current folder, and never taking a
module of the same name imported from elsewhere in its place.

Factories are small modules written into the test's folder, each under a name of its own (a module once
imported stays in ``sys.modules``).
"""

from __future__ import annotations

import hashlib
import importlib
import math
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray.errors import ControllerError, ScenarioError
from affray.events.energion.intents import INTENTS, Approach, Attack, Wait
from affray.events.shared import Score
from affray.handlers.energion.scenario import CONTROLLERS
from affray.npc.outside import (
    EXTERNAL,
    NOTHING,
    Chosen,
    Decision,
    Seat,
    check_controllers,
    check_spec,
    chosen,
    factory,
    imported,
    is_outside,
    seat_seed,
    where_it_failed,
)
from tests.user_code import module

WHO = "the controller of brenna (Bot)"
ATTACK = Attack(target="gorm", reason="nearest enemy")


def seat(combatant: str = "brenna") -> Seat:
    return Seat(combatant=combatant, side="ford", controller="bot:make", seed=seat_seed(1, combatant))


# --- chosen: an answer checked and made ready to record ---------------------------------------------


def test_chosen_of_none_is_nothing_more() -> None:
    assert chosen(None, INTENTS, WHO) == NOTHING == Chosen(None, ())


def test_chosen_of_a_bare_intent_keeps_it_and_its_reason_without_scores() -> None:
    assert chosen(ATTACK, INTENTS, WHO) == Chosen(ATTACK, ())


def test_a_decisions_reason_replaces_the_intents_own() -> None:
    made = chosen(Decision(ATTACK, reason="weakest enemy"), INTENTS, WHO)
    assert made.intent == Attack(target="gorm", reason="weakest enemy")


def test_a_decision_without_a_reason_keeps_the_intents_own() -> None:
    assert chosen(Decision(ATTACK), INTENTS, WHO).intent == ATTACK


def test_a_decisions_scores_are_recorded_in_its_order_as_numbers() -> None:
    made = chosen(Decision(ATTACK, scores={"wait": 1, "attack gorm": 2.5, "approach gorm": -3}), INTENTS, WHO)
    assert made.scores == (
        Score(option="wait", score=1.0),
        Score(option="attack gorm", score=2.5),
        Score(option="approach gorm", score=-3.0),
    )
    assert all(type(score.score) is float for score in made.scores)


@given(
    st.dictionaries(
        st.text(max_size=20), st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(10**9), 10**9)
    )
)
def test_any_finite_scores_are_recorded_as_given_in_order(scores: dict[str, float]) -> None:
    made = chosen(Decision(Wait(seconds=1, reason="r"), scores=scores), INTENTS, WHO)
    assert [(s.option, s.score) for s in made.scores] == [(k, float(v)) for k, v in scores.items()]


def test_a_decision_of_nothing_more_keeps_its_scores() -> None:
    made = chosen(Decision(None, scores={"attack gorm": 0.5}), INTENTS, WHO)
    assert made == Chosen(None, (Score(option="attack gorm", score=0.5),))


@pytest.mark.parametrize("answer", [42, "attack gorm", {"do": "attack"}, Decision])
def test_an_answer_neither_intent_decision_nor_none_is_an_error_naming_who(answer: object) -> None:
    with pytest.raises(ControllerError, match=r"the controller of brenna \(Bot\) answered .*not an intent"):
        chosen(answer, INTENTS, WHO)


def test_a_decision_on_something_not_an_intent_is_an_error_naming_who() -> None:
    with pytest.raises(ControllerError, match=r"^the controller of brenna \(Bot\) decided on 'attack'"):
        chosen(Decision("attack"), INTENTS, WHO)


def test_an_intent_of_another_ruleset_is_no_intent_here() -> None:
    with pytest.raises(ControllerError, match="not an intent"):
        chosen(ATTACK, (Approach,), WHO)


@pytest.mark.parametrize("score", [math.nan, math.inf, -math.inf])
def test_a_score_that_is_not_finite_is_an_error_naming_who(score: float) -> None:
    with pytest.raises(ControllerError, match=r"^the controller of brenna \(Bot\) scored 'wait' as .*finite"):
        chosen(Decision(ATTACK, scores={"wait": score}), INTENTS, WHO)


@pytest.mark.parametrize("score", [True, "high", None, [1.0]])
def test_a_score_that_is_not_a_number_is_an_error_naming_who(score: object) -> None:
    with pytest.raises(ControllerError, match=r"^the controller of brenna \(Bot\) scored 'wait' as .*number"):
        chosen(Decision(ATTACK, scores={"wait": score}), INTENTS, WHO)  # type: ignore[dict-item]


@pytest.mark.parametrize("option", [1, None, ("attack", "gorm")])
def test_an_option_that_is_not_text_is_an_error_naming_who(option: object) -> None:
    with pytest.raises(ControllerError, match=r"^the controller of brenna \(Bot\) scored .* want text"):
        chosen(Decision(ATTACK, scores={option: 1.0}), INTENTS, WHO)  # type: ignore[dict-item]


# --- is_outside and check_spec --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("controller", "outside"),
    [(EXTERNAL, True), ("bots.utility:utility", True), ("nearest", False), ("auto", False)],
)
def test_external_and_factories_are_played_from_outside(controller: str, outside: bool) -> None:
    assert is_outside(controller) is outside


@pytest.mark.parametrize("controller", ["a.b:c", "a:b.c", "bots.utility:utility", "_x:_y"])
def test_check_spec_accepts_a_package_module_factory(controller: str) -> None:
    assert check_spec(controller) == ""


@pytest.mark.parametrize("controller", ["a:", ":b", "a b:c", "a:b:c", "1a:b", "a..b:c", "a:b-c"])
def test_check_spec_says_what_is_no_package_module_factory(controller: str) -> None:
    assert check_spec(controller) == f"{controller!r} is no package.module:factory"


# --- seat_seed ------------------------------------------------------------------------------------------


def test_seat_seed_is_blake2b_of_the_seat_text_first_8_bytes_shifted_right() -> None:
    # BLAKE2b with an 8-byte digest of "affray-seat-v1:1130:brenna" is 69aae24d8a1e7457; read big-endian
    # and shifted right by one: 0x69aae24d8a1e7457 >> 1 = 3807073471340427819
    digest = hashlib.blake2b(b"affray-seat-v1:1130:brenna", digest_size=8).digest()
    assert digest.hex() == "69aae24d8a1e7457"
    assert seat_seed(1130, "brenna") == 0x69AAE24D8A1E7457 >> 1 == 3807073471340427819


@given(st.integers(min_value=0, max_value=2**63 - 1), st.text(max_size=30))
def test_seat_seed_follows_its_recipe_and_is_a_non_negative_63_bit_integer(seed: int, combatant: str) -> None:
    text = f"affray-seat-v1:{seed}:{combatant}".encode()
    expected = int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1
    found = seat_seed(seed, combatant)
    assert found == expected == seat_seed(seed, combatant)
    assert 0 <= found < 2**63


def test_seat_seeds_differ_by_combatant_and_by_encounter_seed() -> None:
    seeds = {seat_seed(seed, who) for seed in (0, 1, 1130) for who in ("brenna", "gorm", "Brenna", "brenna ")}
    assert len(seeds) == 12


# --- factory --------------------------------------------------------------------------------------------

MAKER = """\
class Bot:
    def __init__(self, seat):
        self.seat = seat

    def decide(self, view, legal):
        return None


def make(seat):
    return Bot(seat)


class Makers:
    make = staticmethod(make)


NOT_CALLABLE = 3
"""


def test_factory_imports_the_module_from_the_folder_given(tmp_path: Path) -> None:
    name = module(tmp_path, MAKER)
    made = factory(f"{name}:make", tmp_path)(seat())
    assert type(made).__name__ == "Bot"
    assert made.seat == seat()
    assert sys.modules[name].__file__ == str(tmp_path.resolve() / f"{name}.py")


def test_factory_follows_a_dotted_name_inside_the_module(tmp_path: Path) -> None:
    name = module(tmp_path, MAKER)
    assert factory(f"{name}:Makers.make", tmp_path) is sys.modules[name].make


def test_factory_imports_a_module_of_a_package_in_the_folder(tmp_path: Path) -> None:
    package = module(tmp_path, "")
    (tmp_path / f"{package}.py").unlink()
    (tmp_path / package).mkdir()
    (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / package / "bot.py").write_text(MAKER)
    importlib.invalidate_caches()
    assert factory(f"{package}.bot:make", tmp_path).__module__ == f"{package}.bot"


def test_factory_never_imports_from_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here, folder = tmp_path / "here", tmp_path / "scenario"
    here.mkdir()
    folder.mkdir()
    name = module(here, MAKER)
    monkeypatch.chdir(here)
    monkeypatch.syspath_prepend(str(here))  # as python -m affray would have it
    with pytest.raises(ControllerError, match=f"{folder.resolve()} holds no module or package {name}"):
        factory(f"{name}:make", folder)
    assert name not in sys.modules


def test_factory_never_imports_from_the_import_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    name = module(elsewhere, MAKER)
    monkeypatch.syspath_prepend(str(elsewhere))
    with pytest.raises(ControllerError, match=f"holds no module or package {name}"):
        factory(f"{name}:make", tmp_path)
    assert name not in sys.modules


@pytest.mark.parametrize("controller", ["os:system", "subprocess:run", "affray.cli:main"])
def test_a_module_imported_already_is_not_reached_through_a_folder_without_it(
    controller: str, tmp_path: Path
) -> None:
    top = controller.partition(".")[0].partition(":")[0]
    with pytest.raises(ControllerError) as error:
        factory(controller, tmp_path)
    assert str(error.value) == (
        f"controller {controller!r}: cannot import {controller.partition(':')[0]}: {tmp_path.resolve()} "
        f"holds no module or package {top} (a controller is imported from that folder only)"
    )


@pytest.mark.parametrize(
    ("top", "home"), [("os", "from "), ("affray", "from "), ("sys", "built into Python")]
)
def test_a_folders_module_named_as_one_imported_already_is_refused_not_replaced(
    top: str, home: str, tmp_path: Path
) -> None:
    (tmp_path / f"{top}.py").write_text("raise RuntimeError('the folder's own ran')\n")
    importlib.invalidate_caches()
    before = sys.modules[top]
    with pytest.raises(ControllerError) as error:
        factory(f"{top}:make", tmp_path)
    assert f"a module named {top} is imported already, {home}" in str(error.value)
    assert f"so the {top} in {tmp_path.resolve()} cannot be; give your package a name of its own" in str(
        error.value
    )
    assert sys.modules[top] is before


def test_a_package_imported_from_one_folder_is_refused_from_another(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    name = module(first, MAKER)
    (second / f"{name}.py").write_text(MAKER)
    importlib.invalidate_caches()
    made = factory(f"{name}:make", first)
    with pytest.raises(
        ControllerError, match=f"a module named {name} is imported already, from {first.resolve()}"
    ):
        factory(f"{name}:make", second)
    assert imported(f"{name}:make") is made


def test_a_module_the_folder_gave_already_is_used_again(tmp_path: Path) -> None:
    name = module(tmp_path, MAKER)
    assert factory(f"{name}:make", tmp_path) is factory(f"{name}:Makers.make", tmp_path)


def test_a_namespace_package_is_searched_in_its_folder_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A package without ``__init__.py`` keeps the one folder it was found in: a part of the same name on the
    import path (the current folder, under python -m) adds nothing to it."""
    package = module(tmp_path, "")
    (tmp_path / f"{package}.py").unlink()
    folder, here = tmp_path / "scenario", tmp_path / "here"
    for place in (folder, here):
        (place / package).mkdir(parents=True)
    (folder / package / "bot.py").write_text(MAKER)
    (here / package / "planted.py").write_text("raise RuntimeError('planted')\n")
    monkeypatch.syspath_prepend(str(here))
    importlib.invalidate_caches()
    assert factory(f"{package}.bot:make", folder).__module__ == f"{package}.bot"
    sys.path.append(str(tmp_path))  # a changed import path, which a namespace package's path follows
    assert list(sys.modules[package].__path__) == [str(folder.resolve() / package)]
    with pytest.raises(ControllerError, match=f"No module named '{package}.planted'"):
        factory(f"{package}.planted:make", folder)


def test_imported_gives_what_factory_imported_and_imports_nothing(tmp_path: Path) -> None:
    name = module(tmp_path, MAKER)
    with pytest.raises(ControllerError, match=f"^controller '{name}:make': its code was not imported: "):
        imported(f"{name}:make")
    assert name not in sys.modules
    made = factory(f"{name}:make", tmp_path)
    assert imported(f"{name}:make") is made


def test_imported_does_not_take_a_module_someone_else_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ControllerError, match="its code was not imported"):
        imported("os:system")


def test_a_missing_module_is_an_error_saying_where_it_looked(tmp_path: Path) -> None:
    with pytest.raises(ControllerError) as error:
        factory("no_such_outside_module:make", tmp_path)
    assert str(error.value) == (
        "controller 'no_such_outside_module:make': cannot import no_such_outside_module: "
        f"{tmp_path.resolve()} holds no module or package no_such_outside_module (a controller is imported "
        "from that folder only)"
    )


def test_a_missing_factory_is_an_error_naming_it(tmp_path: Path) -> None:
    name = module(tmp_path, MAKER)
    with pytest.raises(ControllerError, match=rf"^controller '{name}:nope': {name} has no nope$"):
        factory(f"{name}:nope", tmp_path)


def test_a_missing_attribute_on_the_way_is_an_error_naming_the_whole_name(tmp_path: Path) -> None:
    name = module(tmp_path, MAKER)
    with pytest.raises(ControllerError, match=rf"{name} has no Makers\.nope$"):
        factory(f"{name}:Makers.nope", tmp_path)


def test_a_factory_that_is_not_callable_is_an_error(tmp_path: Path) -> None:
    name = module(tmp_path, MAKER)
    with pytest.raises(
        ControllerError, match=rf"^controller '{name}:NOT_CALLABLE': NOT_CALLABLE is not callable$"
    ):
        factory(f"{name}:NOT_CALLABLE", tmp_path)


def test_a_module_that_raises_on_import_is_an_error_naming_the_exception(tmp_path: Path) -> None:
    name = module(tmp_path, "raise RuntimeError('no weights found')\n")
    with pytest.raises(ControllerError) as error:
        factory(f"{name}:make", tmp_path)
    where = tmp_path.resolve() / f"{name}.py"
    assert f"importing {name} failed: RuntimeError: no weights found (at {where}:1)" in str(error.value)
    assert name not in sys.modules


def test_a_module_whose_own_import_fails_is_an_error_naming_the_missing_module(tmp_path: Path) -> None:
    name = module(tmp_path, "import no_such_dependency_of_the_bot\n")
    with pytest.raises(ControllerError, match=f"cannot import {name}: No module named 'no_such_dependency"):
        factory(f"{name}:make", tmp_path)


# --- where_it_failed ------------------------------------------------------------------------------------


def test_where_it_failed_names_the_exception_and_the_innermost_file_and_line(tmp_path: Path) -> None:
    name = module(
        tmp_path, "def make(seat):\n    return helper()\n\n\ndef helper():\n    raise KeyError(1)\n"
    )
    with pytest.raises(KeyError) as error:
        factory(f"{name}:make", tmp_path)(seat())
    assert where_it_failed(error.value) == f"KeyError: 1 (at {tmp_path.resolve() / f'{name}.py'}:6)"


def test_where_it_failed_of_an_exception_never_raised_has_no_place() -> None:
    assert where_it_failed(ValueError("boom")) == "ValueError: boom"


# --- check_controllers ----------------------------------------------------------------------------------


def test_an_unknown_controller_is_an_error_naming_its_field() -> None:
    with pytest.raises(ScenarioError) as error:
        check_controllers(["nearest", "tactical"], CONTROLLERS, "s.toml")
    assert str(error.value) == (
        "s.toml: $.combatants[1].controller: 'tactical' is none of auto, nearest, tactician, external, "
        "nor a package.module:factory"
    )


@pytest.mark.parametrize("controller", ["a b:c", "bots.utility:", ":utility", "bots:utility:x"])
def test_a_controller_that_is_no_factory_spec_is_an_error_naming_its_field(controller: str) -> None:
    with pytest.raises(ScenarioError) as error:
        check_controllers(["auto", controller], CONTROLLERS, "s.toml")
    assert (
        str(error.value) == f"s.toml: $.combatants[1].controller: {controller!r} is no package.module:factory"
    )


def test_without_a_folder_a_factory_is_not_imported() -> None:
    """A scenario read from a log names factories that need not be there: verifying takes its decisions."""
    check_controllers(["no_such_outside_module:make", "external", "tactician"], CONTROLLERS, "log")


def test_with_a_folder_a_factory_that_cannot_be_imported_is_an_error_naming_its_field(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as error:
        check_controllers(["auto", "no_such_outside_module:make"], CONTROLLERS, "s.toml", tmp_path)
    assert str(error.value).startswith(
        "s.toml: $.combatants[1].controller: controller 'no_such_outside_module:make': cannot import"
    )
