"""The contract of a ruleset (affray.testing.contract, the suite third-party authors run), run over every
built-in ruleset and module and over the toy of tests/toy.

Each ruleset is exercised on its sample scenarios: the examples of its ruleset (the shortest fight first,
whose odds are worked out), and the toy's duel.
"""

from __future__ import annotations

import re
from pathlib import Path

from affray import rulesets
from affray.testing.contract import ModuleContract, RulesetContract
from tests.toy import RULESET as TOY

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def _ruleset_of(path: Path) -> str:
    match = re.search(r'^ruleset = "(\w+)"', path.read_text(), re.M)
    assert match, path
    return match.group(1)


def examples_of(ruleset: str, first: str) -> list[Path]:
    """The examples of ``ruleset``, the one named ``first`` first."""
    found = sorted(path for path in EXAMPLES.glob("*.toml") if _ruleset_of(path) == ruleset)
    return sorted(found, key=lambda path: path.stem != first)


class TestEnergion(RulesetContract):
    """Energion on its examples, the duel first."""

    ruleset = "energion"
    samples = examples_of("energion", first="duel")


class TestFivestep(RulesetContract):
    """fivestep on its examples, the bar brawl first (the firefight has a controller from outside affray)."""

    ruleset = "fivestep"
    samples = examples_of("fivestep", first="bar-brawl")


class TestToy(RulesetContract):
    """The toy, registered as a value, on its duel."""

    ruleset = TOY
    samples = (ROOT / "tests" / "toy" / "duel.toml",)


class TestSpecialDamage(ModuleContract):
    """The special_damage module's tables."""

    module = "special_damage"


def test_every_built_in_ruleset_and_module_and_every_example_is_in_the_contract() -> None:
    contracts = [TestEnergion, TestFivestep, TestToy]
    assert {c().owner().name for c in contracts} == {*rulesets.BUILT_IN_RULESETS, TOY.name}
    assert {TestSpecialDamage.module} == set(rulesets.BUILT_IN_MODULES)
    assert {path for c in contracts for path in c.samples} >= set(EXAMPLES.glob("*.toml"))
